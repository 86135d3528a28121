// One attempt of a request: its shapes, the cap on an answer, the roots TLS trusts, and what went wrong in
// words a user can act on (the transport's and doctor's), with whether another attempt may help.
import type { RawResponse } from './response.js';
import { ResponseError } from '../errors.js';
import { formatBytes, type WireBody } from '../core/wire.js';
import type { Clock } from '../core/clock.js';
import type { SecureContext } from 'node:tls';

export interface HttpRequest {
  url: URL;
  headers: Record<string, string>;
  /** Encoded once, in the pieces it goes out in, not again on every attempt. */
  body: WireBody;
  /** Read the answer's bytes into this buffer (the answer's `body` is then empty): see AnswerBuffer. */
  into?: AnswerBuffer;
}

/**
 * One buffer that answer after answer is read into, grown when needed and never given back: `report --all`
 * reads page after page of megabytes, and a new buffer (and text) for each would be garbage that V8 lets
 * pile up outside its young generation until a full collection, so memory would grow with the pages.
 * What `bytes()` returns is valid until the next answer is read into it.
 */
export class AnswerBuffer {
  private buffer = Buffer.allocUnsafe(256 * 1024);
  private length = 0;

  reset(): void {
    this.length = 0;
  }

  append(chunk: Buffer): void {
    if (this.length + chunk.length > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + chunk.length));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    chunk.copy(this.buffer, this.length);
    this.length += chunk.length;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

export type TransportEvent =
  | { type: 'request'; attempt: number; url: URL; bytes: number }
  | { type: 'response'; attempt: number; status: number; bytes: number; ms: number }
  | { type: 'retry'; attempt: number; delayMs: number; reason: string };

export interface TransportOptions {
  /** Deadline of one attempt, from connecting to the last byte of the answer. */
  timeoutMs: number;
  /** Attempts after the first one, on network errors, timeouts, 429 and 5xx. */
  retries: number;
  /** The run's environment, for its proxy variables. */
  env: NodeJS.ProcessEnv;
  /** PEM texts trusted in addition to the system roots. */
  extraCa?: string[];
  signal?: AbortSignal;
  onEvent?: (event: TransportEvent) => void;
  /** Paces every attempt (apply's client-side rate limit): a slot is taken before sending, given back on the answer. */
  limiter?: { acquire(signal?: AbortSignal): Promise<() => void> };
  clock?: Clock;
}

export interface HttpResponse extends RawResponse {
  attempts: number;
  /** Why the attempt before the last failed without an answer (a timeout, a reset): it may have been applied. */
  lostAnswer?: string;
  /** Whether an attempt before this answer may have reached the service (a lost answer, a 5xx). */
  sentBefore?: boolean;
  headers: Record<string, string | string[] | undefined>;
}

const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * A failure of one attempt; `retryable` says whether another attempt may help, and `sent` whether the
 * request may have reached the service (and a change been applied): 'never sent' when it did not leave this
 * machine (refused, unresolved, TLS, no tunnel through the proxy).
 */
export class AttemptError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly hint?: string,
    readonly sent: 'may have arrived' | 'never sent' = 'may have arrived',
  ) {
    super(message);
  }
}

export function timeoutError(url: URL, timeoutMs: number): AttemptError {
  return new AttemptError(`no complete answer from ${url.host} within ${timeoutMs / 1000} s (timeout)`, true,
    'Raise --timeout (or SCPCTL_TIMEOUT) if the service is slow.');
}

/** OpenSSL's certificate verification codes (UNABLE_TO_GET_ISSUER_CERT, CERT_HAS_EXPIRED...) and Node's name check. */
const TLS_CODE = /^(?:UNABLE_TO_|CERT_|ERR_TLS_CERT_)|SELF_SIGNED_CERT/;

/**
 * A TLS handshake the other end did not speak TLS to, in plain words (requests and doctor alike): OpenSSL's
 * "wrong version number" is what an https:// URL pointed at a plain-HTTP port gets. Undefined for others.
 */
export function notTls(error: unknown): { why: string; hint: string } | undefined {
  const e = error as NodeJS.ErrnoException;
  const code = e?.code ?? '';
  if (code !== 'EPROTO' && code !== 'ERR_SSL_WRONG_VERSION_NUMBER') return undefined;
  const plain = code === 'ERR_SSL_WRONG_VERSION_NUMBER'
    || /wrong version number|packet length too long|http request/i.test(e.message ?? '');
  return {
    why: plain ? 'the server answered in plain HTTP' : `the server does not speak TLS as expected (${code})`,
    hint: 'Check the port, or use http:// for a loopback address (https:// needs a TLS server).',
  };
}

const CA_HINT = 'If the service uses a private certificate authority, pass its PEM file with --ca-cert FILE (or SCPCTL_CA_CERT).';

