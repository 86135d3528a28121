// The emulator: a real HTTP(S) server on loopback that speaks the storage constraint profile and
// report API, with admin routes (under /__emulator/) that let tests inspect what was sent,
// arrange profiles and inject faults.

import { isLoopbackHost } from '../settings/resolve.js';
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createHash, timingSafeEqual } from 'node:crypto';
import { generateEvents, parseReportParams, ReportParamError, runReport } from './events.js';
import type { EmuEvent } from './events.js';
import { FaultQueue, FaultSpecError, MUTATING_OPS } from './faults.js';
import type { Endpoint, Fault } from './faults.js';
import { ProfileStore, splitList } from './store.js';
import type { ProfileSeed } from './store.js';

export const DEFAULT_TOKEN = 'emulator-token';
/** The API's limit on one list string (list, addList or deleteList), in UTF-8 bytes. */
export const MAX_LIST_BYTES = 8 * 1024 * 1024;
/**
 * A modify request may legitimately carry two lists of up to 8 MiB each, so the body limit is
 * twice the list limit plus room for the JSON around them; anything larger is refused unread.
 */
export const MAX_BODY_BYTES = 2 * MAX_LIST_BYTES + 64 * 1024;
const MAX_ADMIN_BODY_BYTES = 64 * 1024 * 1024;
const MAX_LOGGED_REQUESTS = 10_000;
const LOGGED_BODY_CHARS = 2000;
const JSON_TYPE = 'application/json; charset=utf-8';

export const BUCKET_OPS: readonly string[] = [...MUTATING_OPS, 'viewBucketList'];

export interface EmulatorOptions {
  /** Loopback only: 127.0.0.0/8, localhost or ::1. Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port (the command passes 8787). */
  port?: number;
  /** Default "emulator-token". */
  token?: string;
  /** JSON file that keeps the profiles across restarts (written atomically). */
  statePath?: string;
  /** Profiles to create; when absent and there is no state file: demo and finance, empty. */
  profiles?: ProfileSeed[];
  /** Number of synthetic report events, default 2000. */
  events?: number;
  /** Seed of the synthetic events, default 1. */
  seed?: number;
  /** How long each successful mutation leaves the profile pending, default 0 (never). */
  pendingMs?: number;
  /** PEM certificate and key (contents, not paths): serve HTTPS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** At most `requests` API requests per `windowMs`; more get 429 with Retry-After. */
  rateLimit?: { requests: number; windowMs: number };
  /** Unix seconds the synthetic events end at; default the start time. */
  now?: number;
  /** Where internal errors are reported; default standard error. */
  log?: (line: string) => void;
}

export interface RunningEmulator {
  /** e.g. http://127.0.0.1:8787 (no trailing slash). */
  url: string;
  host: string;
  port: number;
  token: string;
  /** Unix seconds the synthetic events end at (timeperiod windows are relative to it). */
  now: number;
  /** Names of the profiles now held. */
  profileNames(): string[];
  /** Stops listening and destroys every open socket, hung ones included. */
  close(): Promise<void>;
  /** Settles when the server has closed, however that happened (close() or POST /__emulator/shutdown). */
  closed: Promise<void>;
}

/** One API request as the admin route /__emulator/requests shows it. */
export interface RequestRecord {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The `op` query parameter; absent when the request had none. */
  op?: string;
  /** The `name` query parameter; absent when the request had none. */
  name?: string;
  bodyBytes: number;
  body: string;
  /** The status answered; 0 while (or when) there is no answer, e.g. hang and reset faults. */
  status: number;
  /** Milliseconds since the epoch when the request arrived. */
  time: number;
}


class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

