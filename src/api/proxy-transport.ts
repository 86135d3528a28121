// Requests through a proxy (proxy-env.ts's choice, made once for the transport, doctor and the messages
// alike): a tunnel to the service for each attempt (CONNECT through an http(s) proxy, or SOCKS5), and TLS
// over it, handed to node:http(s) as the attempt's connection, so that an attempt through a proxy is the same
// attempt as a direct one (its deadline, its cap, its reading of the answer). Doctor's TLS probe (probes.ts)
// opens the same CONNECT tunnel.
import { once } from 'node:events';
import { connect as tcpConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { ProxyChoice } from './proxy-env.js';
import { maskUrlCredentials } from '../core/secrets.js';
import { AttemptError, describeNetworkFailure, type TrustedTls } from './attempt.js';
import { portOf, unbracket } from '../core/urls.js';

const TUNNEL_HINT = 'Check HTTPS_PROXY / HTTP_PROXY and whether the proxy allows this host, or list the host in NO_PROXY.';
const PROXY_URL_HINT =
  "Check the proxy's URL (scheme, host, port); a private authority of its certificate goes in NODE_EXTRA_CA_CERTS (not --ca-cert).";

/**
 * The tunnel of one attempt to `target` through `proxy`: `connect` is http.request's createConnection (the
 * tunnel, then TLS over it for an https target), `explain` names the proxy in a failure of the request
 * (it may be the one that failed), `close` gives up a tunnel still being opened when the attempt ends.
 */
export function tunnelTo(proxy: ProxyChoice, target: URL, trust: TrustedTls | undefined) {
  const abandoned = new AbortController();
  const explain = (failure: AttemptError): AttemptError =>
    new AttemptError(`${failure.message} (through the proxy ${maskUrlCredentials(proxy.value)} from ${proxy.variable})`, failure.retryable,
      failure.hint ?? 'Check the proxy, or list the service host in NO_PROXY to bypass it.', failure.sent);
  return {
    explain,
    close: () => abandoned.abort(),
    connect(_options: object, done: (error: Error | null, socket: Socket) => void): undefined {
      const via = new URL(proxy.value);
      const tunnel = via.protocol.startsWith('socks') ? socksTunnel(via, target, abandoned.signal)
        : openTunnel(via, target, undefined, abandoned.signal);
      tunnel.then(
        (socket) => done(null, target.protocol === 'https:' ? overTls(socket, target, trust) : socket),
        (error: unknown) => done(tunnelFailure(error, target, via, explain), undefined as never),
      );
      return undefined;
    },
  };
}

/**
 * `CONNECT host:port` of `target` through an http(s) proxy, with the proxy's credentials from its URL (the
 * transport's tunnel and doctor's TLS probe). A proxy that answers anything but 200 fails with the code
 * SCPCTL_PROXY_REFUSED.
 */
export async function openTunnel(proxy: URL, target: URL, timeoutMs?: number, signal?: AbortSignal): Promise<Socket> {
  // The port always named (the scheme's default too), an IPv6 literal in its brackets (RFC 9110 9.3.6).
  const authority = `${target.hostname}:${portOf(target)}`;
  const { request } = proxy.protocol === 'https:' ? await import('node:https') : await import('node:http');
  const headers: Record<string, string> = { host: authority };
  if (proxy.username || proxy.password) {
    const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
    headers['proxy-authorization'] = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  return new Promise((resolve, reject) => {
    // rejectUnauthorized said outright (an https proxy): an inherited NODE_TLS_REJECT_UNAUTHORIZED=0 never turns it off.
    const req = request({
      host: unbracket(proxy.hostname), port: portOf(proxy), method: 'CONNECT', path: authority, headers, agent: false,
      signal, rejectUnauthorized: true,
    });
    const late = (): Error =>
      Object.assign(new Error(`the proxy did not answer CONNECT within ${timeoutMs! / 1000} s`), { code: 'ETIMEDOUT' });
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => req.destroy(late()), timeoutMs);
    req.once('connect', (res, socket) => {
      clearTimeout(timer);
      if (res.statusCode === 200) resolve(socket);
      else {
        socket.destroy();
        const refused = new Error(`the proxy answered HTTP ${res.statusCode} to CONNECT ${authority}`);
        reject(Object.assign(refused, { code: 'SCPCTL_PROXY_REFUSED' }));
      }
    });
    req.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end();
  });
}

/** A SOCKS5 tunnel (RFC 1928) to the target's host name, logged in with the user and password of the proxy's URL (RFC 1929). */
async function socksTunnel(proxy: URL, target: URL, signal: AbortSignal): Promise<Socket> {
  const socket = tcpConnect({ host: unbracket(proxy.hostname), port: portOf(proxy), signal });
  const [user, password] = [proxy.username, proxy.password].map((text) => Buffer.from(decodeURIComponent(text)));
  const login = user!.length > 0 || password!.length > 0;
  socket.write(Buffer.from([5, 1, login ? 2 : 0]));
  if ((await readBytes(socket, 2))[1] !== (login ? 2 : 0)) throw socksRefused(socket, 'takes no way of logging in that scpctl offers');
  if (login) {
    socket.write(Buffer.concat([Buffer.from([1, user!.length]), user!, Buffer.from([password!.length]), password!]));
    if ((await readBytes(socket, 2))[1] !== 0) throw socksRefused(socket, 'refused the user name and password of its URL');
  }
  const [host, port] = [Buffer.from(unbracket(target.hostname)), portOf(target)];
  socket.write(Buffer.concat([Buffer.from([5, 1, 0, 3, host.length]), host, Buffer.from([port >> 8, port & 0xff])]));
  const reply = await readBytes(socket, 5);
  if (reply[1] !== 0) throw socksRefused(socket, `refused to connect to ${target.host} (SOCKS reply ${reply[1]})`);
  // The rest of the reply, the address the proxy bound and its port, by the address's type.
  await readBytes(socket, reply[3] === 1 ? 5 : reply[3] === 4 ? 17 : reply[4]! + 2);
  return socket;
}

async function readBytes(socket: Socket, count: number): Promise<Buffer> {
  for (;;) {
    const bytes = socket.read(count) as Buffer | null;
    if (bytes !== null && bytes.length === count) return bytes;
    if (bytes !== null || socket.readableEnded || socket.destroyed) {
      throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    }
    // Rejected by an 'error' (a refused connection to the proxy, named by describeProxyFailure).
    await Promise.race([once(socket, 'readable'), once(socket, 'end')]);
  }
}

function socksRefused(socket: Socket, why: string): Error {
  socket.destroy();
  return Object.assign(new Error(`the SOCKS proxy ${why}`), { code: 'SCPCTL_PROXY_REFUSED' });
}

function overTls(socket: Socket, target: URL, trust: TrustedTls | undefined): Socket {
  const host = unbracket(target.hostname);
  // `host` names the certificate's expected host over the tunnel; rejectUnauthorized as for a direct request.
  return tlsConnect({ socket, host, ...(isIP(host) ? {} : { servername: host }), ...trust, rejectUnauthorized: true });
}

/**
 * Why no tunnel was opened. Nothing reached the service: the request is sent only through an open tunnel, and
 * what failed is the connection to the proxy `via` (its name, its TLS), so it is described as the proxy's, and
 * retried only where that may help (not for the proxy's untrusted certificate, nor a name that resolves to nothing).
 */
function tunnelFailure(error: unknown, target: URL, via: URL, explain: (failure: AttemptError) => AttemptError): AttemptError {
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'SCPCTL_PROXY_REFUSED') return new AttemptError(e.message, false, TUNNEL_HINT, 'never sent');
  const proxyDown = describeProxyFailure(error);
  if (proxyDown) return proxyDown;
  if (e.code === 'ECONNRESET') {
    const why = `the proxy closed the connection instead of opening a tunnel to ${target.host}`;
    return explain(new AttemptError(why, true, TUNNEL_HINT, 'never sent'));
  }
  const failure = describeNetworkFailure(error, via);
  return explain(new AttemptError(failure.message, failure.retryable, failure.retryable ? TUNNEL_HINT : PROXY_URL_HINT, 'never sent'));
}

/**
 * A failure to reach the proxy itself names the proxy, not the service behind it: a socket error with an
 * address is the proxy's, the only host a tunnel connects to.
 */
function describeProxyFailure(error: unknown): AttemptError | undefined {
  const failed = error as { code?: string; address?: string; port?: number };
  if (!failed.address || failed.port === undefined) return undefined;
  return new AttemptError(
    `cannot reach the proxy ${failed.address}:${failed.port} (${failed.code ?? 'error'})`,
    true,
    'Check HTTPS_PROXY / HTTP_PROXY, or list the service host in NO_PROXY to bypass the proxy.',
    'never sent',
  );
}
