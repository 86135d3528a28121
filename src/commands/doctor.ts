// `scpctl doctor`: checks, one line each, what stands between this machine and the service: the config file,
// the base URL, the proxy, DNS, TCP, TLS, the token and the clock. A check whose prerequisite failed is
// reported as skipped. Exit 0 when every check passes, else the exit code of the first failure's class.
// What the proxy variables mean is in api/proxy-env.ts, the TCP/TLS/CONNECT probes in api/probes.ts: this
// file decides what to check, in which order, and what each outcome tells the user.
import { statSync, readFileSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import {
  ApiError,
  AuthError,
  NetworkError,
  NotFoundError,
  PendingError,
  ResponseError,
  ScpctlError,
  UsageError,
  exitCodeOf,
} from '../errors.js';
import type { HttpResponse } from '../api/transport.js';
import { displayUrl, maskUrlCredentials, noProxyMatch, noProxyVariable, proxyVariableFor } from '../api/proxy-env.js';
import { connectTcp, describeCertificate, handshake, portOf, unbracket, withDeadline, type Route } from '../api/probes.js';
import { configPath, readConfig } from '../settings/config-file.js';
import { normalizeBaseUrl, resolveSettings, type ResolvedSettings } from '../settings/resolve.js';
import { maskToken } from '../output/mask.js';
import { paint } from '../output/terminal.js';
import type { CommandContext } from './context.js';
import { OUTPUT_FORMATS } from './output-formats.js';

export type CheckStatus = 'pass' | 'fail' | 'info' | 'skip';

export interface CheckResult {
  name: string;
  /** false for a failure and for a check that could not run (skipped). */
  ok: boolean;
  status: CheckStatus;
  detail: string;
  hint?: string;
}

/** Largest difference from the server's `Date` header that still passes. */
export const CLOCK_TOLERANCE_MS = 5 * 60 * 1000;

const SYMBOLS: Record<CheckStatus, string> = { pass: '✔', fail: '✖', info: '•', skip: '-' };
const NAME_WIDTH = 16;

/** The checks made so far; in text mode each line is printed as soon as its check is done. */
class Checks {
  readonly results: CheckResult[] = [];
  firstFailureCode: number | undefined;

  constructor(private readonly print: ((result: CheckResult) => void) | undefined) {}

  pass(name: string, detail: string): void {
    this.add({ name, ok: true, status: 'pass', detail });
  }

  info(name: string, detail: string): void {
    this.add({ name, ok: true, status: 'info', detail });
  }

  fail(name: string, detail: string, exitCode: number, hint?: string): void {
    this.firstFailureCode ??= exitCode;
    this.add({ name, ok: false, status: 'fail', detail, ...(hint ? { hint } : {}) });
  }

  skip(name: string, because: string): void {
    this.add({ name, ok: false, status: 'skip', detail: `skipped: ${because}` });
  }

  private add(result: CheckResult): void {
    this.results.push(result);
    this.print?.(result);
  }
}

export async function doctor(ctx: CommandContext, _options: unknown): Promise<void> {
  const format = ctx.outputFormat(OUTPUT_FORMATS.doctor, 'text', 'text');
  const checks = new Checks(format === 'text' ? (result) => ctx.term.out(ctx.term.redact(formatCheck(result))) : undefined);

  const settings = checkConfigAndSettings(ctx, checks);
  const base = settings ? checkBaseUrl(settings.resolved, checks) : undefined;
  if (!settings) checks.skip('base URL', 'the settings could not be read');

  const route = base ? checkProxy(base, ctx.env, checks) : undefined;
  if (!base) checks.skip('proxy', 'needs a base URL');

  const timeoutMs = (settings?.resolved.timeout.value ?? 30) * 1000;
  const noRoute = base ? 'the proxy setting is unusable' : 'needs a base URL';
  const reachable = route ? await checkReachable(route, timeoutMs, checks) : false;
  if (!route) for (const name of ['DNS', 'TCP']) checks.skip(name, noRoute);

  const secureOk = base && route && settings ? await checkTls(base, route, settings.resolved, reachable, timeoutMs, ctx.env, checks) : false;
  if (!(base && route && settings)) checks.skip('TLS', noRoute);

  const tokenOk = settings ? checkToken(ctx, settings, checks) : false;
  if (!settings) checks.skip('token', 'the settings could not be read');

  const answer = tokenOk && secureOk ? await checkTokenAccepted(ctx, checks) : undefined;
  if (!(tokenOk && secureOk)) checks.skip('token accepted', tokenOk ? 'the service cannot be reached' : 'needs a token');

  if (answer) checkClock(answer, checks);
  else checks.skip('clock', 'needs an answer from the service');

  const failed = checks.results.filter((r) => r.status === 'fail');
  const skipped = checks.results.filter((r) => r.status === 'skip');
  if (format === 'json') {
    ctx.term.out(ctx.term.redact(JSON.stringify({ ok: failed.length === 0, checks: checks.results })) + '\n');
  }
  if (failed.length === 0) {
    ctx.term.info(`${paint.green('✔')} all checks passed`);
    return;
  }
  const message =
    `doctor: ${failed.length} check${failed.length === 1 ? '' : 's'} failed (first: ${failed[0]!.name})` +
    (skipped.length ? `, ${skipped.length} skipped` : '');
  throw errorForExitCode(checks.firstFailureCode ?? 1, message);
}

function formatCheck(result: CheckResult): string {
  const colour = { pass: paint.green, fail: paint.red, info: paint.blue, skip: paint.dim }[result.status];
  const name = `${result.name}:`.padEnd(NAME_WIDTH);
  const detail = result.status === 'skip' ? paint.dim(result.detail) : result.detail;
  let line = `${colour(SYMBOLS[result.status])} ${name} ${detail}\n`;
  if (result.hint) line += `  ${' '.repeat(NAME_WIDTH)} ${paint.dim(`hint: ${result.hint}`)}\n`;
  return line;
}

/** The failure of doctor as the error class of its exit code, so that cli.ts prints it and exits with it. */
function errorForExitCode(code: number, message: string): ScpctlError {
  const classes: Record<number, new (message: string) => ScpctlError> = {
    2: UsageError,
    3: AuthError,
    4: NotFoundError,
    5: PendingError,
    6: NetworkError,
    7: ResponseError,
  };
  return new (classes[code] ?? ApiError)(message);
}

// ---- config file and settings ----

interface SettingsState {
  resolved: ResolvedSettings;
  /** Reading the token (file) failed; everything else resolved. */
  tokenError?: unknown;
}

function checkConfigAndSettings(ctx: CommandContext, checks: Checks): SettingsState | undefined {
  const path = configPath(ctx.env);
  let mode: number | undefined;
  try {
    mode = statSync(path).mode & 0o777;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') checks.info('config file', `none yet (${path}); settings come from flags and the environment`);
    else checks.fail('config file', `cannot read ${path} (${code ?? 'error'})`, 2);
  }
  if (mode !== undefined) {
    try {
      readConfig(path);
      const modeText = mode.toString(8).padStart(4, '0');
      if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
        checks.fail('config file', `${path} can be read by others (mode ${modeText}); it may hold a token`, 2, `chmod 600 ${path}`);
      } else checks.pass('config file', `${path} (mode ${modeText})`);
    } catch (error) {
      checks.fail('config file', messageOf(error), 2, hintOf(error));
      return undefined;
    }
  }
  try {
    return { resolved: ctx.settings() };
  } catch (error) {
    // Was it only the token file? Then the rest can still be checked, and the token check says what is wrong.
    try {
      const resolved = resolveSettings(ctx.options, ctx.env, readConfig(path), () => '');
      return { resolved: { ...resolved, token: undefined }, tokenError: error };
    } catch {
      checks.fail('settings', messageOf(error), exitCodeOf(error), hintOf(error));
      return undefined;
    }
  }
}

