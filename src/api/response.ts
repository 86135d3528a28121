// Reading what the service answers (contract section 5). The bodies are undocumented, so every known
// shape is accepted and anything else fails clearly with the status and the start of the body.
import { parseExactJson } from '../core/exact-json.js';
import {
  ApiError,
  AuthError,
  NetworkError,
  NotFoundError,
  PendingError,
  ResponseError,
  type ScpctlError,
} from '../errors.js';
import { capMessage, headOf, nestsDeeperThan } from '../core/service-text.js';
import { maskSecret } from '../core/secrets.js';
import { isRetryableStatus } from '../core/retry-policy.js';

export interface RawResponse {
  status: number;
  body: string;
  /** The token the request carried (and the run's others): masked in every message quoted from the answer, before it is cut. */
  secret?: string | readonly string[];
}

export type JsonObject = { [key: string]: unknown };

const QUOTE_CHARS = 200;

const HINTS = {
  auth: 'Check the token: run `scpctl login`, or set SCPCTL_TOKEN / --token-file.',
  notFound: 'Profile names must match exactly; the profile has to be created in the management console first.',
  pending: 'Another change is still being applied; add --wait to retry until it clears.',
} as const;

/**
 * The start of a body, on one line, for error messages: the token masked first (so that no prefix of it
 * can survive the cut), then cut to 200 characters with a count of the rest.
 */
export function quoteBody(body: string, secret?: string | readonly string[]): string {
  // Masked whole before anything is cut; whitespace is folded only in the part that can be shown.
  const flat = maskSecret(body, secret).slice(0, 64 * QUOTE_CHARS).replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty body)';
  if (flat.length <= QUOTE_CHARS) return JSON.stringify(flat);
  const cut = headOf(flat, QUOTE_CHARS);
  return `${JSON.stringify(cut)}… (${(body.length - cut.length).toLocaleString('en-US')} more characters)`;
}

/**
 * Turns an API error message into the error class its words call for (contract section 6):
 * "not exist"/"not found" → 4, "pending" → 5, "token"/"auth"/"unauthori" → 3, then HTTP 401/403 → 3.
 */
export function classifyApiError(message: string, status: number): ScpctlError {
  const text = message.toLowerCase();
  if (text.includes('not exist') || text.includes('not found')) return new NotFoundError(message, { hint: HINTS.notFound });
  if (text.includes('pending')) return new PendingError(message, { hint: HINTS.pending });
  if (text.includes('token') || text.includes('auth') || text.includes('unauthori')) {
    return new AuthError(message, { hint: HINTS.auth });
  }
  return classifyByStatus(message, status) ?? new ApiError(message);
}

function classifyByStatus(message: string, status: number): ScpctlError | null {
  if (status === 401 || status === 403) return new AuthError(message, { hint: HINTS.auth });
  if (isRetryableStatus(status)) return new NetworkError(message);
  return null;
}

/** The message of an error body: `errors`, `message`, `msg`, `error`, prefixed by `errorCode`. */
export function errorMessageOf(body: JsonObject, status: number): string {
  let message = (['errors', 'message', 'msg', 'error'] as const).map((key) => textOf(body[key])).find(Boolean) ?? '';
  const code = typeof body.errorCode === 'string' || typeof body.errorCode === 'number' ? String(body.errorCode).trim() : '';
  if (!message) message = status >= 400 ? `HTTP ${status}` : 'the service reported an error without a message';
  return code ? `${code}: ${message}` : message;
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return value.map(textOf).filter(Boolean).join('; ');
  if (value && typeof value === 'object' && 'message' in value) return textOf((value as JsonObject).message);
  return '';
}

const ERROR_STATUSES = new Set(['error', 'fail', 'failed', 'failure']);
const SUCCESS_STATUSES = new Set(['success', 'ok']);

/** How to read a body: `exact` keeps integers beyond 2^53 as BigInt (report records). */
export interface ReadOptions {
  exact?: boolean;
}

/**
 * Parses a response and throws the typed error it stands for; returns the JSON body on success.
 * `what` names the request in messages ("viewBucketList finance").
 *
 * An error is any of (contract section 5): HTTP 400 or more; `"status": "error"` (the service's usual
 * HTTP 200 error); a top-level `error` that is not null, false or "" beside no `"status": "success"`
 * (some endpoints answer `{"error":"error","errors":[..]}`). A body that says nothing (empty, not JSON,
 * or JSON that is not an object or array) is never a success: a mutation must not be reported as applied.
 */