/** Turns a low-level failure into a one-line cause, deciding whether it is worth another attempt. */
export function describeNetworkFailure(error: unknown, url: URL): AttemptError {
  const e = error as NodeJS.ErrnoException;
  const code = e?.code ?? '';
  const host = url.host;
  if (TLS_CODE.test(code)) {
    return new AttemptError(`TLS certificate of ${host} could not be verified (${code})`, false, CA_HINT, 'never sent');
  }
  switch (code) {
    case 'EPROTO':
    case 'ERR_SSL_WRONG_VERSION_NUMBER': {
      // Retrying cannot help: the other end does not speak TLS (or speaks a version we refuse).
      const { why, hint } = notTls(error)!;
      return new AttemptError(`TLS handshake with ${host} failed: ${why}`, false, hint, 'never sent');
    }
    case 'ECONNREFUSED':
      return new AttemptError(`connection to ${host} refused`, true, 'Is the base URL right, and is the service up?', 'never sent');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new AttemptError(`cannot resolve host ${url.hostname} (${code})`, code === 'EAI_AGAIN', 'Check the base URL and your DNS or proxy settings.', 'never sent');
    case 'ECONNRESET':
    case 'EPIPE':
      return new AttemptError(`connection to ${host} was reset`, true);
    case 'ETIMEDOUT':
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      // Only a connect that timed out sent nothing; a read or a write that did may have delivered the request.
      if (code === 'ETIMEDOUT' && e.syscall !== 'connect') {
        return new AttemptError(`connection to ${host} timed out (${code})`, true);
      }
      return new AttemptError(`cannot reach ${host} (${code})`, true, undefined, 'never sent');
  }
  const message = (e?.message || String(error)).split('\n')[0];
  if (/certificate|self.signed/i.test(message)) {
    return new AttemptError(`TLS certificate of ${host} could not be verified: ${message}`, false, CA_HINT, 'never sent');
  }
  return new AttemptError(`request to ${host} failed: ${message}${code ? ` (${code})` : ''}`, true);
}

export interface TrustedTls {
  /** Kept beside the context: Node's agents tell connections apart by `ca`, never by `secureContext`. */
  ca: string[];
  secureContext: SecureContext;
}

const trustStores = new Map<string, Promise<TrustedTls>>();

/**
 * One secure context for each set of extra certificates. Given only `ca`, Node parses every root (a few
 * hundred PEM blocks) again for each connection: each retry, each doctor probe, each run of a test process
 * that runs many. The certificates are read-only once parsed, so sharing them shares nothing that a run
 * could change. `ca` replaces Node's defaults, so the system roots and NODE_EXTRA_CA_CERTS (the run's, as
 * Node reads the process's at start) are named too.
 */
export function trustedTls(extra: string[], env: NodeJS.ProcessEnv): Promise<TrustedTls> {
  const nodeExtra = env.NODE_EXTRA_CA_CERTS || undefined;
  const key = `${nodeExtra ?? ''}\n${extra.join('\n')}`;
  let store = trustStores.get(key);
  if (!store) {
    store = (async () => {
      const tls = await import('node:tls');
      const ca = [...tls.rootCertificates];
      if (nodeExtra) {
        const { readFileSync } = await import('node:fs');
        try {
          ca.push(readFileSync(nodeExtra, 'utf8'));
        } catch {
          // Node itself only warns about an unreadable NODE_EXTRA_CA_CERTS; do the same by ignoring it.
        }
      }
      ca.push(...extra);
      return { ca, secureContext: tls.createSecureContext({ ca }) };
    })();
    // Node accepts any text as `ca` (it stops at the first block it cannot read), so this does not fail on a bad
    // file; should building the context fail some other way, the failure is not kept and the next attempt tries again.
    store.catch(() => trustStores.delete(key));
    trustStores.set(key, store);
  }
  return store;
}

/**
 * An answer's body as it arrives: capped at MAX_ANSWER_BYTES (over it, `add` gives the
 * error to fail the attempt with), kept in the request's AnswerBuffer when it has one (the body text is
 * then empty), else as chunks joined once at the end.
 */
export class BodyCollector {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly request: HttpRequest) {
    request.into?.reset();
  }

  /** A ResponseError when the answer has grown past the cap (stop reading then). */
  add(chunk: Buffer): ResponseError | undefined {
    this.size += chunk.length;
    if (this.size > MAX_ANSWER_BYTES) {
      return new ResponseError(`the answer from ${this.request.url.host} is larger than ${formatBytes(MAX_ANSWER_BYTES)}; stopped reading`);
    }
    if (this.request.into) this.request.into.append(chunk);
    else this.chunks.push(chunk);
    return undefined;
  }

  text(): string {
    return this.request.into ? '' : Buffer.concat(this.chunks, this.size).toString('utf8');
  }
}
