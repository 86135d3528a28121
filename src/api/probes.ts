// Low-level network probes for `scpctl doctor`: a TCP connection, and a TLS handshake that records rather
// than refuses an untrusted certificate (through an http(s) proxy, over proxy-transport.ts's CONNECT tunnel).
// Each fails with a Node error (with a `code` where there is one); what the failure means to the user is the
// caller's business.
import { isIP, connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type PeerCertificate, type TLSSocket } from 'node:tls';
import type { TrustedTls } from './attempt.js';
import { openTunnel } from './proxy-transport.js';
import { portOf, unbracket } from '../core/urls.js';

/** How a probe reaches the service: directly, or through a proxy. */
export interface Route {
  /** The proxy in effect for the base URL; undefined for a direct connection. */
  proxy?: URL;
  /** Where the TCP connection goes: the proxy, or the service. */
  host: string;
  port: number;
}

/** A TCP connection, connected and without a timeout; an `ETIMEDOUT` error when none is made within `timeoutMs`. */
export function connectTcp(host: string, port: number, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect({ host, port });
    socket.setTimeout(timeoutMs, () => socket.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    socket.once('connect', () => {
      socket.setTimeout(0);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** A TLS handshake that records, rather than refuses, an untrusted certificate; nothing is sent over it. */
export async function handshake(base: URL, route: Route, trust: TrustedTls | undefined, timeoutMs: number): Promise<TLSSocket> {
  const host = unbracket(base.hostname);
  const port = portOf(base);
  const socket = route.proxy ? await openTunnel(route.proxy, base, timeoutMs) : undefined;
  return new Promise((resolve, reject) => {
    const tls = tlsConnect({
      // `host` names the certificate's expected host, also over a tunnel.
      ...(socket ? { socket, host } : { host, port }),
      ...(isIP(host) ? {} : { servername: host }),
      ...trust,
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    });
    const timer = setTimeout(() => tls.destroy(Object.assign(new Error(`no handshake within ${timeoutMs / 1000} s`), { code: 'ETIMEDOUT' })), timeoutMs);
    tls.once('secureConnect', () => {
      clearTimeout(timer);
      resolve(tls);
    });
    tls.once('error', (error) => {
      clearTimeout(timer);
      socket?.destroy();
      reject(error);
    });
  });
}

export function describeCertificate(cert: PeerCertificate, now: number): string {
  if (!cert || Object.keys(cert).length === 0) return 'none presented';
  const name = (fields: Record<string, string | string[] | undefined> | undefined): string =>
    ['CN', 'O'].flatMap((key) => (fields?.[key] === undefined ? [] : [`${key}=${[fields[key]].flat().join('+')}`])).join(', ') ||
    '(no name)';
  const expires = new Date(cert.valid_to);
  const days = Math.floor((expires.getTime() - now) / 86_400_000);
  const expiry = Number.isNaN(days) ? `valid until ${cert.valid_to}` : `expires ${expires.toISOString().slice(0, 10)} (${days < 0 ? `${-days} days ago` : `in ${days} day${days === 1 ? '' : 's'}`})`;
  return `${name(cert.subject)}, issued by ${name(cert.issuer)}, ${expiry}`;
}

/** `promise`, or a rejection with an error of `code` after `ms`, for calls that have no timeout of their own (DNS lookup). */
export function withDeadline<T>(promise: Promise<T>, ms: number, code: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${ms / 1000} s`), { code })), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