function checkBaseUrl(settings: ResolvedSettings, checks: Checks): URL | undefined {
  const setting = settings.baseUrl;
  if (!setting) {
    checks.fail('base URL', 'not set', 2, 'Pass --base-url URL, set SCPCTL_BASE_URL, or run: scpctl login --base-url URL');
    return undefined;
  }
  try {
    const url = normalizeBaseUrl(setting.value, setting.source);
    checks.pass('base URL', `${displayUrl(url)} (from ${setting.source}${settings.context.kind === 'default' ? '' : `, context ${settings.context.value}`})`);
    return url;
  } catch (error) {
    checks.fail('base URL', messageOf(error), 2, hintOf(error));
    return undefined;
  }
}

// ---- proxy ----

function checkProxy(base: URL, env: NodeJS.ProcessEnv, checks: Checks): Route | undefined {
  const direct: Route = { host: unbracket(base.hostname), port: portOf(base) };
  const choice = proxyVariableFor(base, env);
  const noProxy = noProxyVariable(env);
  if (!choice) {
    checks.info('proxy', `none (${base.protocol === 'https:' ? 'HTTPS_PROXY and HTTP_PROXY are' : 'HTTP_PROXY is'} not set)`);
    return direct;
  }
  const shown = `${choice.variable}=${maskUrlCredentials(choice.value)}`;
  const exempt = noProxy ? noProxyMatch(base, noProxy.value) : undefined;
  if (exempt !== undefined) {
    checks.info('proxy', `${shown} is set, but ${noProxy!.variable} entry "${exempt}" exempts ${base.hostname}: connecting directly`);
    return direct;
  }
  let proxy: URL;
  try {
    proxy = new URL(choice.value);
    if (!['http:', 'https:', 'socks5:', 'socks:'].includes(proxy.protocol) || !proxy.hostname) throw new Error('scheme');
  } catch {
    checks.fail('proxy', `${choice.variable} is not a proxy URL (${maskUrlCredentials(choice.value)})`, 2,
      `Set it as http://HOST:PORT, or unset it; or add ${base.hostname} to NO_PROXY.`);
    return undefined;
  }
  const unmatched = noProxy?.value ? `; ${noProxy.variable} (${noProxy.value}) does not match ${base.hostname}` : '';
  if (base.protocol === 'http:') {
    // As every command does: plain http is for loopback only, and a proxy would carry the token off the machine.
    checks.fail('proxy', `through ${maskUrlCredentials(choice.value)} (from ${choice.variable})${unmatched}: ` +
      'scpctl refuses to send the token in clear text through a proxy', 2,
      `Add ${base.hostname} to NO_PROXY, or use an https:// base URL.`);
    return undefined;
  }
  checks.info('proxy', `through ${maskUrlCredentials(choice.value)} (from ${choice.variable})${unmatched}`);
  return { proxy, host: unbracket(proxy.hostname), port: portOf(proxy) };
}

