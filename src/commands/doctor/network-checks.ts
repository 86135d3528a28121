// Doctor's checks over the network, in the order a request needs them: DNS, TCP, the CA certificates and
// TLS, the token as the service sees it, and the clock (from that same answer's Date header).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { connectTcp, describeCertificate, handshake, withDeadline } from '../../api/probes.js';
import { unbracket } from '../../core/urls.js';
import { messageOf } from '../../errors.js';
import { codeOf, type Checks, type DoctorState } from './state.js';

/** Largest difference from the server's `Date` header that still passes. */
export const CLOCK_TOLERANCE_MS = 5 * 60 * 1000;

const what = (state: DoctorState): string => (state.route!.proxy ? `the proxy ${state.route!.host}` : state.route!.host);

export async function checkDns(state: DoctorState, checks: Checks): Promise<void> {
  const route = state.route!;
  const started = state.ctx.clock.now();
  if (isIP(route.host)) {
    checks.pass('DNS', `${what(state)} is an IP address: nothing to resolve`);
    return;
  }
  try {
    const addresses = await withDeadline(lookup(route.host, { all: true }), state.timeoutMs, 'ETIMEOUT');
    const list = [...new Set(addresses.map((a) => a.address))];
    checks.pass('DNS', `${what(state)} resolves to ${list.slice(0, 4).join(', ')}${list.length > 4 ? ', …' : ''} (${Math.round(state.ctx.clock.now() - started)} ms)`);
  } catch (error) {
    state.dnsFailed = true;
    checks.fail('DNS', `cannot resolve ${what(state)} (${codeOf(error)})`, 6,
      route.proxy ? 'Check the proxy variable and your DNS settings.' : 'Check the host name in the base URL, and your DNS or proxy settings.');
  }
}

export async function checkTcp(state: DoctorState, checks: Checks): Promise<void> {
  const route = state.route!;
  const started = state.ctx.clock.now();
  try {
    const socket = await connectTcp(route.host, route.port, state.timeoutMs);
    const address = socket.remoteAddress;
    socket.destroy();
    const via = address && address !== route.host ? ` (${address})` : '';
    checks.pass('TCP', `connected to ${what(state)}:${route.port}${via} in ${Math.round(state.ctx.clock.now() - started)} ms`);
    state.reachable = true;
  } catch (error) {
    const code = codeOf(error);
    const why = code === 'ECONNREFUSED' ? 'refused' : code === 'ETIMEDOUT' ? `no answer within ${state.timeoutMs / 1000} s` : `failed (${code})`;
    checks.fail('TCP', `connection to ${what(state)}:${route.port} ${why}`, 6,
      route.proxy ? 'Is the proxy up, and its port right? Or exempt the host with NO_PROXY.' : 'Is the service up, and the port in the base URL right? A firewall may need a proxy.');
  }
}

/** The extra certificate authority, when one is set (https only). */
export function checkCaCertificates(state: DoctorState, checks: Checks): void {
  const caCert = state.settings!.caCert;
  if (!caCert) {
    const env = state.ctx.env;
    const extra = env.NODE_EXTRA_CA_CERTS ? ` and NODE_EXTRA_CA_CERTS (${env.NODE_EXTRA_CA_CERTS})` : '';
    checks.info('CA certificates', `the system roots${extra}; --ca-cert adds a private authority`);
    return;
  }
  const { value: path, source } = caCert;
  try {
    // Read as every command reads it: a regular file or a pipe, capped, holding a certificate.
    const pem = state.ctx.readCaFile(path, source);
    const count = pem.split('-----BEGIN CERTIFICATE-----').length - 1;
    checks.pass('CA certificates', `${count} from ${path} (${source}), besides the system roots`);
  } catch (error) {
    state.caFailed = true;
    checks.fail('CA certificates', messageOf(error), 2, 'Point --ca-cert (or SCPCTL_CA_CERT, or the caCert key) at a PEM file.');
  }
}

