// HTTP for scpctl: one POST with a deadline per attempt, a cap on the answer's size, retries with
// exponential back-off and full jitter, `Retry-After`, proxies and extra certificate authorities.
// It knows nothing of terminals: what happens is reported through `onEvent`.
import type { IncomingMessage } from 'node:http';
import { NetworkError, ResponseError, Interrupted } from '../errors.js';
import { formatBytes } from '../core/wire.js';
import type { RawResponse } from './response.js';

export interface HttpRequest {
  url: URL;
  headers: Record<string, string>;
  /** Encoded once by `post`, not again on every attempt. */
  body: string | Buffer;
}

export type TransportEvent =
  | { type: 'request'; attempt: number; method: string; url: URL; bytes: number }
  | { type: 'response'; attempt: number; status: number; bytes: number; ms: number }
  | { type: 'retry'; attempt: number; delayMs: number; reason: string };

export interface TransportOptions {
  /** Deadline of one attempt, from connecting to the last byte of the answer. */
  timeoutMs: number;
  /** Attempts after the first one, on network errors, timeouts, 429 and 5xx. */
  retries: number;
  /** PEM certificate authorities trusted in addition to the system roots. */
  extraCa?: string[];
  maxBodyBytes?: number;
  signal?: AbortSignal;
  onEvent?: (event: TransportEvent) => void;
  /** Back-off base and cap, in milliseconds (tests shorten them). */
  backoff?: { baseMs: number; capMs: number };
}

export interface HttpResponse extends RawResponse {
  attempts: number;
  /** Why the attempt before the last failed without an answer (a timeout, a reset): it may have been applied. */
  lostAnswer?: string;
  headers: Record<string, string | string[] | undefined>;
}

export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
const RETRY_AFTER_CAP_MS = 60_000;
const HTTP_DATE =
  /^(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]+day, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;
const DEFAULT_BACKOFF = { baseMs: 500, capMs: 8_000 };

/** A failure of one attempt; `retryable` says whether another attempt may help. */
class AttemptError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** Sends one POST, retrying what may succeed on another try. Throws typed errors only. */
export async function post(input: HttpRequest, options: TransportOptions): Promise<HttpResponse> {
  const request = { ...input, body: Buffer.isBuffer(input.body) ? input.body : Buffer.from(input.body) };
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const attemptsAllowed = Math.max(0, options.retries) + 1;
  let lastCause = '';
  let lostAnswer: string | undefined;
  for (let attempt = 1; ; attempt++) {
    checkAborted(options.signal);
    const started = Date.now();
    options.onEvent?.({ type: 'request', attempt, method: 'POST', url: request.url, bytes: request.body.length });
    let response: HttpResponse | undefined;
    let delayMs: number;
    try {
      response = { ...(await sendOnce(request, options)), attempts: attempt, lostAnswer };
      options.onEvent?.({
        type: 'response',
        attempt,
        status: response.status,
        bytes: Buffer.byteLength(response.body),
        ms: Date.now() - started,
      });
      if (!isRetryableStatus(response.status)) return response;
      lastCause = `HTTP ${response.status}`;
      lostAnswer = undefined;
      if (attempt >= attemptsAllowed) return response;
      delayMs = retryAfterMs(response.headers['retry-after']) ?? jitter(backoff, attempt);
    } catch (error) {
      if (!(error instanceof AttemptError)) throw error;
      lastCause = error.message;
      lostAnswer = error.message;
      if (!error.retryable || attempt >= attemptsAllowed) {
        const tries = attempt > 1 ? ` (after ${attempt} attempts)` : '';
        throw new NetworkError(`${error.message}${tries}`, { hint: error.hint });
      }
      delayMs = jitter(backoff, attempt);
    }
    options.onEvent?.({ type: 'retry', attempt, delayMs, reason: lastCause });
    await sleep(delayMs, options.signal);
  }
}

