// The transport when HTTPS_PROXY/HTTP_PROXY is set: undici's EnvHttpProxyAgent reads the proxy variables
// and NO_PROXY (both cases) itself. Loaded only then, because undici costs start-up time.
import { EnvHttpProxyAgent, request as undiciRequest, errors } from 'undici';
import { Interrupted, ResponseError } from '../errors.js';
import { formatBytes } from '../core/wire.js';
import { MAX_ANSWER_BYTES, trustedRoots, type AttemptError, type HttpRequest, type HttpResponse, type TransportOptions } from './transport.js';

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
  describe: (error: unknown, url: URL) => AttemptError,
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
      throw describe(Object.assign(new Error(`no complete answer from ${request.url.host} within ${options.timeoutMs / 1000} s (timeout)`), { code: 'TIMEOUT' }), request.url);
    }
    if (error instanceof errors.RequestAbortedError) throw new Interrupted('interrupted');
    throw describe(error, request.url);
  }
}
