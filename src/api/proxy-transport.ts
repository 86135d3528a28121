// The transport through a proxy, with undici's ProxyAgent. Which proxy, if any, is proxy-env.ts's choice
// (proxyInEffect), made once for the transport, doctor and the messages alike; undici is handed that URL.
// Loaded only then, because undici costs start-up time.
import type { ProxyAgent } from 'undici';
import { Interrupted, ResponseError } from '../errors.js';
import type { ProxyChoice } from './proxy-env.js';
import { maskUrlCredentials } from '../core/secrets.js';
import { AttemptError, BodyCollector, TUNNEL_HINT, describeNetworkFailure, timeoutError, trustedTls } from './attempt.js';
import type { HttpResponse, SendRequest, TransportOptions } from './attempt.js';
import { portOf, unbracket } from '../core/urls.js';

async function agentFor({ connections, extraCa, timeoutMs, env }: TransportOptions, key: string, proxy: ProxyChoice): Promise<ProxyAgent> {
  let agent = connections.get<ProxyAgent>(key);
  if (!agent) {
    const trust = extraCa?.length ? await trustedTls(extraCa, env) : undefined;
    const { ProxyAgent, Pool } = await import('undici');
    agent = new ProxyAgent({
      uri: proxy.value,
      clientFactory: (origin: URL, options: object) => tunnelFailsOnce(new Pool(origin, options)),
      // rejectUnauthorized said outright: an inherited NODE_TLS_REJECT_UNAUTHORIZED=0 never turns it off.
      requestTls: { rejectUnauthorized: true, ...trust },
      proxyTls: { rejectUnauthorized: true },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    connections.keep(key, agent);
  }
  return agent;
}

/**
 * The proxy's connection pool, whose CONNECT failures end the request. undici takes a socket closed by the
 * proxy during CONNECT for a recoverable socket error and connects again at once, without end: a proxy
 * that refuses by hanging up got thousands of CONNECTs a second until our deadline. Renamed, the failure
 * fails the request, and the transport's own retry policy (back-off, --retries) decides what happens next.
 */
function tunnelFailsOnce<P extends { connect(options: object): Promise<unknown> }>(pool: P): P {
  const connect = pool.connect.bind(pool);
  pool.connect = (async (options: object) => {
    try {
      return await connect(options);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== 'UND_ERR_SOCKET') throw error;
      throw Object.assign(new Error(`the proxy closed the connection instead of answering CONNECT (${(error as Error).message})`), {
        code: 'SCPCTL_PROXY_HUNG_UP',
      });
    }
  }) as P['connect'];
  return pool;
}

/** One attempt through `proxy` (proxyInEffect's choice for the request's URL). */
export async function sendThroughProxyAgent(
  request: SendRequest,
  options: TransportOptions,
  proxy: ProxyChoice,
): Promise<Omit<HttpResponse, 'attempts'>> {
  const key = `${options.timeoutMs}\n${proxy.value}\n${(options.extraCa ?? []).join('\n')}`;
  const dispatcher = await agentFor(options, key, proxy);
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // Our own deadline: undici does not always honour an abort signal while its tunnel fails (seen with a
  // proxy that closes CONNECT), so the attempt is bounded here whatever undici does.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      // Dropped: undici may keep retrying a failing tunnel on its own.
      options.connections.discard(key);
      reject(throughProxy(timeoutError(request.url, options.timeoutMs), proxy));
    }, options.timeoutMs);
  });
  try {
    return await Promise.race([receive(request, dispatcher, controller.signal), deadline]);
  } catch (error) {
    if (error instanceof ResponseError || error instanceof AttemptError) throw error;
    if (options.signal?.aborted) throw new Interrupted('interrupted');
    if (error instanceof (await import('undici')).errors.RequestAbortedError) {
      // Not ours (we did not abort): undici reports a refused CONNECT this way.
      const why = `the proxy refused to open a tunnel to ${request.url.host}: ${error.message}`;
      throw new AttemptError(why, false, TUNNEL_HINT, 'never sent');
    }
    throw describeProxyFailure(error, request.url) ?? throughProxy(describeNetworkFailure(error, request.url), proxy);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

async function receive(request: SendRequest, dispatcher: ProxyAgent, signal: AbortSignal): Promise<Omit<HttpResponse, 'attempts'>> {
  const { request: undiciRequest } = await import('undici');
  const res = await undiciRequest(request.url, { method: 'POST', headers: request.headers, body: request.body.joined(), dispatcher, signal });
  const body = new BodyCollector(request);
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    const tooLarge = body.add(chunk);
    if (tooLarge) {
      res.body.destroy();
      throw tooLarge;
    }
  }
  return { status: res.statusCode, headers: res.headers, body: body.text() };
}

/** Says which proxy stood between us and the service, since it may be the one that failed. */
function throughProxy(failure: AttemptError, proxy: ProxyChoice): AttemptError {
  return new AttemptError(`${failure.message} (through the proxy ${maskUrlCredentials(proxy.value)} from ${proxy.variable})`, failure.retryable,
    failure.hint ?? 'Check the proxy, or list the service host in NO_PROXY to bypass it.', failure.sent);
}

/** A failure to reach the proxy itself names the proxy, not the service behind it. */
function describeProxyFailure(error: unknown, target: URL): AttemptError | undefined {
  const e = error as { code?: string; address?: string; port?: number; cause?: { code?: string; address?: string; port?: number } };
  const failed = e.address !== undefined ? e : e.cause;
  if (!failed?.address || failed.port === undefined) return undefined;
  if (failed.port === portOf(target) && unbracket(target.hostname) === failed.address) return undefined;
  return new AttemptError(
    `cannot reach the proxy ${failed.address}:${failed.port} (${failed.code ?? 'error'})`,
    true,
    'Check HTTPS_PROXY / HTTP_PROXY, or list the service host in NO_PROXY to bypass the proxy.',
    'never sent',
  );
}
