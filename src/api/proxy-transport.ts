// The transport when HTTPS_PROXY/HTTP_PROXY is set: undici's EnvHttpProxyAgent reads the proxy variables
// and NO_PROXY (both cases) itself. Loaded only then, because undici costs start-up time.
import { EnvHttpProxyAgent, request as undiciRequest, errors } from 'undici';
import { Interrupted, ResponseError } from '../errors.js';
import { formatBytes } from '../core/wire.js';
import { AttemptError, MAX_ANSWER_BYTES, describeNetworkFailure, timeoutError, trustedRoots, type HttpRequest, type HttpResponse, type TransportOptions } from './transport.js';

const agents = new Map<string, EnvHttpProxyAgent>();

async function agentFor(extraCa: string[] | undefined): Promise<EnvHttpProxyAgent> {
  const key = (extraCa ?? []).join('\n');
  let agent = agents.get(key);
  if (!agent) {
    const ca = extraCa?.length ? await trustedRoots(extraCa) : undefined;
    agent = new EnvHttpProxyAgent(ca ? { connect: { ca }, requestTls: { ca } } : {});
    agents.set(key, agent);
  }
  return agent;
}

export async function sendThroughProxyAgent(
  request: HttpRequest,
  options: TransportOptions,
): Promise<Omit<HttpResponse, 'attempts'>> {
  const dispatcher = await agentFor(options.extraCa);
  const maxBytes = options.maxBodyBytes ?? MAX_ANSWER_BYTES;
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  try {
    const res = await undiciRequest(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      dispatcher,
      signal,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) {
        res.body.destroy();
        throw new ResponseError(`the answer from ${request.url.host} is larger than ${formatBytes(maxBytes)}; stopped reading`);
      }
      chunks.push(chunk);
    }
    return {
      status: res.statusCode,
      contentType: String(res.headers['content-type'] ?? ''),
      headers: res.headers,
      body: Buffer.concat(chunks, size).toString('utf8'),
    };
  } catch (error) {
    if (error instanceof ResponseError) throw error;
    if (options.signal?.aborted) throw new Interrupted('interrupted');
    if (deadline.aborted) {
      throw timeoutError(request.url, options.timeoutMs);
    }
    if (error instanceof errors.RequestAbortedError) throw new Interrupted('interrupted');
    throw describeProxyFailure(error, request.url) ?? describeNetworkFailure(error, request.url);
  }
}

/** A failure to reach the proxy itself names the proxy, not the service behind it. */
function describeProxyFailure(error: unknown, target: URL): AttemptError | undefined {
  const e = error as { code?: string; address?: string; port?: number; cause?: { code?: string; address?: string; port?: number } };
  const failed = e.address !== undefined ? e : e.cause;
  if (!failed?.address || failed.port === undefined) return undefined;
  const targetPort = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  if (failed.port === targetPort && target.hostname.replace(/^\[|\]$/g, '') === failed.address) return undefined;
  return new AttemptError(
    `cannot reach the proxy ${failed.address}:${failed.port} (${failed.code ?? 'error'})`,
    true,
    'Check HTTPS_PROXY / HTTP_PROXY, or list the service host in NO_PROXY to bypass the proxy.',
  );
}