// ---- DNS and TCP ----

async function checkReachable(route: Route, timeoutMs: number, checks: Checks): Promise<boolean> {
  const what = route.proxy ? `the proxy ${route.host}` : route.host;
  const started = Date.now();
  if (isIP(route.host)) checks.pass('DNS', `${what} is an IP address: nothing to resolve`);
  else {
    try {
      const addresses = await withDeadline(lookup(route.host, { all: true }), timeoutMs, 'ETIMEOUT');
      const list = [...new Set(addresses.map((a) => a.address))];
      checks.pass('DNS', `${what} resolves to ${list.slice(0, 4).join(', ')}${list.length > 4 ? ', …' : ''} (${Date.now() - started} ms)`);
    } catch (error) {
      const code = codeOf(error);
      checks.fail('DNS', `cannot resolve ${what} (${code})`, 6,
        route.proxy ? 'Check the proxy variable and your DNS settings.' : 'Check the host name in the base URL, and your DNS or proxy settings.');
      checks.skip('TCP', 'DNS failed');
      return false;
    }
  }
  const tcpStarted = Date.now();
  try {
    const socket = await connectTcp(route.host, route.port, timeoutMs);
    const address = socket.remoteAddress;
    socket.destroy();
    const via = address && address !== route.host ? ` (${address})` : '';
    checks.pass('TCP', `connected to ${what}:${route.port}${via} in ${Date.now() - tcpStarted} ms`);
    return true;
  } catch (error) {
    const code = codeOf(error);
    const why = code === 'ECONNREFUSED' ? 'refused' : code === 'ETIMEDOUT' ? `no answer within ${timeoutMs / 1000} s` : `failed (${code})`;
    checks.fail('TCP', `connection to ${what}:${route.port} ${why}`, 6,
      route.proxy ? 'Is the proxy up, and its port right? Or exempt the host with NO_PROXY.' : 'Is the service up, and the port in the base URL right? A firewall may need a proxy.');
    return false;
  }
}

// ---- TLS ----

