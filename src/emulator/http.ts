// The emulator's plumbing: errors as the API answers them, request bodies read within a limit, JSON bodies
// checked, and the rate limiter. Nothing here knows a route.
import type { IncomingMessage } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import { isObject } from '../api/response.js';

/** The API's limit on one list string (list, addList or deleteList), in UTF-8 bytes. */
export const MAX_LIST_BYTES = 8 * 1024 * 1024;
/**
 * A modify request may legitimately carry two lists of up to 8 MiB each, so the body limit is
 * twice the list limit plus room for the JSON around them; anything larger is refused unread.
 */
export const MAX_BODY_BYTES = 2 * MAX_LIST_BYTES + 64 * 1024;
export const MAX_ADMIN_BODY_BYTES = 64 * 1024 * 1024;
export type Endpoint = 'bucket' | 'report';
export const JSON_TYPE = 'application/json; charset=utf-8';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface Reply {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export function errorJson(errorCode: string, message: string): string {
  return JSON.stringify({ status: 'error', errorCode, errors: [message] });
}

export function errorReply(err: ApiError, http200 = false): Reply {
  return { status: http200 ? serviceStatus(err) : err.status, body: errorJson(err.errorCode, err.message), headers: err.headers };
}

/** The HTTP status the real service uses for an API error: 200, but 403 for a token it rejects. */
function serviceStatus(err: ApiError): number {
  if (err.status === 401) return 403;
  if (err.status === 429 || err.status === 413 || err.status >= 500) return err.status;
  return 200;
}

export const badRequest = (message: string) => new ApiError(400, 'Invalid Request', message);

/** Parses a non-empty JSON object body (application/json or a +json type); an empty body is `{}`. */
export function parseJsonObject(text: string, contentType: string | undefined): Record<string, unknown> {
  if (text.trim() === '') return {};
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json' && !(type.startsWith('application/') && type.endsWith('+json'))) {
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

type BodyResult = { ok: true; buf: Buffer } | { ok: false; bytes: number; tooLarge: boolean };

/** Collects the body, giving up (without buffering the rest) once it passes `max` bytes. */
export function readBody(req: IncomingMessage, max: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (declared > max) return Promise.resolve({ ok: false, bytes: declared, tooLarge: true });
  // The first of these settles the promise; the later ones (a close after the end) change nothing.
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        chunks.length = 0;
        resolve({ ok: false, bytes: size, tooLarge: true });
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => resolve({ ok: true, buf: Buffer.concat(chunks, size) }));
    req.on('error', () => resolve({ ok: false, bytes: size, tooLarge: false }));
    req.on('close', () => resolve({ ok: false, bytes: size, tooLarge: false }));
  });
}

/** Sliding window over the accepted API requests: 0 when a request may go on, else the milliseconds until it could. */
export function rateLimiter({ requests, windowMs }: { requests: number; windowMs: number }): (nowMs: number) => number {
  const stamps: number[] = [];
  return (nowMs) => {
    while (stamps.length > 0 && stamps[0] <= nowMs - windowMs) stamps.shift();
    if (stamps.length >= requests) return stamps[0] + windowMs - nowMs;
    stamps.push(nowMs);
    return 0;
  };
}

/** Whether a secret is the one expected, compared as digests in constant time (neither length nor prefix leaks). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (secret: string) => createHash('sha256').update(secret).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