export function timeoutError(url: URL, timeoutMs: number): AttemptError {
  return new AttemptError(`no complete answer from ${url.host} within ${timeoutMs / 1000} s (timeout)`, true,
    'Raise --timeout (or SCPCTL_TIMEOUT) if the service is slow.');
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Full jitter: a random delay between 0 and the exponential ceiling. */
function jitter(backoff: { baseMs: number; capMs: number }, attempt: number): number {
  const ceiling = Math.min(backoff.capMs, backoff.baseMs * 2 ** (attempt - 1));
  return Math.round(Math.random() * ceiling);
}

/** `Retry-After` as seconds or an HTTP date, capped; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  let ms: number;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) ms = Number(value) * 1000;
  else {
    // Only an HTTP date (IMF-fixdate, RFC 850, asctime) counts; V8's Date.parse would also read "-1" as a date.
    if (!HTTP_DATE.test(value.trim())) return undefined;
    const date = Date.parse(/GMT$/i.test(value.trim()) ? value : `${value.trim()} GMT`);
    if (Number.isNaN(date)) return undefined;
    ms = date - now;
  }
  return Math.min(RETRY_AFTER_CAP_MS, Math.max(0, Math.round(ms)));
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Interrupted('interrupted');
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort(): void {
      clearTimeout(timer);
      reject(new Interrupted('interrupted'));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const TLS_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

/** Turns a low-level failure into a one-line cause, deciding whether it is worth another attempt. */
export function describeNetworkFailure(error: unknown, url: URL): AttemptError {
  const e = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = e?.code ?? e?.cause?.code ?? '';
  const host = url.host;
  if (TLS_CODES.has(code)) {
    return new AttemptError(
      `TLS certificate of ${host} could not be verified (${code})`,
      false,
      'If the service uses a private certificate authority, pass its PEM file with --ca-cert FILE (or SCPCTL_CA_CERT).',
    );
  }
  switch (code) {
    case 'EPROTO':
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      // Retrying cannot help: the other end does not speak TLS (or speaks a version we refuse).
      return new AttemptError(`TLS handshake with ${host} failed (${code}): the server may speak plain HTTP`, false,
        'Check the base URL: https:// needs a TLS server; plain http:// is allowed on loopback only.');
    case 'ECONNREFUSED':
      return new AttemptError(`connection to ${host} refused`, true, 'Is the base URL right, and is the service up?');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new AttemptError(`cannot resolve host ${url.hostname} (${code})`, code === 'EAI_AGAIN', 'Check the base URL and your DNS or proxy settings.');
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return new AttemptError(`connection to ${host} was reset`, true);
    case 'ETIMEDOUT':
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return new AttemptError(`cannot reach ${host} (${code})`, true);
  }
  const message = (e?.message || String(error)).split('\n')[0];
  if (/certificate|self.signed/i.test(message)) {
    return new AttemptError(`TLS certificate of ${host} could not be verified: ${message}`, false,
      'If the service uses a private certificate authority, pass its PEM file with --ca-cert FILE (or SCPCTL_CA_CERT).');
  }
  return new AttemptError(`request to ${host} failed: ${message}${code ? ` (${code})` : ''}`, true);
}

function hasProxyEnvironment(): boolean {
  const env = process.env;
  return Boolean(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy);
}

/** One attempt. Direct connections use node:http(s), which costs nothing to load; with a proxy set, undici decides. */
async function sendOnce(request: HttpRequest, options: TransportOptions): Promise<Omit<HttpResponse, 'attempts'>> {
  if (hasProxyEnvironment()) {
    const { sendThroughProxyAgent } = await import('./proxy-transport.js');
    return sendThroughProxyAgent(request, options);
  }
  return sendDirect(request, options);
}

async function sendDirect(request: HttpRequest, options: TransportOptions): Promise<Omit<HttpResponse, 'attempts'>> {
  const secure = request.url.protocol === 'https:';
  const client = secure ? await import('node:https') : await import('node:http');
  const ca = secure && options.extraCa?.length ? await trustedRoots(options.extraCa) : undefined;
  const maxBytes = options.maxBodyBytes ?? MAX_ANSWER_BYTES;

  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: AttemptError | ResponseError | Interrupted | null, value?: Omit<HttpResponse, 'attempts'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (error) {
        req.destroy();
        reject(error);
      } else resolve(value!);
    };
    const timer = setTimeout(() => finish(timeoutError(request.url, options.timeoutMs)), options.timeoutMs);
    const onAbort = (): void => finish(new Interrupted('interrupted'));
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const req = client.request(request.url, {
      method: 'POST',
      headers: { ...request.headers, 'Content-Length': String(request.body.length) },
      ...(ca ? { ca } : {}),
      // Said outright, so that no inherited NODE_TLS_REJECT_UNAUTHORIZED=0 can turn verification off.
      rejectUnauthorized: true,
    });
    req.on('error', (error) => finish(describeNetworkFailure(error, request.url)));
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          finish(new ResponseError(`the answer from ${request.url.host} is larger than ${formatBytes(maxBytes)}; stopped reading`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', (error) => finish(describeNetworkFailure(error, request.url)));
      res.on('close', () => finish(new AttemptError(`the answer from ${request.url.host} was cut off`, true)));
      res.on('end', () => {
        if (!res.complete) {
          finish(new AttemptError(`the answer from ${request.url.host} was cut off`, true));
          return;
        }
        finish(null, {
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks, size).toString('utf8'),
        });
      });
    });
    req.end(request.body);
  });
}

let systemRoots: Promise<string[]> | undefined;

/** The system roots, NODE_EXTRA_CA_CERTS and `extra`: `ca` replaces Node's defaults, so all are named. */
export async function trustedRoots(extra: string[]): Promise<string[]> {
  systemRoots ??= (async () => {
    const tls = await import('node:tls');
    const roots = [...tls.rootCertificates];
    const nodeExtra = process.env.NODE_EXTRA_CA_CERTS;
    if (nodeExtra) {
      const { readFileSync } = await import('node:fs');
      try {
        roots.push(readFileSync(nodeExtra, 'utf8'));
      } catch {
        // Node itself only warns about an unreadable NODE_EXTRA_CA_CERTS; do the same by ignoring it.
      }
    }
    return roots;
  })();
  return [...(await systemRoots), ...extra];
}

export { AttemptError };
