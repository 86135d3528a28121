// Every route the emulator answers, in one table (a name, then a handler per method): the API's two as the
// API page describes them (the bucket-list operations and the report), and the admin routes under
// /__emulator/ that tests use to inspect what was sent, arrange profiles and inject faults (only what a test uses).
import type { ServerResponse } from 'node:http';
import { parseReportParams, reportJson, runReport } from './reports.js';
import type { Fault, FaultQueue } from './faults.js';
import type { EmuEvent } from './events.js';
import { ApiError, MAX_LIST_BYTES, badRequest, parseJsonObject, sameSecret, type Endpoint, type Reply } from './http.js';
import { splitList, type Profile, type ProfileStore } from './store.js';

/** What the routes use of the emulator (server.ts). */
export interface EmulatorCore {
  readonly opts: { token: string; pendingMs: number; pageCap?: number; log?: (line: string) => void };
  readonly store: ProfileStore;
  readonly faults: FaultQueue;
  readonly events: EmuEvent[];
  /** Unix seconds the synthetic events end at. */
  readonly now: number;
  /** Milliseconds since the epoch, by the emulator's clock. */
  clockNow(): number;
  /** The request log, as /__emulator/requests shows it. */
  requests: unknown[];
  close(): Promise<void>;
}

/** One request as a handler sees it. */
export interface Call {
  emu: EmulatorCore;
  q: URLSearchParams;
  text: string;
  contentType: string | undefined;
  /** /__emulator/profiles/NAME[/pending]: the NAME. */
  profile: string;
  res: ServerResponse;
  fault?: Fault;
}

type Handler = (call: Call) => Reply;
type Lists = Record<string, string[] | undefined>;

const ok = (value: unknown = { status: 'success' }): Reply => ({ status: 200, body: JSON.stringify(value) });

/** The `list` an op needs: present, and not empty unless the op may empty the profile. */
function needList(list: string[] | undefined, op: string, mayBeEmpty = false): string[] {
  if (list === undefined) throw badRequest(`'list' is required for ${op}`);
  if (list.length === 0 && !mayBeEmpty) throw badRequest(`'list' holds no bucket names; ${op} needs at least one`);
  return list;
}

/** Each op: the body fields it takes, and what it does to the list (viewBucketList: nothing). */
const OPS: Record<string, { fields: readonly string[]; change?: (p: Profile, lists: Lists, op: string) => void }> = {
  appendToBucketList: { fields: ['list'], change: (p, { list }, op) => needList(list, op).forEach((n) => p.buckets.add(n)) },
  deleteFromBucketList: { fields: ['list'], change: (p, { list }, op) => needList(list, op).forEach((n) => p.buckets.delete(n)) },
  modifyBucketList: {
    fields: ['addList', 'deleteList'],
    // Deletes first, then adds, as the API describes modifyBucketList.
    change: (p, { addList = [], deleteList = [] }) => {
      if (addList.length === 0 && deleteList.length === 0) {
        throw badRequest(`modifyBucketList needs a non-empty 'addList' or 'deleteList'`);
      }
      deleteList.forEach((n) => p.buckets.delete(n));
      addList.forEach((n) => p.buckets.add(n));
    },
  },
  replaceBucketList: { fields: ['list'], change: (p, { list }, op) => void (p.buckets = new Set(needList(list, op, true))) },
  viewBucketList: { fields: [] },
};

function checkToken(emu: EmulatorCore, token: unknown): void {
  if (token === undefined || token === null || token === '') {
    throw new ApiError(401, 'Authorization Error', 'Missing token');
  }
  if (typeof token !== 'string' || !sameSecret(token, emu.opts.token)) {
    throw new ApiError(401, 'Authorization Error', 'Invalid token');
  }
}

/** POST /api/v1/storage_constraint_profile */
function bucketRoute({ emu, q, text, contentType, fault }: Call): Reply {
  checkToken(emu, q.get('token'));
  const op = q.get('op');
  const ops = Object.keys(OPS).join(', ');
  if (op === null || op === '') throw badRequest(`Missing query parameter 'op' (one of ${ops})`);
  if (!Object.hasOwn(OPS, op)) throw badRequest(`Unknown op '${op}': expected one of ${ops}`);
  const name = q.get('name');
  if (name === null || name === '') throw badRequest(`Missing query parameter 'name'`);
  const profile = emu.store.get(name);
  if (profile.pendingUntil > emu.clockNow()) throw new ApiError(409, 'Conflict', `A change is pending on profile '${name}'`);
  const lists = bucketLists(op, parseJsonObject(text, contentType));
  const { change } = OPS[op];
  if (!change) return { status: 200, body: `{"status":"success","msg":"","data":${JSON.stringify([...profile.buckets])}}` };

  // With a state file, the change counts only once it is saved: a save that fails puts the list back
  // and answers an error, so the answer and the state never disagree.
  const before = emu.store.statePath !== undefined ? emu.store.snapshot(name) : undefined;
  change(profile, lists, op);
  if (emu.opts.pendingMs > 0) profile.pendingUntil = emu.clockNow() + emu.opts.pendingMs;
  const count = profile.buckets.size;
  if (fault?.kind === 'tamper') fault.append!.forEach((n) => profile.buckets.add(n));
  try {
    emu.store.save();
  } catch (err) {
    emu.store.put(name, before!.buckets, before!.pendingUntil);
    emu.opts.log?.(`scpctl emulator: cannot save the state file, change to '${name}' undone: ${(err as Error).message}`);
    throw new ApiError(500, 'Internal Error', `The emulator could not save its state (${(err as NodeJS.ErrnoException).code ?? 'error'}); nothing was changed`);
  }
  return ok({ status: 'success', msg: 'Bucket list updated', data: { count } });
}