export function readResponse(raw: RawResponse, what: string, options: ReadOptions = {}): unknown {
  let body: unknown;
  try {
    body = raw.body.trim() === '' ? undefined : options.exact ? parseExactJson(raw.body) : JSON.parse(raw.body);
  } catch {
    body = undefined;
  }
  if (nestsDeeperThan(body)) {
    throw new ResponseError(`${what}: the answer (HTTP ${raw.status}) nests JSON deeper than any answer of the service; it was not read`);
  }
  if (body === undefined) {
    const message = `${what}: the service answered HTTP ${raw.status} with a body that is not JSON: ${quoteBody(raw.body, raw.secret)}`;
    const byStatus = raw.status >= 400 ? classifyByStatus(message, raw.status) : null;
    if (byStatus) throw byStatus;
    throw new ResponseError(message, {
      hint: raw.status === 404 || /<html/i.test(raw.body)
        ? 'Is the base URL right? It should be the service address, without /api/v1; a proxy may also have answered.'
        : undefined,
    });
  }

  const object = isObject(body) ? body : null;
  const status = object && typeof object.status === 'string' ? object.status.trim().toLowerCase() : undefined;
  const failed = raw.status >= 400 || (status !== undefined && ERROR_STATUSES.has(status)) || hasErrorKey(object, status);
  if (failed) {
    const message = object ? maskSecret(errorMessageOf(object, raw.status), raw.secret) : `HTTP ${raw.status}: ${quoteBody(raw.body, raw.secret)}`;
    // 429 and 5xx are transient whatever their words say; they reach here only once the retries are spent.
    if (isRetryableStatus(raw.status)) throw new NetworkError(`${what}: HTTP ${raw.status}: ${capMessage(message)}`);
    throw classified(message, raw.status, what);
  }
  if (status !== undefined && !SUCCESS_STATUSES.has(status)) {
    throw new ResponseError(`${what}: unexpected status ${JSON.stringify(capMessage(maskSecret(String(object!.status), raw.secret), 60))} in the answer: ${quoteBody(raw.body, raw.secret)}`);
  }
  if (raw.status < 200 || raw.status >= 300) {
    throw new ResponseError(`${what}: unexpected HTTP ${raw.status}: ${quoteBody(raw.body, raw.secret)}`);
  }
  if (object === null && !Array.isArray(body)) {
    throw new ResponseError(`${what}: the answer is JSON but neither an object nor an array: ${quoteBody(raw.body, raw.secret)}`);
  }
  return body;
}

/**
 * The error the service's words stand for, its message naming the request. The service's words only are
 * classified (a profile named "pending-review" must not make every error a 5), all of them; only what is
 * shown is cut.
 */
function classified(message: string, status: number, what: string): ScpctlError {
  const error = classifyApiError(message, status);
  error.message = `${what}: ${capMessage(message)}`;
  return error;
}

const FAILED_RESULTS = new Set(['failed', 'failure', 'error']);

/**
 * What a mutation's answer must say for the change to count as applied (contract section 5), on top of
 * readResponse: `"success": false` or a `result` of failed, failure or error is an API error (classified by
 * its words as any other); then `"status": "success"` (any case) or, with no status, a `data` key. `{}`,
 * `[]`, any other array or scalar, or an `"ok"` says nothing about the change: exit 7, never "applied".
 */
export function checkMutationAnswer(body: unknown, raw: RawResponse, what: string): void {
  const object = isObject(body) ? body : null;
  const result = object && typeof object.result === 'string' ? object.result.trim().toLowerCase() : undefined;
  if (object && (object.success === false || (result !== undefined && FAILED_RESULTS.has(result)))) {
    throw classified(maskSecret(errorMessageOf(object, raw.status), raw.secret), raw.status, what);
  }
  const status = object && typeof object.status === 'string' ? object.status.trim().toLowerCase() : undefined;
  if (status === 'success' || (object !== null && !Object.hasOwn(object, 'status') && Object.hasOwn(object, 'data'))) return;
  throw new ResponseError(`${what}: the answer does not say the change was applied (no "status": "success", no "data"): ${quoteBody(raw.body, raw.secret)}`);
}

/** `{"error": X}` with X not null, false or "" is an error unless the body also says `"status": "success"`. */
function hasErrorKey(object: JsonObject | null, status: string | undefined): boolean {
  if (object === null || !Object.hasOwn(object, 'error') || (status !== undefined && SUCCESS_STATUSES.has(status))) return false;
  const value = object.error;
  return !(value === null || value === false || value === '' || value === undefined);
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where a view answer may hold its list (contract section 5), in the order they are looked at. */
export const LIST_PATHS: ReadonlyArray<readonly string[]> = [
  ['data', 'list'],
  ['data', 'bucketList'],
  ['data', 'buckets'],
  ['data'],
  ['list'],
  ['bucketList'],
  ['buckets'],
];

/**
 * The bucket list of a view answer: the first present of the known places, as a string or an array. The
 * answer quoted when its shape is wrong has `secret` masked first (as every quote, before it is cut).
 */
export function extractBucketList(body: unknown, rawBody: string, secret?: readonly string[]): string[] {
  if (!isObject(body)) throw shapeError('a bucket list', rawBody, secret);
  for (const path of LIST_PATHS) {
    let value: unknown = body;
    for (const key of path) value = isObject(value) ? value[key] : undefined;
    if (value === undefined || value === null) continue;
    if (typeof value === 'string') return cleanNames(value.split(','));
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return cleanNames(value as string[]);
    throw shapeError(`a bucket list at "${path.join('.')}"`, rawBody, secret);
  }
  throw shapeError('a bucket list', rawBody, secret);
}

/** Trimmed, without empty entries; one pass, since a list can hold 400,000 names. */
export function cleanNames(raw: readonly string[]): string[] {
  const names: string[] = [];
  for (const entry of raw) {
    const name = entry.trim();
    if (name !== '') names.push(name);
  }
  return names;
}

/** The records of a report answer: `data` when it is an array of objects, or the body itself when it is one. */
export function extractRecords(body: unknown, rawBody: string, secret?: readonly string[]): JsonObject[] {
  const records = Array.isArray(body) ? body : isObject(body) ? body.data : undefined;
  if (!Array.isArray(records)) throw shapeError('report records (an array in "data")', rawBody, secret);
  for (const record of records) {
    if (!isObject(record)) throw shapeError('report records (objects)', rawBody, secret);
  }
  return records as JsonObject[];
}

function shapeError(expected: string, rawBody: string, secret?: readonly string[]): ResponseError {
  return new ResponseError(`the answer does not hold ${expected}: ${quoteBody(rawBody, secret)}`);
}
