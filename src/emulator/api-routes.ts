// The API's two routes as the API page describes them: the bucket-list operations and the report.
import { timingSafeEqual } from 'node:crypto';
import { parseReportParams, ReportParamError, reportJson, runReport } from './reports.js';
import { MUTATING_OPS } from './faults.js';
import { ApiError, MAX_LIST_BYTES, badRequest, parseJsonObject, tokenDigest, type Reply } from './http.js';
import { splitList } from './store.js';
import type { EmulatorCore } from './types.js';

const BUCKET_OPS: readonly string[] = [...MUTATING_OPS, 'viewBucketList'];

function checkToken(emu: EmulatorCore, token: unknown): void {
  if (token === undefined || token === null || token === '') {
    throw new ApiError(401, 'Authorization Error', 'Missing token');
  }
  if (typeof token !== 'string' || !timingSafeEqual(tokenDigest(token), emu.tokenHash)) {
    throw new ApiError(401, 'Authorization Error', 'Invalid token');
  }
}

/** POST /api/v1/storage_constraint_profile */
export function bucketRoute(emu: EmulatorCore, q: URLSearchParams, text: string, contentType: string | undefined, tamper?: string[]): Reply {
  checkToken(emu, q.get('token'));
  const op = q.get('op');
  if (op === null || op === '') {
    throw badRequest(`Missing query parameter 'op' (one of ${BUCKET_OPS.join(', ')})`);
  }
  if (!BUCKET_OPS.includes(op)) throw badRequest(`Unknown op '${op}': expected one of ${BUCKET_OPS.join(', ')}`);
  const name = q.get('name');
  if (name === null || name === '') throw badRequest(`Missing query parameter 'name'`);
  if (!emu.store.has(name)) throw new ApiError(404, 'Not Found', `Profile '${name}' does not exist`);
  if (emu.store.isPending(name, emu.clockNow())) {
    throw new ApiError(409, 'Conflict', `A change is pending on profile '${name}'`);
  }

  const body = checkBucketBody(op, parseJsonObject(text, contentType));

  if (op === 'viewBucketList') {
    return { status: 200, body: `{"status":"success","msg":"","data":${JSON.stringify(emu.store.view(name))}}` };
  }

  // With a state file, the change counts only once it is saved: a save that fails puts the list back
  // and answers an error, so the answer and the state never disagree.
  const before = emu.store.persistent ? emu.store.snapshot(name) : undefined;

  const count = mutate(emu, op, name, body);
  if (emu.pendingMs > 0) emu.store.setPendingUntil(name, emu.clockNow() + emu.pendingMs);
  if (tamper) emu.store.append(name, tamper);
  try {
    emu.store.save();
  } catch (err) {
    emu.store.put(name, before!.buckets);
    emu.store.setPendingUntil(name, before!.pendingUntil);
    emu.log(`scpctl emulator: cannot save the state file, change to '${name}' undone: ${(err as Error).message}`);
    throw new ApiError(500, 'Internal Error', `The emulator could not save its state (${(err as NodeJS.ErrnoException).code ?? 'error'}); nothing was changed`);
  }
  return { status: 200, body: JSON.stringify({ status: 'success', msg: 'Bucket list updated', data: { count } }) };
}

/** The body an op takes: only its own fields, each a string of names within 8 MB. */
function checkBucketBody(op: string, body: Record<string, unknown>): Record<string, unknown> {
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

  return body;
}

/** Applies a mutation to the store; the count of names the list holds after it. */
function mutate(emu: EmulatorCore, op: string, name: string, body: Record<string, unknown>): number {
  if (op === 'modifyBucketList') {
    const add = splitList((body.addList as string | undefined) ?? '');
    const del = splitList((body.deleteList as string | undefined) ?? '');
    if (add.length === 0 && del.length === 0) {
      throw badRequest(`modifyBucketList needs a non-empty 'addList' or 'deleteList'`);
    }
    return emu.store.modify(name, del, add);
  } else {
    const list = body.list as string | undefined;
    if (list === undefined) throw badRequest(`'list' is required for ${op}`);
    const names = splitList(list);
    if (op === 'replaceBucketList') {
      return emu.store.replace(name, names);
    } else {
      if (names.length === 0) throw badRequest(`'list' holds no bucket names; ${op} needs at least one`);
      return op === 'appendToBucketList' ? emu.store.append(name, names) : emu.store.remove(name, names);
    }
  }
}

/** POST /api/v1/report */
export function reportRoute(emu: EmulatorCore, q: URLSearchParams, text: string, contentType: string | undefined): Reply {
  let body: Record<string, unknown> | undefined;
  let bodyError: ApiError | undefined;
  try {
    body = parseJsonObject(text, contentType);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    bodyError = err;
  }
  // The body's token is preferred, as the API page recommends; the query's is the fallback.
  checkToken(emu, body && body.token !== undefined ? body.token : q.get('token'));
  if (bodyError) throw bodyError;
  for (const key of Object.keys(body ?? {})) {
    if (key !== 'token') throw badRequest(`Unexpected field '${key}' in the report request body (expected 'token')`);
  }

  const names = ['type', 'groupby', 'timeperiod', 'starttime', 'endtime', 'insertionstarttime', 'insertionendtime', 'query', 'limit', 'skip'];
  const raw = Object.fromEntries(names.map((name) => [name, q.get(name) ?? undefined]));
  let records;
  try {
    const params = parseReportParams(raw);
    if (emu.opts.pageCap !== undefined) params.limit = Math.min(params.limit, emu.opts.pageCap);
    records = runReport(emu.events, params, emu.now);
  } catch (err) {
    if (err instanceof ReportParamError) throw badRequest(err.message);
    throw err;
  }
  return { status: 200, body: `{"status":"success","msg":"","data":${reportJson(records)}}` };
}
