// The emulator: a real HTTP(S) server on loopback that speaks the storage constraint profile and report API,
// with admin routes under /__emulator/ that let tests inspect what was sent, arrange profiles and inject
// faults (routes.ts, faults.ts). This file owns the server: sockets, the guard, the request log, and answering.
import { randomBytes } from 'node:crypto';
import { isLoopbackHost, unbracket } from '../core/urls.js';
import { systemClock } from '../core/clock.js';
import { loggedBody } from './logged-body.js';
import { maskSecret } from '../core/secrets.js';
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { once } from 'node:events';
import { routeOf, type EmulatorCore } from './routes.js';
import { generateEvents, type EmuEvent } from './events.js';
import { FaultQueue, answerFault, type Fault } from './faults.js';
import { ApiError, JSON_TYPE, MAX_ADMIN_BODY_BYTES, MAX_BODY_BYTES, errorReply, rateLimiter, readBody, sameSecret } from './http.js';
import type { Reply } from './http.js';
import { ProfileStore, type ProfileSeed } from './store.js';

/** As `scpctl emulator` reads them from its flags (commands/emulator/index.ts buildEmulatorOptions). */
export interface EmulatorOptions {
  /** Loopback only: 127.0.0.0/8, localhost or ::1. */
  host: string;
  /** 0: a free port. */
  port: number;
  token: string;
  /** JSON file that keeps the profiles across restarts (written atomically). */
  statePath?: string;
  /** Profiles to create; when absent and there is no state file: demo and finance, empty. */
  profiles?: ProfileSeed[];
  /** Synthetic report events, and their seed. */
  events: number;
  seed: number;
  /** How long each successful mutation leaves the profile pending; 0: never. */
  pendingMs: number;
  /** PEM certificate and key (contents, not paths): serve HTTPS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** At most `requests` API requests per `windowMs`; more get 429 with Retry-After. */
  rateLimit?: { requests: number; windowMs: number };
  /** API errors as the service answers them (http.ts errorReply). */
  http200Errors: boolean;
  /** Report pages hold at most this many records whatever `limit` says (the service often caps at 5000). */
  pageCap?: number;
  /** Where internal errors are reported (the command hands its stderr); default nowhere. */
  log?: (line: string) => void;
  /** What time it is, in milliseconds (pending changes, the rate limit, the request log); default the system's. */
  clock?: { now(): number };
}

/** One API request as the admin route /__emulator/requests shows it. */
export interface RequestRecord {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The `op` and `name` query parameters; absent when the request had none. */
  op?: string;
  name?: string;
  bodyBytes: number;
  body: string;
  /** The status answered; 0 while (or when) there is no answer, e.g. hang and reset faults. */
  status: number;
  /** Milliseconds since the epoch when the request arrived. */
  time: number;
}

const MAX_LOGGED_REQUESTS = 10_000;
const LOGGED_BODY_CHARS = 2000;

export class Emulator implements EmulatorCore {
  readonly store: ProfileStore;
  readonly faults = new FaultQueue();
  readonly events: EmuEvent[];
  /** Unix seconds the synthetic events end at (timeperiod windows are relative to it). */
  readonly now: number;
  readonly server: http.Server;
  /** Settles when the server has closed, however that happened (close() or POST /__emulator/shutdown). */
  readonly closed: Promise<void>;
  // 192 random bits a run: any local process can reach the port, only the one that started the emulator
  // (and read its stdout or key file) can drive it.
  readonly adminKey = randomBytes(24).toString('base64url');
  /** e.g. http://127.0.0.1:8787 (no trailing slash), once it listens. */
  url = '';
  requests: RequestRecord[] = [];
  private readonly limit?: (nowMs: number) => number;
  /** Aborted by close(): delayed answers are dropped. */
  private readonly stopping = new AbortController();

  constructor(readonly opts: EmulatorOptions) {
    if (opts.rateLimit) this.limit = rateLimiter(opts.rateLimit);
    this.store = ProfileStore.open(opts.statePath, opts.profiles);
    this.now = Math.floor(this.clockNow() / 1000);
    this.events = generateEvents(opts.events, opts.seed, this.now);

    const onRequest = (req: IncomingMessage, res: ServerResponse) => {
      this.handle(req, res).catch((err: unknown) => this.internalError(res, err));
    };
    this.server = opts.tls
      ? https.createServer({ cert: opts.tls.cert, key: opts.tls.key }, onRequest)
      : http.createServer(onRequest);
    this.closed = new Promise((resolve) => this.server.once('close', () => resolve()));
  }

  clockNow(): number {
    return (this.opts.clock ?? systemClock).now();
  }

  /** Stops listening and destroys every open socket, hung ones included. */
  close(): Promise<void> {
    this.stopping.abort();
    this.server.close();
    // server.close() waits for open connections; hung and stalled ones never end by themselves.
    this.server.closeAllConnections();
    return this.closed;
  }