interface Reply {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

function errorJson(errorCode: string, message: string): string {
  return JSON.stringify({ status: 'error', errorCode, errors: [message] });
}

function errorReply(err: ApiError): Reply {
  return { status: err.status, body: errorJson(err.errorCode, err.message), headers: err.headers };
}

const badRequest = (message: string) => new ApiError(400, 'Invalid Request', message);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isJsonContentType(value: string | undefined): boolean {
  const type = (value ?? '').split(';')[0].trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** Parses a non-empty JSON object body; an empty body is `{}`. */
function parseJsonObject(text: string, contentType: string | undefined): Record<string, unknown> {
  if (text.trim() === '') return {};
  if (!isJsonContentType(contentType)) {
    throw new ApiError(415, 'Unsupported Media Type', `Content-Type must be application/json, got '${contentType ?? ''}'`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw badRequest(`Request body is not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(value)) throw badRequest('Request body must be a JSON object');
  return value;
}

function matchEndpoint(path: string): Endpoint | undefined {
  // Any prefix of non-empty segments is allowed, so that base URLs with a path (a tenant) work;
  // an empty segment (`//api/v1/...`) is a client bug and is not matched.
  const m = /^(?:\/[^/]+)*\/api\/v1\/(storage_constraint_profile|report)$/.exec(path);
  if (!m) return undefined;
  return m[1] === 'report' ? 'report' : 'bucket';
}

type BodyResult = { ok: true; buf: Buffer } | { ok: false; bytes: number; tooLarge: boolean };

/** Collects the body, giving up (without buffering the rest) once it passes `max` bytes. */
function readBody(req: IncomingMessage, max: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    return Promise.resolve({ ok: false, bytes: declared, tooLarge: true });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (r: BodyResult) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (settled) return;
      if (size > max) {
        chunks.length = 0;
        settle({ ok: false, bytes: size, tooLarge: true });
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => settle({ ok: true, buf: Buffer.concat(chunks, size) }));
    req.on('error', () => settle({ ok: false, bytes: size, tooLarge: false }));
    req.on('close', () => settle({ ok: false, bytes: size, tooLarge: false }));
  });
}

/** Sliding window over the accepted API requests. */
class RateLimiter {
  private stamps: number[] = [];

  constructor(
    readonly requests: number,
    readonly windowMs: number,
  ) {}

  /** 0 when the request may go on, else the milliseconds until it could. */
  check(nowMs: number): number {
    while (this.stamps.length > 0 && this.stamps[0] <= nowMs - this.windowMs) this.stamps.shift();
    if (this.stamps.length >= this.requests) return this.stamps[0] + this.windowMs - nowMs;
    this.stamps.push(nowMs);
    return 0;
  }
}

function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

class Emulator {
  readonly store: ProfileStore;
  readonly faults = new FaultQueue();
  readonly events: EmuEvent[];
  readonly now: number;
  readonly server: http.Server;
  readonly closed: Promise<void>;
  private readonly tokenHash: Buffer;
  private readonly limiter?: RateLimiter;
  private readonly pendingMs: number;
  private readonly log: (line: string) => void;
  private requests: RequestRecord[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closing = false;
  private markClosed!: () => void;

  constructor(readonly opts: EmulatorOptions & { token: string }) {
    this.tokenHash = tokenDigest(opts.token);
    this.pendingMs = opts.pendingMs ?? 0;
    this.log = opts.log ?? ((line) => process.stderr.write(line + '\n'));
    if (opts.rateLimit) this.limiter = new RateLimiter(opts.rateLimit.requests, opts.rateLimit.windowMs);
    this.store = ProfileStore.open({ statePath: opts.statePath, seeds: opts.profiles });
    this.now = opts.now ?? Math.floor(Date.now() / 1000);
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
    if (url.pathname.startsWith('/__emulator/')) return this.admin(req, res, url);

    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) if (!Object.hasOwn(query, k)) query[k] = v;
    const record: RequestRecord = {
      method: req.method ?? '',
      path: url.pathname,
      query,
      ...(query.op !== undefined && { op: query.op }),
      ...(query.name !== undefined && { name: query.name }),
      bodyBytes: 0,
      body: '',
      status: 0,
      time: Date.now(),
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
    record.body = text.slice(0, LOGGED_BODY_CHARS);

    if (this.limiter) {
      const waitMs = this.limiter.check(Date.now());
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
      return this.applyFault(fault, endpoint!, op, req, res, record);
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
          ? this.bucket(url.searchParams, text, contentType, fault?.kind === 'tamper' ? fault.append : undefined)
          : this.report(url.searchParams, text, contentType);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      reply = errorReply(err);
    }
    this.send(res, record, reply, fault?.kind === 'delay' ? fault.ms : 0);
  }

  private send(res: ServerResponse, record: RequestRecord | undefined, reply: Reply, delayMs = 0): void {
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

  private checkToken(token: unknown): void {
    if (token === undefined || token === null || token === '') {
      throw new ApiError(401, 'Authorization Error', 'Missing token');
    }
    if (typeof token !== 'string' || !timingSafeEqual(tokenDigest(token), this.tokenHash)) {
      throw new ApiError(401, 'Authorization Error', 'Invalid token');
    }
  }

  // ------------------------------------------------------------------------------------------
  // POST /api/v1/storage_constraint_profile

  private bucket(q: URLSearchParams, text: string, contentType: string | undefined, tamper?: string[]): Reply {
    this.checkToken(q.get('token'));
    const op = q.get('op');
    if (op === null || op === '') {
      throw badRequest(`Missing query parameter 'op' (one of ${BUCKET_OPS.join(', ')})`);
    }
    if (!BUCKET_OPS.includes(op)) throw badRequest(`Unknown op '${op}': expected one of ${BUCKET_OPS.join(', ')}`);
    const name = q.get('name');
    if (name === null || name === '') throw badRequest(`Missing query parameter 'name'`);
    if (!this.store.has(name)) throw new ApiError(404, 'Not Found', `Profile '${name}' does not exist`);
    if (this.store.isPending(name)) {
      throw new ApiError(409, 'Conflict', `A change is pending on profile '${name}'`);
    }

    const body = parseJsonObject(text, contentType);
    const allowed = op === 'viewBucketList' ? [] : op === 'modifyBucketList' ? ['addList', 'deleteList'] : ['list'];
    for (const key of Object.keys(body)) {
      if (!allowed.includes(key)) {
        throw badRequest(
          `Unexpected field '${key}' in the body of ${op}` +
            (allowed.length ? ` (expected ${allowed.map((k) => `'${k}'`).join(' or ')})` : ' (expected {})'),
        );
      }
    }
    for (const key of allowed) {
      const v = body[key];
      if (v !== undefined && typeof v !== 'string') {
        throw badRequest(`'${key}' must be a string of comma-separated bucket names`);
      }
      if (typeof v === 'string' && Buffer.byteLength(v) > MAX_LIST_BYTES) {
        throw new ApiError(413, 'Payload Too Large', `${key} exceeds 8 MB`);
      }
    }

    if (op === 'viewBucketList') {
      return { status: 200, body: `{"status":"success","msg":"","data":${JSON.stringify(this.store.view(name))}}` };
    }

    // With a state file, the change counts only once it is saved: a save that fails puts the list back
    // and answers an error, so the answer and the state never disagree.
    const before = this.store.persistent ? this.store.snapshot(name) : undefined;
    let count: number;
    if (op === 'modifyBucketList') {
      const add = splitList((body.addList as string | undefined) ?? '');
      const del = splitList((body.deleteList as string | undefined) ?? '');
      if (add.length === 0 && del.length === 0) {
        throw badRequest(`modifyBucketList needs a non-empty 'addList' or 'deleteList'`);
      }
      count = this.store.modify(name, del, add);
    } else {
      const list = body.list as string | undefined;
      if (list === undefined) throw badRequest(`'list' is required for ${op}`);
      const names = splitList(list);
      if (op === 'replaceBucketList') {
        count = this.store.replace(name, names);
      } else {
        if (names.length === 0) throw badRequest(`'list' holds no bucket names; ${op} needs at least one`);
        count = op === 'appendToBucketList' ? this.store.append(name, names) : this.store.remove(name, names);
      }
    }
    if (this.pendingMs > 0) this.store.setPendingUntil(name, Date.now() + this.pendingMs);
    if (tamper) this.store.append(name, tamper);
    try {
      this.store.save();
    } catch (err) {
      this.store.put(name, before!.buckets);
      this.store.setPendingUntil(name, before!.pendingUntil);
      this.log(`scpctl emulator: cannot save the state file, change to '${name}' undone: ${(err as Error).message}`);
      throw new ApiError(500, 'Internal Error', `The emulator could not save its state (${(err as NodeJS.ErrnoException).code ?? 'error'}); nothing was changed`);
    }
    return { status: 200, body: JSON.stringify({ status: 'success', msg: 'Bucket list updated', data: { count } }) };
  }

  // ------------------------------------------------------------------------------------------
  // POST /api/v1/report

  private report(q: URLSearchParams, text: string, contentType: string | undefined): Reply {
    let body: Record<string, unknown> | undefined;
    let bodyError: ApiError | undefined;
    try {
      body = parseJsonObject(text, contentType);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      bodyError = err;
    }
    // The body's token is preferred, as the API page recommends; the query's is the fallback.
    this.checkToken(body && body.token !== undefined ? body.token : q.get('token'));
    if (bodyError) throw bodyError;
    for (const key of Object.keys(body ?? {})) {
      if (key !== 'token') throw badRequest(`Unexpected field '${key}' in the report request body (expected 'token')`);
    }

    const raw: Record<string, string | undefined> = {};
    for (const name of [
      'type', 'groupby', 'timeperiod', 'starttime', 'endtime', 'insertionstarttime', 'insertionendtime',
      'query', 'limit', 'skip',
    ]) {
      raw[name] = q.get(name) ?? undefined;
    }
    let records;
    try {
      records = runReport(this.events, parseReportParams(raw), this.now);
    } catch (err) {
      if (err instanceof ReportParamError) throw badRequest(err.message);
      throw err;
    }
    return { status: 200, body: `{"status":"success","msg":"","data":${JSON.stringify(records)}}` };
  }

  // ------------------------------------------------------------------------------------------
  // Faults

  private applyFault(
    fault: Fault,
    endpoint: Endpoint,
    op: string | undefined,
    req: IncomingMessage,
    res: ServerResponse,
    record: RequestRecord,
  ): void {
    const raw = (status: number, body: string, headers: Record<string, string> = {}) => {
      record.status = status;
      res.writeHead(status, { 'Content-Length': Buffer.byteLength(body), ...headers });
      res.end(body);
    };
    switch (fault.kind) {
      case 'status': {
        const status = fault.status ?? 500;
        const headers = { ...fault.headers };
        const hasType = Object.keys(headers).some((k) => k.toLowerCase() === 'content-type');
        if (!hasType) headers['Content-Type'] = JSON_TYPE;
        // The message avoids words like "not found" so that only the status drives classification.
        const body = fault.body ?? (status >= 400 ? errorJson(`HTTP ${status}`, `Injected fault (HTTP ${status})`) : '');
        return raw(status, body, headers);
      }
      case 'html':
        return raw(
          502,
          '<html><head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n' +
            '<hr><center>nginx</center>\n</body>\n</html>\n',
          { 'Content-Type': 'text/html' },
        );
      case 'truncated':
        return raw(200, '{"status":"success","data":["a","b', { 'Content-Type': JSON_TYPE });
      case 'empty':
        return raw(200, '', { 'Content-Type': JSON_TYPE });
      case 'wrong-shape': {
        const body =
          fault.body ??
          (endpoint === 'report' ? '{"status":"success","data":"nope"}' : '{"status":"success","data":{"weird":true}}');
        return raw(200, body, { 'Content-Type': JSON_TYPE });
      }
      case 'huge':
        record.status = 200;
        return streamHuge(res, fault.sizeMb ?? 300);
      case 'hang':
        return; // the socket stays open until the client leaves or close() destroys it
      case 'stall':
        record.status = 200;
        res.writeHead(200, { 'Content-Type': JSON_TYPE });
        res.write('{"status":"success","msg":"","data":["a","b');
        return;
      case 'reset':
        req.socket.destroy();
        return;
      default:
        // delay and tamper change normal processing and never reach here.
        throw new Error(`unexpected fault kind ${fault.kind} for ${endpoint} ${op ?? ''}`);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Admin routes: /__emulator/...

  private async admin(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? '';
    const reply = (status: number, value: unknown) => this.send(res, undefined, { status, body: JSON.stringify(value) });
    const fail = (status: number, errorCode: string, message: string) =>
      this.send(res, undefined, { status, body: errorJson(errorCode, message) });
    const readJson = async (): Promise<unknown> => {
      const body = await readBody(req, MAX_ADMIN_BODY_BYTES);
      if (!body.ok) throw new ApiError(413, 'Payload Too Large', 'Admin request body is too large');
      const text = body.buf.toString('utf8');
      if (text.trim() === '') return {};
      try {
        return JSON.parse(text);
      } catch (err) {
        throw badRequest(`Request body is not valid JSON: ${(err as Error).message}`);
      }
    };

    const parts = url.pathname.slice('/__emulator/'.length).split('/');
    let route: string;
    let name: string | undefined;
    try {
      name = parts[0] === 'profiles' && parts.length >= 2 ? decodeURIComponent(parts[1]) : undefined;
    } catch {
      return fail(400, 'Invalid Request', `Bad profile name in ${url.pathname}`);
    }
    if (parts[0] === 'profiles' && parts.length === 2 && parts[1] !== '') route = 'profile';
    else if (parts[0] === 'profiles' && parts.length === 3 && parts[2] === 'pending') route = 'pending';
    else route = parts.join('/');

    const methodNotAllowed = () => fail(405, 'Method Not Allowed', `Method ${method} is not allowed on ${url.pathname}`);
    try {
      switch (route) {
        case 'requests':
          if (method === 'GET') return reply(200, { requests: this.requests });
          if (method === 'DELETE') {
            this.requests = [];
            return reply(200, { status: 'success' });
          }
          return methodNotAllowed();
        case 'faults':
          if (method === 'GET') return reply(200, { faults: this.faults.list() });
          if (method === 'POST') {
            const added = this.faults.add(await readJson());
            return reply(200, { status: 'success', added, queued: this.faults.list().length });
          }
          if (method === 'DELETE') {
            this.faults.clear();
            return reply(200, { status: 'success' });
          }
          return methodNotAllowed();
        case 'profiles':
        case 'profiles/':
          if (method !== 'GET') return methodNotAllowed();
          return reply(200, {
            profiles: this.store.names().map((n) => {
              const p = this.store.snapshot(n)!;
              return { name: n, count: p.buckets.length, pendingUntil: p.pendingUntil };
            }),
          });
        case 'profile': {
          const profile = name!;
          if (method === 'GET') {
            const snap = this.store.snapshot(profile);
            return snap ? reply(200, snap) : fail(404, 'Not Found', `Profile '${profile}' does not exist`);
          }
          if (method === 'PUT') {
            const body = await readJson();
            const buckets = isObject(body) ? body.buckets : undefined;
            const list = typeof buckets === 'string' ? splitList(buckets) : buckets;
            if (!Array.isArray(list) || !list.every((b) => typeof b === 'string')) {
              return fail(400, 'Invalid Request', 'Expected {"buckets":[...names]}');
            }
            this.store.put(profile, list);
            this.store.save();
            return reply(200, this.store.snapshot(profile));
          }
          if (method === 'DELETE') {
            const existed = this.store.drop(profile);
            this.store.save();
            return existed ? reply(200, { status: 'success' }) : fail(404, 'Not Found', `Profile '${profile}' does not exist`);
          }
          return methodNotAllowed();
        }
        case 'pending': {
          if (method !== 'POST') return methodNotAllowed();
          const profile = name!;
          const body = await readJson();
          const ms = isObject(body) ? body.ms : undefined;
          if (!Number.isSafeInteger(ms) || (ms as number) < 0) {
            return fail(400, 'Invalid Request', 'Expected {"ms":N} with N an integer >= 0');
          }
          if (!this.store.has(profile)) return fail(404, 'Not Found', `Profile '${profile}' does not exist`);
          this.store.setPendingUntil(profile, (ms as number) === 0 ? 0 : Date.now() + (ms as number));
          this.store.save();
          return reply(200, this.store.snapshot(profile));
        }
        case 'shutdown':
          if (method !== 'POST') return methodNotAllowed();
          res.setHeader('Connection', 'close');
          // 'finish' means the answer was handed to the OS, so closing now cannot cut it off.
          res.once('finish', () => void this.close());
          return reply(200, { status: 'success', msg: 'shutting down' });
        default:
          return fail(404, 'No Such Endpoint', `No such endpoint: ${url.pathname}`);
      }
    } catch (err) {
      if (err instanceof FaultSpecError) return fail(400, 'Invalid Request', err.message);
      if (err instanceof ApiError) return this.send(res, undefined, errorReply(err));
      throw err;
    }
  }
}

/** Streams about `sizeMb` MiB of a JSON array of strings, at the pace the client reads. */
function streamHuge(res: ServerResponse, sizeMb: number): void {
  const item = `"${'a'.repeat(1022)}",`;
  const chunk = Buffer.from(item.repeat(64));
  const total = Math.round(sizeMb * 1024 * 1024);
  let sent = 0;
  let gone = false;
  res.once('close', () => (gone = true));
  res.writeHead(200, { 'Content-Type': JSON_TYPE });
  res.write('{"status":"success","msg":"","data":[');
  const pump = (): void => {
    while (sent < total) {
      if (gone || res.destroyed) return; // the client went away: stop quietly
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end('"end"]}');
  };
  pump();
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = opts.host ?? '127.0.0.1';
  // Checked again here (the command checks its flag) for callers that start the server directly.
  if (!isLoopbackHost(host)) {
    throw new Error(`refusing to listen on '${host}': the emulator only listens on loopback (127.0.0.0/8, localhost, ::1)`);
  }
  const token = opts.token ?? DEFAULT_TOKEN;
  const emulator = new Emulator({ ...opts, token });
  const listenHost = host.replace(/^\[(.*)\]$/, '$1');
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(new Error(`cannot listen on ${host}:${opts.port ?? 0}: ${err.message}`));
    emulator.server.once('error', onError);
    emulator.server.listen({ host: listenHost, port: opts.port ?? 0 }, () => {
      emulator.server.off('error', onError);
      resolve();
    });
  });
  emulator.server.on('error', (err) => (opts.log ?? console.error)(`scpctl emulator: server error: ${err.message}`));
  const address = emulator.server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 0);
  const urlHost = listenHost.includes(':') ? `[${listenHost}]` : listenHost;
  return {
    url: `${opts.tls ? 'https' : 'http'}://${urlHost}:${port}`,
    host: listenHost,
    port,
    token,
    now: emulator.now,
    profileNames: () => emulator.store.names(),
    close: () => emulator.close(),
    closed: emulator.closed,
  };
}
