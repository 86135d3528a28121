// The rules that turn resolved settings into an address and a token, for the library's connect() and the
// CLI's CommandContext alike: a base URL is required and a plain-http one never crosses a proxy, a token is
// required, a context chosen by name must exist.
import { AuthError, UsageError } from '../errors.js';
import type { TokenOrigin } from '../api/client.js';
import { proxyInEffect } from '../api/proxy-env.js';
import { normalizeBaseUrl } from '../settings/base-url.js';
import { statSync } from 'node:fs';
import { DEFAULT_CONTEXT, configPath, readConfig, scpctlFor, type ConfigData } from '../settings/config-file.js';
import { tokenFilePath } from '../settings/secret-files.js';
import type { ResolvedSettings } from '../settings/resolve.js';
import { describeTokenSource, rejectedTokenHint } from '../settings/token-source.js';

/** The base URL in effect, normalised; refused when missing, or plain http through a proxy. */
export function checkedBaseUrl(settings: ResolvedSettings, env: NodeJS.ProcessEnv): URL {
  const { baseUrl, context } = settings;
  if (baseUrl) return checkedUrl(baseUrl.value, baseUrl.source, env);
  throw new UsageError(`no base URL configured${context.value === DEFAULT_CONTEXT ? '' : ` in context ${context.value}`}`, {
    hint: `Pass --base-url URL, set SCPCTL_BASE_URL, or run: ${scpctlFor(context.value)} login --base-url URL`,
  });
}

/** A base URL as given, normalised; plain http is allowed only because loopback traffic stays on this machine, and through a proxy it would not. */
export function checkedUrl(value: string, origin: string, env: NodeJS.ProcessEnv): URL {
  const url = normalizeBaseUrl(value, origin);
  const proxy = url.protocol === 'http:' ? proxyInEffect(url, env) : undefined;
  if (proxy) {
    throw new UsageError(`refusing to send the token in clear text to ${url.host} through the proxy in ${proxy.variable}`, {
      hint: `Add ${url.hostname} to NO_PROXY, or use an https:// base URL.`,
    });
  }
  return url;
}

/** The token in effect; none (or why it could not be had: an empty variable, say) is an authentication error (exit 3). */
export function checkedToken(settings: ResolvedSettings): string {
  if (settings.token) return settings.token.value;
  if (settings.tokenError) throw settings.tokenError;
  const store = describeTokenSource({ kind: 'store', context: settings.context.value });
  throw new AuthError(`no token configured (no --token-file, SCPCTL_TOKEN or SCPCTL_TOKEN_FILE, and none in ${store})`, {
    hint: `Set SCPCTL_TOKEN, pass --token-file FILE, or run: ${scpctlFor(settings.context.value)} login`,
  });
}

/** Where the token in use came from, as a rejection of it names it, and the hint that fits that source. */
export function tokenOriginOf(settings: ResolvedSettings): TokenOrigin | undefined {
  const origin = settings.token?.origin;
  return origin && { name: describeTokenSource(origin), hint: rejectedTokenHint(origin, scpctlFor(settings.context.value)) };
}

/** A context chosen by name (flag or environment) that the store does not hold is a usage error listing those it does. */
export function refuseUnknownContext(context: ResolvedSettings['context'], config: ConfigData): void {
  if (context.kind === 'default' || context.value === DEFAULT_CONTEXT || Object.hasOwn(config.contexts, context.value)) return;
  const names = Object.keys(config.contexts).sort();
  const known = names.length === 0 ? 'there are no contexts yet' : `the contexts are ${names.join(', ')}`;
  throw new UsageError(`no context named "${context.value}" (from ${context.source}); ${known}`, {
    hint: `\`scpctl --context ${context.value} login\` or \`scpctl --context ${context.value} config set base-url URL\` creates it.`,
  });
}

/**
 * Every token a run can see, for the mask, before any input is read: the one in use (SCPCTL_TOKEN, the token
 * file of the flag or the environment), a token file mounted but not in use (SCPCTL_TOKEN wins; only a
 * regular file is read for it, as a pipe can be read once and would block), and every context's in the config
 * store. A list file that is really a token file must not print the token in a `FILE:LINE` error, nor another
 * context's. What cannot be read here is left for the settings to report when the token is needed.
 */
export function visibleTokens(flags: { tokenFile?: string }, env: NodeJS.ProcessEnv, readToken: (path: string, origin: string) => string): string[] {
  const path = tokenFilePath(flags, env);
  const unused = env.SCPCTL_TOKEN_FILE;
  const candidates: Array<() => Array<string | undefined>> = [
    () => [env.SCPCTL_TOKEN?.trim()],
    () => [path === undefined ? undefined : readToken(path, 'token file')],
    () => [unused && statSync(unused).isFile() ? readToken(unused, 'SCPCTL_TOKEN_FILE') : undefined],
    () => Object.values(readConfig(configPath(env)).contexts).map((values) => values.token?.trim()),
  ];
  return candidates.flatMap((candidate) => {
    try {
      return candidate().filter((token): token is string => Boolean(token));
    } catch {
      return []; // unreadable now: the settings say why when the token is needed
    }
  });
}
