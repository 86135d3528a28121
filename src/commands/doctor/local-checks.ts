// Doctor's checks that need no network: the config file and settings, the base URL, the proxy variables,
// the token and where it lives. Each reads what earlier checks found from the state and adds what it found.
import { statSync } from 'node:fs';
import { noProxyMatch, noProxyVariable, proxyVariableFor } from '../../api/proxy-env.js';
import { displayUrl, maskToken, maskUrlCredentials } from '../../core/secrets.js';
import type { Route } from '../../api/probes.js';
import { portOf, unbracket } from '../../core/urls.js';
import { configPath, permissionWarning, readConfig, scpctlFor } from '../../settings/config-file.js';
import { normalizeBaseUrl } from '../../settings/base-url.js';
import { checkedToken } from '../../library/policy.js';
import type { Checks, DoctorState } from './state.js';
import { describeTokenSource } from '../../settings/token-source.js';

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
    } catch (error) {
      checks.failWith('config file', error);
      return;
    }
    const readable = permissionWarning(path);
    if (readable) checks.fail('config file', readable, 2, `chmod 600 ${path}`);
    else checks.pass('config file', `${path} (mode ${mode.toString(8).padStart(4, '0')})`);
  }
  try {
    // A token that cannot be had waits in the settings (the token check says why): the rest can still be checked.
    state.settings = ctx.settings();
    state.timeoutMs = state.settings.timeout.value * 1000;
  } catch (error) {
    checks.failWith('settings', error);
  }
}

export function checkBaseUrl(state: DoctorState, checks: Checks): void {
  const settings = state.settings!;
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
    checks.failWith('base URL', error);
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
  const proxy = URL.canParse(choice.value) ? new URL(choice.value) : undefined;
  if (!proxy || !['http:', 'https:', 'socks5:', 'socks:'].includes(proxy.protocol) || !proxy.hostname) {
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
  const token = state.settings!.token;
  if (!token) {
    // The words every command that needs the token says (an unreadable file, an empty variable, or none at all).
    try {
      checkedToken(state.settings!);
    } catch (error) {
      checks.failWith('token', error);
    }
    return;
  }
  checks.pass('token', `${maskToken(token.value)} from ${describeTokenSource(token.origin)}`);
}

/**
 * Where the token in use lives, and whether that place answers (contract section 16): the OS credential store
 * is probed (a round trip of an entry that holds no secret), a file or a tokenCommand was read when the
 * settings were, and a variable is only named.
 */
export async function checkTokenStore(state: DoctorState, checks: Checks): Promise<void> {
  const NAME = 'token store';
  const { ctx } = state;
  const origin = state.settings!.token?.origin;
  const context = state.settings!.context.value;
  const inKeyring = origin?.kind === 'keyring' || (origin === undefined && readConfig(configPath(ctx.env)).contexts[context]?.tokenStore === 'keyring');
  if (inKeyring) {
    const { keyringAccount, openCredentialStore, unreachedStoreHint, KEYRING_SERVICE } = await import('../../settings/credential-store.js');
    try {
      (await openCredentialStore(ctx.env)).probe();
      checks.pass(NAME, `the OS credential store answers (service ${KEYRING_SERVICE}, account ${keyringAccount(context, ctx.env)})`);
    } catch (error) {
      checks.fail(NAME, `the token of context ${context} is in the OS credential store, which does not answer here: ${(error as Error).message}`, 3,
        unreachedStoreHint(ctx.env, `store the token in the file: ${scpctlFor(context)} login --token-store file`));
    }
    return;
  }
  if (!origin) return; // no token: the token line said so, and there is no place to name
  if (origin.kind === 'store') checks.pass(NAME, `the config file ${configPath(ctx.env)} (context ${context})`);
  else if (origin.kind === 'command') checks.pass(NAME, `${describeTokenSource(origin)} printed it`);
  else checks.info(NAME, describeTokenSource(origin));
}
