// The emulator: a real HTTP(S) server on loopback that speaks the storage constraint profile and
// report API (api-routes.ts), with admin routes under /__emulator/ (admin-routes.ts) that let tests inspect
// what was sent, arrange profiles and inject faults (fault-replies.ts). This file owns the server: sockets,
// the request log, dispatch, and answering.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isLoopbackHost } from '../core/urls.js';
import { systemClock } from '../core/clock.js';
import { loggedBody } from './logged-body.js';
import { maskSecret } from '../core/secrets.js';
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { adminRoute } from './admin-routes.js';
import { bucketRoute, reportRoute } from './api-routes.js';
import { generateEvents } from './events.js';
import type { EmuEvent } from './events.js';
import { applyFault } from './fault-replies.js';
import { FaultQueue } from './faults.js';
import { ApiError, JSON_TYPE, MAX_BODY_BYTES, RateLimiter, errorJson, errorReply, matchEndpoint, readBody, tokenDigest, type Reply } from './http.js';
import { ProfileStore } from './store.js';
import type { EmulatorCore, EmulatorOptions, RequestRecord, RunningEmulator } from './types.js';

export type { EmulatorOptions, RequestRecord, RunningEmulator } from './types.js';

export const DEFAULT_TOKEN = 'emulator-token';
const MAX_LOGGED_REQUESTS = 10_000;
const LOGGED_BODY_CHARS = 2000;

