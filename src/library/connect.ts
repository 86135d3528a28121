// connect(): the tenant a program speaks to (contract section 14). Without `baseUrl` it resolves as the CLI
// does (section 2: the environment, the token file, the config store, the context) and this is the only
// place the library reads the environment or the store; with `baseUrl` it reads nothing but the token file
// it is given. Either way it ends in a Session (session.ts) every call of the returned Scpctl shares.
import { ScpClient, type TokenOrigin } from '../api/client.js';
import type { TransportOptions } from '../api/transport.js';
import { RateLimiter, rateFromEnv } from '../api/rate-limit.js';
import { AuthError } from '../errors.js';
import { systemClock } from '../core/clock.js';
import type { HistoryStore } from '../history/store.js';
import { DEFAULT_CONTEXT, configPath, readConfig } from '../settings/config-file.js';
import { neutralizeEnvTraps } from '../settings/env-traps.js';
import {
  DEFAULT_HISTORY_KEEP, DEFAULT_RETRIES, DEFAULT_TIMEOUT_SECONDS,
  checkContextName, fetchSelectedToken, parseHistoryKeep, parseRetries, parseTimeout, resolveSettings,
} from '../settings/resolve.js';
import { readCaFile, readTokenFile } from '../settings/secret-files.js';
import { version } from '../version.js';
import { checkedBaseUrl, checkedToken, checkedUrl, refuseUnknownContext, tokenOriginOf, visibleTokens } from './policy.js';
import type { Session } from './session.js';
import type { ConnectOptions } from './public.js';

/** Everything resolved: the tenant, the transport's settings, the history's place, every token to mask. */
export interface Resolved {
  baseUrl: URL;
  token: string;
  tokenOrigin?: TokenOrigin;
  context: string;
  timeoutMs: number;
  retries: number;
  extraCa?: string[];
  historyKeep: number;
  /** The folder of kept versions; undefined: as the environment resolved from says (history/store.ts's stateDir). */
  stateDir?: string;
  env: NodeJS.ProcessEnv;
  tokens: string[];
}

/** The environment a connection resolves from: the one given, else the process's (a copy either way). */
export function environmentOf(options: Pick<ConnectOptions, 'env'>): NodeJS.ProcessEnv {
  return { ...(options.env ?? process.env) };
}

/** The CLI's resolution (section 2 and 16), reading the environment, the config store and the context's tokenCommand or OS credential store. */
export async function resolveFromEnvironment(options: ConnectOptions): Promise<Resolved> {
  const env = environmentOf(options);
  for (const warning of neutralizeEnvTraps(env)) options.onWarning?.(warning);
  const config = readConfig(configPath(env));
  const text = (value: number | undefined): string | undefined => (value === undefined ? undefined : String(value));
  const { tokenFile, context, caCert } = options;
  const flags = { tokenFile, context, caCert, timeout: text(options.timeout), retries: text(options.retries) };
  // Each token file read once: the settings and the mask both ask for it, and a pipe can be read only once.
  const read = new Map<string, string>();
  const readOnce = (path: string, origin: string): string => read.get(path) ?? read.set(path, readTokenFile(path, origin)).get(path)!;
  const visible = visibleTokens(flags, env, readOnce);
  const fetched = await fetchSelectedToken(flags, config, { env, known: visible, signal: options.signal });
  const settings = resolveSettings(flags, env, config, readOnce, fetched);
  refuseUnknownContext(settings.context, config);
  const baseUrl = checkedBaseUrl(settings, env);
  const token = checkedToken(settings);
  return {
    baseUrl,
    token,
    tokenOrigin: tokenOriginOf(settings),
    context: settings.context.value,
    timeoutMs: settings.timeout.value * 1000,
    retries: settings.retries.value,
    extraCa: settings.caCert ? [readCaFile(settings.caCert.value, settings.caCert.source)] : undefined,
    historyKeep: options.historyKeep === undefined ? settings.historyKeep.value : parseHistoryKeep(String(options.historyKeep), 'historyKeep'),
    stateDir: options.stateDir,
    env,
    tokens: [...new Set([token, ...(fetched?.printed ?? []), ...visible])],
  };
}

/** The tenant given outright: nothing read but the token file named. */
export function resolveGiven(options: ConnectOptions & { baseUrl: string }): Resolved {
  const env: NodeJS.ProcessEnv = { ...(options.env ?? {}) };
  neutralizeEnvTraps(env);
  const baseUrl = checkedUrl(String(options.baseUrl), 'baseUrl', env);
  const token = options.token?.trim() ?? (options.tokenFile === undefined ? undefined : readTokenFile(options.tokenFile, `tokenFile ${options.tokenFile}`));
  if (!token) {
    throw new AuthError(options.token === undefined && options.tokenFile === undefined ? 'no token given: pass token or tokenFile with baseUrl' : 'the token given is empty');
  }
  return {
    baseUrl,
    token,
    tokenOrigin: options.tokenFile === undefined ? undefined : { name: `tokenFile ${options.tokenFile}`, hint: `Put the current token in ${options.tokenFile}.` },
    context: options.context === undefined ? DEFAULT_CONTEXT : checkContextName(options.context),
    timeoutMs: parseTimeout(String(options.timeout ?? DEFAULT_TIMEOUT_SECONDS), 'timeout') * 1000,
    retries: parseRetries(String(options.retries ?? DEFAULT_RETRIES), 'retries'),
    extraCa: options.caCert === undefined ? undefined : [readCaFile(options.caCert, 'caCert')],
    historyKeep: parseHistoryKeep(String(options.historyKeep ?? DEFAULT_HISTORY_KEEP), 'historyKeep'),
    stateDir: options.stateDir,
    env,
    tokens: [token],
  };
}

/** The one way a client is made, for the library and the CLI alike; `alsoMasked`: the run's other tokens, masked with it. */
export function makeClient(tenant: { baseUrl: URL; token: string; tokenOrigin?: TokenOrigin; alsoMasked?: readonly string[] }, transport: TransportOptions): ScpClient {
  return new ScpClient({ ...tenant, userAgent: `scpctl/${version()}`, transport });
}

export function openSession(resolved: Resolved, options: ConnectOptions): Session {
  const clientFor = (limiter?: RateLimiter): ScpClient =>
    makeClient({ ...resolved, alsoMasked: resolved.tokens }, {
      env: resolved.env,
      timeoutMs: resolved.timeoutMs,
      retries: resolved.retries,
      extraCa: resolved.extraCa,
      signal: options.signal,
      limiter,
      clock: systemClock,
    });
  let plain: ScpClient | undefined;
  let paced: ScpClient | undefined;
  let store: HistoryStore | undefined;
  return {
    client: async () => (plain ??= clientFor()),
    pacedClient: async () => (paced ??= clientFor(new RateLimiter(rateFromEnv(resolved.env), systemClock))),
    tokens: () => resolved.tokens,
    // Loaded at the first change that keeps a version: node:crypto and node:fs/promises are start-up a view need not pay.
    history: async () => {
      const { HistoryStore, stateDir } = await import('../history/store.js');
      return (store ??= new HistoryStore(resolved.stateDir ?? stateDir(resolved.env), resolved.context, resolved.historyKeep, resolved.baseUrl.href, resolved.tokens));
    },
    warn: (message) => options.onWarning?.(message),
    clock: systemClock,
    signal: options.signal,
  };
}