async function checkTls(
  base: URL,
  route: Route,
  settings: ResolvedSettings,
  reachable: boolean,
  timeoutMs: number,
  env: NodeJS.ProcessEnv,
  checks: Checks,
): Promise<boolean> {
  if (base.protocol !== 'https:') {
    checks.info('TLS', `not used: plain http:// to the loopback host ${base.hostname}`);
    return reachable;
  }
  let extraCa: string | undefined;
  if (settings.caCert) {
    const { value: path, source } = settings.caCert;
    try {
      extraCa = readFileSync(path, 'utf8');
      const count = extraCa.split('-----BEGIN CERTIFICATE-----').length - 1;
      if (count === 0) throw Object.assign(new Error('no PEM certificate'), { code: 'NOPEM' });
      checks.pass('CA certificates', `${count} from ${path} (${source}), besides the system roots`);
    } catch (error) {
      const why = codeOf(error) === 'NOPEM' ? 'holds no PEM certificate' : `cannot be read (${codeOf(error)})`;
      checks.fail('CA certificates', `${path} (${source}) ${why}`, 2, 'Point --ca-cert (or SCPCTL_CA_CERT, or the caCert key) at a PEM file.');
      checks.skip('TLS', 'the CA file is unusable');
      return false;
    }
  } else {
    const extra = env.NODE_EXTRA_CA_CERTS ? ` and NODE_EXTRA_CA_CERTS (${env.NODE_EXTRA_CA_CERTS})` : '';
    checks.info('CA certificates', `the system roots${extra}; --ca-cert adds a private authority`);
  }
  if (!reachable) {
    checks.skip('TLS', 'no TCP connection');
    return false;
  }
  if (route.proxy && route.proxy.protocol.startsWith('socks')) {
    checks.info('TLS', 'not checked through a SOCKS proxy; the token check below still uses it');
    return true;
  }
  const host = unbracket(base.hostname);
  try {
    const { trustedRoots } = await import('../api/transport.js');
    const ca = extraCa ? await trustedRoots([extraCa]) : undefined;
    const socket = await handshake(base, route, ca, timeoutMs);
    const protocol = socket.getProtocol() ?? 'TLS';
    const cert = socket.getPeerCertificate();
    const authorized = socket.authorized;
    const failure = socket.authorizationError ? String(socket.authorizationError) : '';
    socket.destroy();
    const about = describeCertificate(cert);
    if (authorized) {
      checks.pass('TLS', `${protocol}${route.proxy ? ' (through the proxy)' : ''}, certificate ${about}`);
      return true;
    }
    checks.fail('TLS', `the certificate of ${host} is not trusted (${failure}): ${about}`, 6, tlsHint(failure));
    return false;
  } catch (error) {
    checks.fail('TLS', `handshake with ${host} failed: ${messageOf(error)}`, 6,
      route.proxy ? 'The proxy may refuse CONNECT to this host, or intercept TLS: see its policy.' : undefined);
    return false;
  }
}

function tlsHint(code: string): string {
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'The certificate does not name this host: check the host name in the base URL.';
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return 'Check this machine\'s clock; else the service must renew its certificate.';
  return 'If the service (or a TLS-inspecting proxy) uses a private certificate authority, pass its PEM file with --ca-cert FILE (or SCPCTL_CA_CERT).';
}

// ---- token and clock ----

function checkToken(ctx: CommandContext, settings: SettingsState, checks: Checks): boolean {
  if (settings.tokenError !== undefined) {
    checks.fail('token', messageOf(settings.tokenError), exitCodeOf(settings.tokenError), hintOf(settings.tokenError));
    return false;
  }
  const token = settings.resolved.token;
  if (!token) {
    checks.fail('token', 'none configured', 3, 'Set SCPCTL_TOKEN, pass --token-file FILE, or run: scpctl login');
    return false;
  }
  const file = token.source === '--token-file' ? ` ${ctx.options.tokenFile}` : token.source === 'SCPCTL_TOKEN_FILE' ? ` (${ctx.env.SCPCTL_TOKEN_FILE})` : '';
  checks.pass('token', `${maskToken(token.value)} from ${token.source}${file}`);
  return true;
}

interface Answer {
  headers: HttpResponse['headers'];
  /** Local time when the answer arrived. */
  receivedAt: number;
}

/** One minimal report request (as `login` makes): accepted, or why not. */
async function checkTokenAccepted(ctx: CommandContext, checks: Checks): Promise<Answer | undefined> {
  let answer: Answer | undefined;
  let status = 0;
  const started = Date.now();
  try {
    const client = await ctx.client();
    await client.report([['timeperiod', '3600'], ['limit', '1']], (response) => {
      answer = { headers: response.headers, receivedAt: Date.now() };
      status = response.status;
    });
    checks.pass('token accepted', `a report request (timeperiod=3600, limit=1) was answered HTTP ${status} in ${Date.now() - started} ms`);
  } catch (error) {
    checks.fail('token accepted', messageOf(error), exitCodeOf(error), hintOf(error));
  }
  return answer;
}

function checkClock(answer: Answer, checks: Checks): void {
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

// ---- small helpers ----

function codeOf(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e?.code ?? e?.message ?? String(error);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}

function hintOf(error: unknown): string | undefined {
  return error instanceof ScpctlError ? error.hint : undefined;
}
