// The admin routes under /__emulator/: what tests use to inspect what was sent, arrange profiles and
// inject faults (only what a test uses). A table of routes, each a method → handler map; a missing method is 405.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FaultSpecError } from './faults.js';
import { ApiError, MAX_ADMIN_BODY_BYTES, badRequest, errorJson, errorReply, isObject, readBody } from './http.js';
import { splitList } from './store.js';
import type { EmulatorCore } from './types.js';

/** One admin request: its emulator, its profile name (for /profiles/NAME...), and how to answer. */
interface AdminCall {
  emu: EmulatorCore;
  req: IncomingMessage;
  res: ServerResponse;
  profile: string;
  reply(status: number, value: unknown): void;
  fail(status: number, errorCode: string, message: string): void;
  readJson(): Promise<unknown>;
}

type Handler = (call: AdminCall) => void | Promise<void>;
type Route = Partial<Record<'GET' | 'POST' | 'PUT' | 'DELETE', Handler>>;

const ok = { status: 'success' };
const missing = (call: AdminCall) => call.fail(404, 'Not Found', `Profile '${call.profile}' does not exist`);

const ROUTES: Record<string, Route> = {
  requests: {
    GET: (call) => call.reply(200, { requests: call.emu.requests }),
    DELETE: (call) => {
      call.emu.requests = [];
      call.reply(200, ok);
    },
  },
  faults: {
    POST: async (call) => call.reply(200, { ...ok, added: call.emu.faults.add(await call.readJson()) }),
    DELETE: (call) => {
      call.emu.faults.clear();
      call.reply(200, ok);
    },
  },
  profile: {
    GET: (call) => {
      const snap = call.emu.store.snapshot(call.profile);
      return snap ? call.reply(200, snap) : missing(call);
    },
    PUT: async (call) => {
      const body = await call.readJson();
      const buckets = isObject(body) ? body.buckets : undefined;
      const list = typeof buckets === 'string' ? splitList(buckets) : buckets;
      if (!Array.isArray(list) || !list.every((b) => typeof b === 'string')) {
        return call.fail(400, 'Invalid Request', 'Expected {"buckets":[...names]}');
      }
      call.emu.store.put(call.profile, list);
      call.emu.store.save();
      call.reply(200, call.emu.store.snapshot(call.profile));
    },
  },
  pending: {
    POST: async (call) => {
      const body = await call.readJson();
      const ms = isObject(body) ? body.ms : undefined;
      if (!Number.isSafeInteger(ms) || (ms as number) < 0) {
        return call.fail(400, 'Invalid Request', 'Expected {"ms":N} with N an integer >= 0');
      }
      if (!call.emu.store.has(call.profile)) return missing(call);
      call.emu.store.setPendingUntil(call.profile, (ms as number) === 0 ? 0 : call.emu.clockNow() + (ms as number));
      call.emu.store.save();
      call.reply(200, call.emu.store.snapshot(call.profile));
    },
  },
  shutdown: {
    POST: ({ emu, res, reply }) => {
      res.setHeader('Connection', 'close');
      // 'finish' means the answer was handed to the OS, so closing now cannot cut it off.
      res.once('finish', () => void emu.close());
      reply(200, { ...ok, msg: 'shutting down' });
    },
  },
};

/** /__emulator/...: the request log, faults, a profile, its pending change and shutdown. */
export async function adminRoute(emu: EmulatorCore, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const method = req.method ?? '';
  const fail = (status: number, errorCode: string, message: string) => emu.send(res, undefined, { status, body: errorJson(errorCode, message) });
  const parts = url.pathname.slice('/__emulator/'.length).split('/');
  let profile = '';
  try {
    if (parts[0] === 'profiles' && parts.length >= 2) profile = decodeURIComponent(parts[1]!);
  } catch {
    return fail(400, 'Invalid Request', `Bad profile name in ${url.pathname}`);
  }
  const route = ROUTES[routeName(parts)];
  if (!route) return fail(404, 'No Such Endpoint', `No such endpoint: ${url.pathname}`);
  const handler = route[method as keyof Route];
  if (!handler) return fail(405, 'Method Not Allowed', `Method ${method} is not allowed on ${url.pathname}`);
  const call: AdminCall = {
    emu,
    req,
    res,
    profile,
    reply: (status, value) => emu.send(res, undefined, { status, body: JSON.stringify(value) }),
    fail,
    readJson: () => readAdminJson(req),
  };
  try {
    await handler(call);
  } catch (err) {
    if (err instanceof FaultSpecError) return fail(400, 'Invalid Request', err.message);
    if (err instanceof ApiError) return emu.send(res, undefined, errorReply(err));
    throw err;
  }
}

/** `profiles/NAME` → profile, `profiles/NAME/pending` → pending, else the path. */
function routeName(parts: readonly string[]): string {
  if (parts[0] === 'profiles' && parts.length === 2 && parts[1] !== '') return 'profile';
  if (parts[0] === 'profiles' && parts.length === 3 && parts[2] === 'pending') return 'pending';
  return parts.join('/');
}

async function readAdminJson(req: IncomingMessage): Promise<unknown> {
  const body = await readBody(req, MAX_ADMIN_BODY_BYTES);
  if (!body.ok) throw new ApiError(413, 'Payload Too Large', 'Admin request body is too large');
  const text = body.buf.toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`Request body is not valid JSON: ${(err as Error).message}`);
  }
}
