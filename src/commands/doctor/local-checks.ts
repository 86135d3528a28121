// Doctor's checks that need no network: the config file and settings, the base URL, the proxy variables
// and the token. Each reads what earlier checks found from the state and adds what it found.
import { statSync } from 'node:fs';
import { exitCodeOf, messageOf } from '../../errors.js';
import { noProxyMatch, noProxyVariable, proxyVariableFor } from '../../api/proxy-env.js';
import { displayUrl, maskToken, maskUrlCredentials } from '../../core/secrets.js';
import type { Route } from '../../api/probes.js';
import { portOf, unbracket } from '../../core/urls.js';
import { configPath, readConfig } from '../../settings/config-file.js';
import { resolveSettings } from '../../settings/resolve.js';
import { normalizeBaseUrl } from '../../settings/base-url.js';
import { hintOf, type Checks } from './results.js';
import type { DoctorState } from './state.js';
import { describeTokenSource } from '../../settings/token-source.js';

/** The config store, then the settings resolved from flags, environment and store. */
export function checkConfigAndSettings(state: DoctorState, checks: Checks): void {
  const { ctx } = state;
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
      return;
    }
  }
  try {
    state.settings = { resolved: ctx.settings() };
  } catch (error) {
    // Was it only the token file? Then the rest can still be checked, and the token check says what is wrong.
    try {
      const resolved = resolveSettings(ctx.options, ctx.env, readConfig(path), () => '');
      state.settings = { resolved: { ...resolved, token: undefined }, tokenError: error };
    } catch {
      checks.fail('settings', messageOf(error), exitCodeOf(error), hintOf(error));
    }
  }
  if (state.settings) state.timeoutMs = state.settings.resolved.timeout.value * 1000;
}

export function checkBaseUrl(state: DoctorState, checks: Checks): void {
  const settings = state.settings!.resolved;
  const setting = settings.baseUrl;
  if (!setting) {
    checks.fail('base URL', 'not set', 2, 'Pass --base-url URL, set SCPCTL_BASE_URL, or run: scpctl login --base-url URL');
    return;
  }
  try {
    const url = normalizeBaseUrl(setting.value, setting.source);
    // The context is named once: a base URL from the config store names it already.
    const named = settings.context.kind === 'default' || setting.source.includes(`(context ${settings.context.value})`);
    checks.pass('base URL', `${displayUrl(url)} (from ${setting.source}${named ? '' : `, context ${settings.context.value}`})`);
    state.base = url;
  } catch (error) {
    checks.fail('base URL', messageOf(error), 2, hintOf(error));
  }
}

/** Which proxy variable routes the base URL, if any: the route DNS, TCP and TLS then take. */
export function checkProxy(state: DoctorState, checks: Checks): void {
  const base = state.base!;
  const env = state.ctx.env;
  const direct: Route = { host: unbracket(base.hostname), port: portOf(base) };
  const choice = proxyVariableFor(base, env);
  const noProxy = noProxyVariable(env);
  if (!choice) {
    checks.info('proxy', `none (${base.protocol === 'https:' ? 'HTTPS_PROXY and HTTP_PROXY are' : 'HTTP_PROXY is'} not set)`);
    state.route = direct;
    return;
  }
  const shown = `${choice.variable}=${maskUrlCredentials(choice.value)}`;
  const exempt = noProxy ? noProxyMatch(base, noProxy.value) : undefined;
  if (exempt !== undefined) {
    checks.info('proxy', `${shown} is set, but ${noProxy!.variable} entry "${exempt}" exempts ${base.hostname}: connecting directly`);
    state.route = direct;
    return;
  }
  let proxy: URL;
  try {
    proxy = new URL(choice.value);
    if (!['http:', 'https:', 'socks5:', 'socks:'].includes(proxy.protocol) || !proxy.hostname) throw new Error('scheme');
  } catch {
    checks.fail('proxy', `${choice.variable} is not a proxy URL (${maskUrlCredentials(choice.value)})`, 2,
      `Set it as http://HOST:PORT, or unset it; or add ${base.hostname} to NO_PROXY.`);
    return;
  }
  const unmatched = noProxy?.value ? `; ${noProxy.variable} (${noProxy.value}) does not match ${base.hostname}` : '';
  if (base.protocol === 'http:') {
    // As every command does: plain http is for loopback only, and a proxy would carry the token off the machine.
    checks.fail('proxy', `through ${maskUrlCredentials(choice.value)} (from ${choice.variable})${unmatched}: ` +
      'scpctl refuses to send the token in clear text through a proxy', 2,
      `Add ${base.hostname} to NO_PROXY, or use an https:// base URL.`);
    return;
  }
  checks.info('proxy', `through ${maskUrlCredentials(choice.value)} (from ${choice.variable})${unmatched}`);
  state.route = { proxy, host: unbracket(proxy.hostname), port: portOf(proxy) };
}

export function checkToken(state: DoctorState, checks: Checks): void {
  const { ctx } = state;
  const settings = state.settings!;
  if (settings.tokenError !== undefined) {
    checks.fail('token', messageOf(settings.tokenError), exitCodeOf(settings.tokenError), hintOf(settings.tokenError));
    return;
  }
  const token = settings.resolved.token;
  if (!token) {
    // The words every command that needs the token says (an empty variable, or none at all).
    try {
      ctx.token();
    } catch (error) {
      checks.fail('token', messageOf(error), exitCodeOf(error), hintOf(error));
    }
    return;
  }
  checks.pass('token', `${maskToken(token.value)} from ${describeTokenSource(token.origin)}`);
  state.token = true;
}