class Emulator implements EmulatorCore {
  readonly store: ProfileStore;
  readonly faults = new FaultQueue();
  readonly events: EmuEvent[];
  readonly now: number;
  readonly server: http.Server;
  readonly closed: Promise<void>;
  readonly tokenHash: Buffer;
  private readonly limiter?: RateLimiter;
  readonly pendingMs: number;
  readonly log: (line: string) => void;
  requests: RequestRecord[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closing = false;
  private markClosed!: () => void;

  clockNow(): number {
    return (this.opts.clock ?? systemClock).now();
  }

  /** A digest of the admin key, compared in constant time. */
  private readonly adminKeyHash: Buffer;

  constructor(readonly opts: EmulatorOptions & { token: string; adminKey: string }) {
    this.tokenHash = tokenDigest(opts.token);
    this.adminKeyHash = tokenDigest(opts.adminKey);
    this.pendingMs = opts.pendingMs ?? 0;
    this.log = opts.log ?? (() => {}); // the command hands its stderr; a caller without one hears nothing
    if (opts.rateLimit) this.limiter = new RateLimiter(opts.rateLimit.requests, opts.rateLimit.windowMs);
    this.store = ProfileStore.open({ statePath: opts.statePath, seeds: opts.profiles });
    this.now = opts.now ?? Math.floor(this.clockNow() / 1000);
    this.events = generateEvents(opts.events ?? 2000, opts.seed ?? 1, this.now);

    const onRequest = (req: IncomingMessage, res: ServerResponse) => {
      this.handle(req, res).catch((err: unknown) => this.internalError(res, err));
    };
    this.server = opts.tls
      ? https.createServer({ cert: opts.tls.cert, key: opts.tls.key }, onRequest)
      : http.createServer(onRequest);
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
    this.server.once('close', () => this.markClosed());
  }

  close(): Promise<void> {
    if (!this.closing) {
      this.closing = true;
      for (const t of this.timers) clearTimeout(t);
      this.timers.clear();
      if (this.server.listening) this.server.close();
      else this.markClosed();
      // server.close() waits for open connections; hung and stalled ones never end by themselves.
      for (const s of this.sockets) s.destroy();
    }
    return this.closed;
  }

  private internalError(res: ServerResponse, err: unknown, record?: RequestRecord): void {
    if (record) record.status = 500;
    this.log(`scpctl emulator: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    if (res.headersSent) {
      res.destroy();
    } else {
      const body = errorJson('Internal Error', `Internal emulator error: ${(err as Error)?.message ?? String(err)}`);
      res.writeHead(500, { 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    }
  }

  /**
   * Why a request must be refused before anything else, or undefined. A web page the admin visits can make
   * the browser send requests to loopback: cross-site ones carry an Origin header, and DNS rebinding ones a
   * Host that is the attacker's name. Neither comes from scpctl, curl or a test, which send neither.
   */
  private refusal(req: IncomingMessage): string | undefined {
    if (req.headers.origin !== undefined) return 'Requests from web pages (with an Origin header) are refused';
    const host = (req.headers.host ?? '').toLowerCase();
    const address = this.server.address();
    const port = typeof address === 'object' && address ? String(address.port) : '';
    const listening = typeof address === 'object' && address ? address.address : '';
    const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host);
    const name = match?.[1]?.replace(/^\[(.*)\]$/, '$1');
    if (!match || (match[2] !== undefined && match[2] !== port) || (name !== listening && name !== 'localhost')) {
      return `Host '${host}' is not this emulator's address`;
    }
    return undefined;
  }

  /** Whether the request carries the admin key (compared as digests, in constant time). */
  private isAdmin(req: IncomingMessage): boolean {
    const match = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    return match !== null && timingSafeEqual(tokenDigest(match[1]!), this.adminKeyHash);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = this.refusal(req);
    if (refused !== undefined) {
      const body = errorJson('Forbidden', refused);
      res.writeHead(403, { 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
      res.end(body);
      return;
    }
    // Concatenated rather than resolved, so that a path like `//api/v1/...` stays a path.
    const target = req.url ?? '/';
    const url = new URL(`http://emulator.invalid${target.startsWith('/') ? '' : '/'}${target}`);
    if (url.pathname.startsWith('/__emulator/')) {
      if (!this.isAdmin(req)) {
        return this.send(res, undefined, { status: 401, body: errorJson('Unauthorized', 'The admin routes need the admin key the emulator printed: Authorization: Bearer KEY') });
      }
      return adminRoute(this, req, res, url);
    }

    const query: Record<string, string> = {};
    // Any value (a profile name, the path) may hold a copy of a token: masked as the body is.
    const tokens = [this.opts.token, url.searchParams.get('token') ?? ''];
    for (const [k, v] of url.searchParams) if (!Object.hasOwn(query, k)) query[k] = maskSecret(v, tokens);
    // The log shows that a token was sent, never which (a rejected one may be a user's real token).
    if (query.token !== undefined) query.token = '***';
    const record: RequestRecord = {
      method: req.method ?? '',
      path: maskSecret(url.pathname, tokens),
      query,
      ...(query.op !== undefined && { op: query.op }),
      ...(query.name !== undefined && { name: query.name }),
      bodyBytes: 0,
      body: '',
      status: 0,
      time: this.clockNow(),
    };
    this.requests.push(record);
    if (this.requests.length > MAX_LOGGED_REQUESTS * 1.1) this.requests = this.requests.slice(-MAX_LOGGED_REQUESTS);
    return this.handleApi(req, res, url, record).catch((err: unknown) => this.internalError(res, err, record));
  }

  private async handleApi(req: IncomingMessage, res: ServerResponse, url: URL, record: RequestRecord): Promise<void> {
    const body = await readBody(req, MAX_BODY_BYTES);
    record.bodyBytes = body.ok ? body.buf.length : body.bytes;
    if (!body.ok) {
      if (!body.tooLarge) return; // the client went away
      const err = new ApiError(413, 'Payload Too Large', `Request body exceeds ${MAX_BODY_BYTES} bytes`, {
        Connection: 'close',
      });
      return this.send(res, record, errorReply(err));
    }
    const text = body.buf.toString('utf8');
    record.body = loggedBody(text, [this.opts.token, url.searchParams.get('token') ?? ''], LOGGED_BODY_CHARS);

    if (this.limiter) {
      const waitMs = this.limiter.check(this.clockNow());
      if (waitMs > 0) {
        const { requests, windowMs } = this.limiter;
        const err = new ApiError(
          429,
          'Too Many Requests',
          `Rate limit exceeded: at most ${requests} requests per ${windowMs / 1000} seconds`,
          { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) },
        );
        return this.send(res, record, errorReply(err));
      }
    }

    const endpoint = matchEndpoint(url.pathname);
    const op = record.op;
    const fault = endpoint ? this.faults.take({ endpoint, op }) : undefined;
    if (fault && fault.kind !== 'delay' && fault.kind !== 'tamper') {
      return applyFault(this, fault, endpoint!, op, req, res, record);
    }

    let reply: Reply;
    try {
      if (!endpoint) {
        throw new ApiError(404, 'No Such Endpoint', `No such endpoint: ${url.pathname}`);
      }
      if (req.method !== 'POST') {
        throw new ApiError(405, 'Method Not Allowed', `Method ${req.method} is not allowed here; use POST`, {
          Allow: 'POST',
        });
      }
      const contentType = req.headers['content-type'];
      reply =
        endpoint === 'bucket'
          ? bucketRoute(this, url.searchParams, text, contentType, fault?.kind === 'tamper' ? fault.append : undefined)
          : reportRoute(this, url.searchParams, text, contentType);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      reply = errorReply(err, this.opts.http200Errors);
    }
    this.send(res, record, reply, fault?.kind === 'delay' ? fault.ms : 0);
  }

  send(res: ServerResponse, record: RequestRecord | undefined, reply: Reply, delayMs = 0): void {
    if (record) record.status = reply.status;
    const write = () => {
      if (res.destroyed || res.writableEnded) return;
      res.writeHead(reply.status, {
        'Content-Type': JSON_TYPE,
        'Content-Length': Buffer.byteLength(reply.body),
        ...reply.headers,
      });
      res.end(reply.body);
    };
    if (delayMs > 0) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        write();
      }, delayMs);
      this.timers.add(timer);
    } else {
      write();
    }
  }
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = opts.host ?? '127.0.0.1';
  // Checked again here (the command checks its flag) for callers that start the server directly.
  if (!isLoopbackHost(host)) {
    throw new Error(`refusing to listen on '${host}': the emulator only listens on loopback (127.0.0.0/8, localhost, ::1)`);
  }
  const token = opts.token ?? DEFAULT_TOKEN;
  // 192 random bits a run: any local process can reach the port, only the one that started the emulator
  // (and read its stdout or key file) can drive it.
  const adminKey = opts.adminKey ?? randomBytes(24).toString('base64url');
  const emulator = new Emulator({ ...opts, token, adminKey });
  const listenHost = host.replace(/^\[(.*)\]$/, '$1');
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(new Error(`cannot listen on ${host}:${opts.port ?? 0}: ${err.message}`));
    emulator.server.once('error', onError);
    emulator.server.listen({ host: listenHost, port: opts.port ?? 0 }, () => {
      emulator.server.off('error', onError);
      resolve();
    });
  });
  emulator.server.on('error', (err) => emulator.log(`scpctl emulator: server error: ${err.message}`));
  const address = emulator.server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 0);
  const urlHost = listenHost.includes(':') ? `[${listenHost}]` : listenHost;
  return {
    url: `${opts.tls ? 'https' : 'http'}://${urlHost}:${port}`,
    host: listenHost,
    port,
    token,
    adminKey,
    now: emulator.now,
    profileNames: () => emulator.store.names(),
    close: () => emulator.close(),
    closed: emulator.closed,
  };
}
