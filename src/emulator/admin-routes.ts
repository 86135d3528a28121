// The admin routes under /__emulator/: what tests use to inspect what was sent, arrange profiles and
// inject faults.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FaultSpecError } from './faults.js';
import { ApiError, MAX_ADMIN_BODY_BYTES, badRequest, errorJson, errorReply, isObject, readBody } from './http.js';
import { splitList } from './store.js';
import type { EmulatorCore } from './types.js';

/** /__emulator/...: the request log, faults, profiles, pending changes and shutdown. */
export async function adminRoute(emu: EmulatorCore, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const method = req.method ?? '';
  const reply = (status: number, value: unknown) => emu.send(res, undefined, { status, body: JSON.stringify(value) });
  const fail = (status: number, errorCode: string, message: string) =>
    emu.send(res, undefined, { status, body: errorJson(errorCode, message) });
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
        if (method === 'GET') return reply(200, { requests: emu.requests });
        if (method === 'DELETE') {
          emu.requests = [];
          return reply(200, { status: 'success' });
        }
        return methodNotAllowed();
      case 'faults':
        if (method === 'GET') return reply(200, { faults: emu.faults.list() });
        if (method === 'POST') {
          const added = emu.faults.add(await readJson());
          return reply(200, { status: 'success', added, queued: emu.faults.list().length });
        }
        if (method === 'DELETE') {
          emu.faults.clear();
          return reply(200, { status: 'success' });
        }
        return methodNotAllowed();
      case 'profiles':
      case 'profiles/':
        if (method !== 'GET') return methodNotAllowed();
        return reply(200, {
          profiles: emu.store.names().map((n) => {
            const p = emu.store.snapshot(n)!;
            return { name: n, count: p.buckets.length, pendingUntil: p.pendingUntil };
          }),
        });
      case 'profile': {
        const profile = name!;
        if (method === 'GET') {
          const snap = emu.store.snapshot(profile);
          return snap ? reply(200, snap) : fail(404, 'Not Found', `Profile '${profile}' does not exist`);
        }
        if (method === 'PUT') {
          const body = await readJson();
          const buckets = isObject(body) ? body.buckets : undefined;
          const list = typeof buckets === 'string' ? splitList(buckets) : buckets;
          if (!Array.isArray(list) || !list.every((b) => typeof b === 'string')) {
            return fail(400, 'Invalid Request', 'Expected {"buckets":[...names]}');
          }
          emu.store.put(profile, list);
          emu.store.save();
          return reply(200, emu.store.snapshot(profile));
        }
        if (method === 'DELETE') {
          const existed = emu.store.drop(profile);
          emu.store.save();
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
        if (!emu.store.has(profile)) return fail(404, 'Not Found', `Profile '${profile}' does not exist`);
        emu.store.setPendingUntil(profile, (ms as number) === 0 ? 0 : Date.now() + (ms as number));
        emu.store.save();
        return reply(200, emu.store.snapshot(profile));
      }
      case 'shutdown':
        if (method !== 'POST') return methodNotAllowed();
        res.setHeader('Connection', 'close');
        // 'finish' means the answer was handed to the OS, so closing now cannot cut it off.
        res.once('finish', () => void emu.close());
        return reply(200, { status: 'success', msg: 'shutting down' });
      default:
        return fail(404, 'No Such Endpoint', `No such endpoint: ${url.pathname}`);
    }
  } catch (err) {
    if (err instanceof FaultSpecError) return fail(400, 'Invalid Request', err.message);
    if (err instanceof ApiError) return emu.send(res, undefined, errorReply(err));
    throw err;
  }
}
