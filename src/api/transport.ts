// HTTP for scpctl: one POST with a deadline per attempt, a cap on the answer's size, retries with
// exponential back-off and full jitter, `Retry-After`, proxies and extra certificate authorities.
// It knows nothing of terminals: what happens is reported through `onEvent`.
import type { IncomingMessage } from 'node:http';
import { NetworkError, ResponseError, Interrupted } from '../errors.js';
import { TRANSPORT_BACKOFF, backoffDelay, isRetryableStatus, retryAfterMs } from '../core/retry-policy.js';
import { systemClock } from '../core/clock.js';
import { proxyInEffect } from './proxy-env.js';
import {
  AttemptError,
  BodyCollector,
  describeNetworkFailure,
  timeoutError,
  trustedTls,
  type HttpRequest,
  type HttpResponse,
  type TransportOptions,
} from './attempt.js';

export type { HttpRequest, HttpResponse, TransportEvent, TransportOptions } from './attempt.js';

/** Sends one POST, retrying what may succeed on another try. Throws typed errors only. */
export async function post(request: HttpRequest, options: TransportOptions): Promise<HttpResponse> {
  const attemptsAllowed = Math.max(0, options.retries) + 1;
  const clock = options.clock ?? systemClock;
  let lastCause = '';
  let lostAnswer: string | undefined;
  let sentBefore = false; // an attempt so far may have reached the service (lost answer, 5xx)
  for (let attempt = 1; ; attempt++) {
    if (options.signal?.aborted) throw new Interrupted('interrupted');
    const release = await options.limiter?.acquire(options.signal);
    const started = clock.now();
    options.onEvent?.({ type: 'request', attempt, url: request.url, bytes: request.body.length });
    let response: HttpResponse | undefined;
    let delayMs: number;
    try {
      try {
        response = { ...(await sendOnce(request, options)), attempts: attempt, lostAnswer, sentBefore };
      } finally {
        release?.();
      }
      options.onEvent?.({
        type: 'response',
        attempt,
        status: response.status,
        bytes: request.into ? request.into.bytes().length : Buffer.byteLength(response.body),
        ms: clock.now() - started,
      });
      if (!isRetryableStatus(response.status)) return response;
      lastCause = `HTTP ${response.status}`;
      lostAnswer = undefined;
      sentBefore ||= response.status >= 500; // 429: refused, not done
      if (attempt >= attemptsAllowed) return response;
      delayMs = retryAfterMs(response.headers['retry-after'], clock.now()) ?? backoffDelay(TRANSPORT_BACKOFF, attempt);
    } catch (error) {
      if (!(error instanceof AttemptError)) throw error;
      lastCause = error.message;
      if (error.sent === 'may have arrived') {
        lostAnswer = error.message;
        sentBefore = true;
      }
      if (!error.retryable || attempt >= attemptsAllowed) {
        const tries = attempt > 1 ? ` (after ${attempt} attempts)` : '';
        const failure = new NetworkError(`${error.message}${tries}`, { hint: error.hint });
        failure.mayHaveArrived = sentBefore;
        throw failure;
      }
      delayMs = backoffDelay(TRANSPORT_BACKOFF, attempt);
    }
    options.onEvent?.({ type: 'retry', attempt, delayMs, reason: lastCause });
    await clock.sleep(delayMs, options.signal);
  }
}

/**
 * One attempt, over node:http(s), which costs nothing to load; through a proxy (proxy-env.ts's choice, the
 * same reading doctor and the plain-http check use), over a CONNECT tunnel (proxy-transport.ts).
 */
async function sendOnce(request: HttpRequest, options: TransportOptions): Promise<Omit<HttpResponse, 'attempts'>> {
  const secure = request.url.protocol === 'https:';
  const client = secure ? await import('node:https') : await import('node:http');
  const trust = secure && options.extraCa?.length ? await trustedTls(options.extraCa, options.env) : undefined;
  const proxy = proxyInEffect(request.url, options.env);
  const tunnel = proxy && (await import('./proxy-transport.js')).tunnelTo(proxy, request.url, trust);
  const failure = (error: AttemptError): AttemptError => tunnel?.explain(error) ?? error;

  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: AttemptError | ResponseError | Interrupted | null, value?: Omit<HttpResponse, 'attempts'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (error) {
        req.destroy();
        tunnel?.close();
        reject(error);
      } else resolve(value!);
    };
    const timer = setTimeout(() => finish(failure(timeoutError(request.url, options.timeoutMs))), options.timeoutMs);
    const onAbort = (): void => finish(new Interrupted('interrupted'));
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const req = client.request(request.url, {
      method: 'POST',
      headers: { ...request.headers, 'Content-Length': String(request.body.length) },
      ...trust,
      // Said outright, so that no inherited NODE_TLS_REJECT_UNAUTHORIZED=0 can turn verification off.
      rejectUnauthorized: true,
      createConnection: tunnel?.connect,
    });
    // A tunnel that could not be opened fails the request with its own words (proxy-transport.ts).
    req.on('error', (error) => finish(error instanceof AttemptError ? error : failure(describeNetworkFailure(error, request.url))));
    req.on('response', (res: IncomingMessage) => {
      const body = new BodyCollector(request);
      res.on('data', (chunk: Buffer) => {
        const tooLarge = body.add(chunk);
        if (tooLarge) finish(tooLarge);
      });
      res.on('error', (error) => finish(failure(describeNetworkFailure(error, request.url))));
      // An answer cut off ends incomplete, or only closes: either way the close that follows settles it.
      res.on('end', () => {
        if (res.complete) finish(null, { status: res.statusCode ?? 0, headers: res.headers, body: body.text() });
      });
      res.on('close', () => finish(new AttemptError(`the answer from ${request.url.host} was cut off`, true)));
    });
    // Written piece by piece: the socket takes them together (writev), and the list is never copied.
    for (const part of request.body.parts) req.write(part);
    req.end();
  });
}