/** The body an op takes: only its own fields, each a string of names within 8 MB; the names of each. */
function bucketLists(op: string, body: Record<string, unknown>): Lists {
  const allowed = OPS[op].fields;
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) {
      throw badRequest(
        `Unexpected field '${key}' in the body of ${op}` +
          (allowed.length ? ` (expected ${allowed.map((k) => `'${k}'`).join(' or ')})` : ' (expected {})'),
      );
    }
  }
  const lists: Lists = {};
  for (const key of allowed) {
    const v = body[key];
    if (v === undefined) continue;
    if (typeof v !== 'string') throw badRequest(`'${key}' must be a string of comma-separated bucket names`);
    if (Buffer.byteLength(v) > MAX_LIST_BYTES) throw new ApiError(413, 'Payload Too Large', `${key} exceeds 8 MB`);
    lists[key] = splitList(v);
  }
  return lists;
}

/** POST /api/v1/report */
function reportRoute({ emu, q, text, contentType }: Call): Reply {
  let body: Record<string, unknown>;
  try {
    body = parseJsonObject(text, contentType);
  } catch (err) {
    checkToken(emu, q.get('token')); // a bad body is told only to a caller with the token
    throw err;
  }
  // The body's token is preferred, as the API page recommends; the query's is the fallback.
  checkToken(emu, body.token !== undefined ? body.token : q.get('token'));
  for (const key of Object.keys(body)) {
    if (key !== 'token') throw badRequest(`Unexpected field '${key}' in the report request body (expected 'token')`);
  }

  const names = ['type', 'groupby', 'timeperiod', 'starttime', 'endtime', 'insertionstarttime', 'insertionendtime', 'query', 'limit', 'skip'];
  const raw = Object.fromEntries(names.map((name) => [name, q.get(name) ?? undefined]));
  const params = parseReportParams(raw);
  if (emu.opts.pageCap !== undefined) params.limit = Math.min(params.limit, emu.opts.pageCap);
  return { status: 200, body: `{"status":"success","msg":"","data":${reportJson(runReport(emu.events, params, emu.now))}}` };
}

/** An admin body: a JSON object, or `{}` when empty. */
const adminBody = ({ text, contentType }: Call) => parseJsonObject(text, contentType);

const ROUTES: Record<string, Partial<Record<string, Handler>>> = {
  storage_constraint_profile: { POST: bucketRoute },
  report: { POST: reportRoute },
  requests: {
    GET: ({ emu }) => ok({ requests: emu.requests }),
    DELETE: ({ emu }) => {
      emu.requests = [];
      return ok();
    },
  },
  faults: {
    POST: (call) => ok({ status: 'success', added: call.emu.faults.add(adminBody(call)) }),
    DELETE: ({ emu }) => {
      emu.faults.clear();
      return ok();
    },
  },
  profile: {
    GET: ({ emu, profile }) => ok(emu.store.snapshot(profile)),
    PUT: (call) => {
      const { buckets } = adminBody(call);
      if (!Array.isArray(buckets) || !buckets.every((b) => typeof b === 'string')) throw badRequest('Expected {"buckets":[...names]}');
      call.emu.store.put(call.profile, buckets);
      call.emu.store.save();
      return ok(call.emu.store.snapshot(call.profile));
    },
  },
  pending: {
    POST: (call) => {
      const { ms } = adminBody(call);
      if (!Number.isSafeInteger(ms) || (ms as number) < 0) throw badRequest('Expected {"ms":N} with N an integer >= 0');
      call.emu.store.get(call.profile).pendingUntil = ms === 0 ? 0 : call.emu.clockNow() + (ms as number);
      call.emu.store.save();
      return ok(call.emu.store.snapshot(call.profile));
    },
  },
  shutdown: {
    POST: ({ emu, res }) => {
      // 'finish' means the answer was handed to the OS, so closing now cannot cut it off.
      res.once('finish', () => void emu.close());
      return { ...ok({ status: 'success', msg: 'shutting down' }), headers: { Connection: 'close' } };
    },
  },
};

// Any prefix of non-empty segments is allowed before the API's path, so that base URLs with a path (a tenant)
// work; an empty segment (`//api/v1/...`) is a client bug and is not matched.
const API = /^(?:\/[^/]+)*\/api\/v1\/(storage_constraint_profile|report)$/;
const ADMIN = /^\/__emulator\/(?:(requests|faults|shutdown)|profiles\/([^/]+)(\/pending)?)$/;

/**
 * The route a path names (its handlers, which endpoint as faults name it for the API's, the profile NAME of
 * /__emulator/profiles/NAME), or undefined; a profile name that does not decode is a 400.
 */
export function routeOf(path: string) {
  const admin = path.startsWith('/__emulator/');
  const m = (admin ? ADMIN : API).exec(path);
  if (!m) return undefined;
  const name = m[1] ?? (m[3] ? 'pending' : 'profile');
  let profile = '';
  try {
    profile = m[2] === undefined ? '' : decodeURIComponent(m[2]);
  } catch {
    throw badRequest(`Bad profile name in ${path}`);
  }
  const endpoint: Endpoint | undefined = admin ? undefined : name === 'report' ? 'report' : 'bucket';
  return { handlers: ROUTES[name]!, endpoint, profile };
}