  private internalError(res: ServerResponse, err: unknown, record?: RequestRecord): void {
    this.opts.log?.(`scpctl emulator: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    if (res.headersSent) return void res.destroy();
    const message = `Internal emulator error: ${(err as Error)?.message ?? String(err)}`;
    void this.send(res, record, errorReply(new ApiError(500, 'Internal Error', message)));
  }

  /**
   * Refuses what must be refused before anything else. A web page the admin visits can make the browser send
   * requests to loopback: cross-site ones carry an Origin header, and DNS rebinding ones a Host that is the
   * attacker's name. Neither comes from scpctl, curl or a test, which send neither. The admin routes need the key.
   */
  private guard(req: IncomingMessage, admin: boolean): void {
    const refuse = (message: string) => new ApiError(403, 'Forbidden', message, { Connection: 'close' });
    if (req.headers.origin !== undefined) throw refuse('Requests from web pages (with an Origin header) are refused');
    const host = (req.headers.host ?? '').toLowerCase();
    const { address, port } = (this.server.address() ?? {}) as Partial<AddressInfo>;
    const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host);
    const name = match ? unbracket(match[1]!) : undefined;
    if (!match || (match[2] !== undefined && match[2] !== String(port)) || (name !== address && name !== 'localhost')) {
      throw refuse(`Host '${host}' is not this emulator's address`);
    }
    const key = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    if (admin && (key === null || !sameSecret(key[1]!, this.adminKey))) {
      throw new ApiError(401, 'Unauthorized', 'The admin routes need the admin key the emulator printed: Authorization: Bearer KEY');
    }
  }

  /** Logs an API request, every copy of a token in it masked. */
  private record(req: IncomingMessage, url: URL): RequestRecord {
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
    return record;
  }

  /** Answers: API requests (those with a record) past the rate limit and the faults. */
  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Concatenated rather than resolved, so that a path like `//api/v1/...` stays a path.
    const target = req.url ?? '/';
    const url = new URL(`http://emulator.invalid${target.startsWith('/') ? '' : '/'}${target}`);
    const admin = url.pathname.startsWith('/__emulator/');
    let record: RequestRecord | undefined;
    let fault: Fault | undefined;
    let reply: Reply;
    try {
      this.guard(req, admin);
      record = admin ? undefined : this.record(req, url);
      const max = record ? MAX_BODY_BYTES : MAX_ADMIN_BODY_BYTES;
      const body = await readBody(req, max);
      if (record) record.bodyBytes = body.ok ? body.buf.length : body.bytes;
      if (!body.ok && !body.tooLarge) return; // the client went away
      if (!body.ok) throw new ApiError(413, 'Payload Too Large', `Request body exceeds ${max} bytes`, { Connection: 'close' });
      const text = body.buf.toString('utf8');
      const route = routeOf(url.pathname);
      if (record) {
        record.body = loggedBody(text, [this.opts.token, url.searchParams.get('token') ?? ''], LOGGED_BODY_CHARS);
        this.checkRate();
        fault = route?.endpoint && this.faults.take(route.endpoint, record.op);
        const faulted = fault && answerFault(fault, route!.endpoint!, res);
        if (faulted !== undefined) {
          record.status = faulted;
          return;
        }
      }
      if (!route) throw new ApiError(404, 'No Such Endpoint', `No such endpoint: ${url.pathname}`);
      const handler = route.handlers[req.method ?? ''];
      if (!handler) {
        const allow = Object.keys(route.handlers).join(', ');
        throw new ApiError(405, 'Method Not Allowed', `Method ${req.method} is not allowed on ${url.pathname}`, { Allow: allow });
      }
      const contentType = req.headers['content-type'];
      reply = handler({ emu: this, q: url.searchParams, text, contentType, profile: route.profile, res, fault });
    } catch (err) {
      if (!(err instanceof ApiError)) return this.internalError(res, err, record);
      reply = errorReply(err, this.opts.http200Errors && record !== undefined);
    }
    return this.send(res, record, reply, fault?.kind === 'delay' ? fault.ms : 0);
  }

  private checkRate(): void {
    const waitMs = this.limit?.(this.clockNow()) ?? 0;
    if (waitMs > 0) {
      const { requests, windowMs } = this.opts.rateLimit!;
      const message = `Rate limit exceeded: at most ${requests} requests per ${windowMs / 1000} seconds`;
      throw new ApiError(429, 'Too Many Requests', message, { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) });
    }
  }

  private async send(res: ServerResponse, record: RequestRecord | undefined, reply: Reply, delayMs = 0): Promise<void> {
    if (record) record.status = reply.status;
    if (delayMs > 0 && !(await delay(delayMs, true, { signal: this.stopping.signal }).catch(() => false))) return;
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(reply.status, {
      'Content-Type': JSON_TYPE,
      'Content-Length': Buffer.byteLength(reply.body),
      ...reply.headers,
    });
    res.end(reply.body);
  }
}

export async function startEmulator(opts: EmulatorOptions): Promise<Emulator> {
  if (!isLoopbackHost(opts.host)) {
    throw new Error(`refusing to listen on '${opts.host}': the emulator only listens on loopback (127.0.0.0/8, localhost, ::1)`);
  }
  const emulator = new Emulator(opts);
  const host = unbracket(opts.host);
  emulator.server.listen({ host, port: opts.port });
  await once(emulator.server, 'listening').catch((err: Error) => {
    throw new Error(`cannot listen on ${opts.host}:${opts.port}: ${err.message}`);
  });
  emulator.server.on('error', (err) => emulator.opts.log?.(`scpctl emulator: server error: ${err.message}`));
  const { port } = emulator.server.address() as AddressInfo;
  emulator.url = `${opts.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return emulator;
}