/** A TLS handshake trusting what the commands trust; plain http is only ever loopback. */
export async function checkTls(state: DoctorState, checks: Checks): Promise<void> {
  const base = state.base!;
  const route = state.route!;
  if (base.protocol !== 'https:') {
    checks.info('TLS', `not used: plain http:// to the loopback host ${base.hostname}`);
    state.secure = state.reachable;
    return;
  }
  if (route.proxy && route.proxy.protocol.startsWith('socks')) {
    checks.info('TLS', 'not checked through a SOCKS proxy; the token check below still uses it');
    state.secure = true;
    return;
  }
  const host = unbracket(base.hostname);
  const { notTls, trustedTls } = await import('../../api/attempt.js');
  try {
    const caCert = state.settings!.caCert;
    const trust = caCert ? await trustedTls([state.ctx.readCaFile(caCert.value, caCert.source)], state.ctx.env) : undefined;
    const socket = await handshake(base, route, trust, state.timeoutMs);
    const protocol = socket.getProtocol() ?? 'TLS';
    const cert = socket.getPeerCertificate();
    const authorized = socket.authorized;
    const failure = socket.authorizationError ? String(socket.authorizationError) : '';
    socket.destroy();
    const about = describeCertificate(cert, state.ctx.clock.now());
    if (authorized) {
      checks.pass('TLS', `${protocol}${route.proxy ? ' (through the proxy)' : ''}, certificate ${about}`);
      state.secure = true;
      return;
    }
    checks.fail('TLS', `the certificate of ${host} is not trusted (${failure}): ${about}`, 6, tlsHint(failure));
  } catch (error) {
    const plain = notTls(error);
    if (plain) checks.fail('TLS', `handshake with ${host} failed: ${plain.why}`, 6, plain.hint);
    else {
      checks.fail('TLS', `handshake with ${host} failed: ${messageOf(error)}`, 6,
        route.proxy ? 'The proxy may refuse CONNECT to this host, or intercept TLS: see its policy.' : undefined);
    }
  }
}

function tlsHint(code: string): string {
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'The certificate does not name this host: check the host name in the base URL.';
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return 'Check this machine\'s clock; else the service must renew its certificate.';
  return 'If the service (or a TLS-inspecting proxy) uses a private certificate authority, pass its PEM file with --ca-cert FILE (or SCPCTL_CA_CERT).';
}

/** One minimal report request (as `login` makes), through the commands' own client: accepted, or why not. */
export async function checkTokenAccepted(state: DoctorState, checks: Checks): Promise<void> {
  let status = 0;
  const started = state.ctx.clock.now();
  try {
    const client = await state.ctx.client();
    await client.report([['timeperiod', '3600'], ['limit', '1']], (response) => {
      state.answer = { headers: response.headers, receivedAt: state.ctx.clock.now() };
      status = response.status;
    });
    checks.pass('token accepted', `a report request (timeperiod=3600, limit=1) was answered HTTP ${status} in ${Math.round(state.ctx.clock.now() - started)} ms`);
  } catch (error) {
    checks.failWith('token accepted', error);
  }
}

export function checkClock(state: DoctorState, checks: Checks): void {
  const answer = state.answer!;
  const header = answer.headers.date;
  const text = Array.isArray(header) ? header[0] : header;
  const serverTime = text ? Date.parse(text) : NaN;
  if (Number.isNaN(serverTime)) {
    checks.info('clock', 'the service sent no Date header: not checked');
    return;
  }
  // The header has whole seconds: up to 1 s of difference is only rounding.
  const skew = answer.receivedAt - serverTime;
  const size = Math.abs(skew) < 1000 ? 0 : Math.abs(skew);
  if (size <= CLOCK_TOLERANCE_MS) {
    checks.pass('clock', size === 0 ? 'in step with the service (Date header)' : `${formatDuration(size)} ${skew > 0 ? 'ahead of' : 'behind'} the service: within 5 min`);
    return;
  }
  checks.fail('clock', `this machine's clock is ${formatDuration(size)} ${skew > 0 ? 'ahead of' : 'behind'} the service (its Date: ${text})`, 1,
    'Set the clock right (enable NTP): time windows of reports and certificate checks depend on it.');
}

function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${(s / 3600).toFixed(1)} h`;
  return `${Math.round(s / 86_400)} days`;
}
