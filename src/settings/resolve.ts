// Which settings are in effect, and where each came from: flag, then environment, then the config store
// of the selected context, then the default (contract section 2). Reading token and CA files is
// secret-files.ts's; checking a base URL is base-url.ts's.
//
// A context's own token when it is not in the config file (contract section 16), from its tokenCommand or
// the OS credential store (tokenStore "keyring"), is fetched once before the settings are resolved
// (resolveSettings is synchronous; a command's output and a store's answer are not), and only when no flag
// or variable stands before the context: the CLI (CommandContext.prepareToken) and the library's connect()
// both fetch it through fetchSelectedToken.
import { AuthError, ScpctlError, UsageError } from '../errors.js';
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { currentUid, notOwnReason } from '../files/owned.js';
import { optionalInteger } from '../core/whole-number.js';
import { readTokenFile } from './secret-files.js';
import { DEFAULT_CONTEXT, configPath, readConfig, scpctlFor, type ConfigData, type ConfigKey } from './config-file.js';
import { givenTokenSource, type TokenSource } from './token-source.js';

/** A context's token as fetched from its tokenCommand or the OS credential store (fetchSelectedToken), or why it could not be had. */
export type ContextToken = { token: SourcedToken; printed: readonly string[] } | { error: ScpctlError; printed: readonly string[] };

export interface SettingFlags {
  baseUrl?: string;
  tokenFile?: string;
  context?: string;
  timeout?: string;
  retries?: string;
  caCert?: string;
}

export type SourceKind = 'flag' | 'env' | 'config' | 'default';

export interface Sourced<T> {
  value: T;
  kind: SourceKind;
  /** `--base-url`, `SCPCTL_BASE_URL`, `config (context default)`, `default`. */
  source: string;
}

/** The token, and where it came from in words messages can use (settings/token-source.ts). */
export interface SourcedToken extends Sourced<string> {
  origin: TokenSource;
}

export interface ResolvedSettings {
  context: Sourced<string>;
  baseUrl?: Sourced<string>;
  token?: SourcedToken;
  timeout: Sourced<number>;
  retries: Sourced<number>;
  caCert?: Sourced<string>;
  /** How many versions of each list the history keeps (config key only). */
  historyKeep: Sourced<number>;
  /**
   * Why the token could not be had (its file unreadable, SCPCTL_TOKEN set but empty, the context's tokenCommand
   * or OS credential store failing): thrown when it is needed, so that a command, doctor or `config list` that
   * needs no token still runs. An empty variable (`SCPCTL_TOKEN=` from an unset CI secret) is an error, never a
   * fall-through to another source.
   */
  tokenError?: ScpctlError;
  /** The token file that could not be read: `config list` shows its path. */
  unreadTokenFile?: Sourced<string>;
}

/** Whether the context's token lives outside the config file (fetchSelectedToken fetches it). */
export function fetchesToken(values: { tokenCommand?: string; tokenStore?: string } | undefined): boolean {
  return values?.tokenCommand !== undefined || values?.tokenStore === 'keyring';
}

export const DEFAULT_TIMEOUT_SECONDS = 30;
export const DEFAULT_HISTORY_KEEP = 50;
export const DEFAULT_RETRIES = 3;

type Candidate = [value: string | undefined, kind: SourceKind, source: string];

function firstOf(candidates: Candidate[]): Sourced<string> | undefined {
  for (const [value, kind, source] of candidates) {
    if (value === undefined) continue;
    // An empty flag is a mistake (`--base-url "$UNSET"`), not a request for the next source: in CI it
    // would quietly aim a `replace` at another tenant. Blank environment variables count as unset.
    if (kind === 'flag' && value.trim() === '') throw new UsageError(`${source}: the value is empty`);
    if (value.trim() !== '') return { value: value.trim(), kind, source };
  }
  return undefined;
}

const CONTEXT_NAME = /^[A-Za-z0-9._-]{1,64}$/;
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** Context names: letters, digits, `.`, `_`, `-`; never an object's own machinery. */
export function checkContextName(name: string, origin = 'context'): string {
  if (!CONTEXT_NAME.test(name) || RESERVED_NAMES.has(name)) {
    throw new UsageError(`${origin}: "${name}" is not a context name (1 to 64 letters, digits, ".", "_" or "-")`);
  }
  return name;
}

/**
 * The contexts the store holds (`login` and `config set` make one), for --contexts and connectAll to match.
 * A key that is no context name (a file edited by hand, holding a tab, an escape, a bidi control) would
 * label another tenant's lines, so it is refused here, shown escaped, before any context starts.
 */
export function storedContextNames(env: NodeJS.ProcessEnv): string[] {
  const path = configPath(env);
  const names = Object.keys(readConfig(path).contexts);
  for (const name of names) checkContextName(name, `the config file ${path} holds a context`);
  return names;
}

/** Only which context is selected: config commands need no more, so a broken stored value cannot lock them out. */
export function resolveContext(flags: Pick<SettingFlags, 'context'>, env: NodeJS.ProcessEnv, config: ConfigData): Sourced<string> {
  const context = firstOf([
    [flags.context, 'flag', '--context'],
    [env.SCPCTL_CONTEXT, 'env', 'SCPCTL_CONTEXT'],
    [config.currentContext, 'config', 'config (current context)'],
  ]) ?? { value: DEFAULT_CONTEXT, kind: 'default' as const, source: 'default' };
  checkContextName(context.value, context.source);
  return context;
}

/**
 * Resolves every setting without reading token files; `readSecretFile` does that for the token. A context
 * whose token is not in the config file (a tokenCommand, the OS credential store) has it fetched first
 * (fetchSelectedToken) and handed in as `fetched`.
 */
export function resolveSettings(
  flags: SettingFlags,
  env: NodeJS.ProcessEnv,
  config: ConfigData,
  readSecretFile: (path: string, origin: string) => string = readTokenFile,
  fetched?: ContextToken,
): ResolvedSettings {
  const context = resolveContext(flags, env, config);
  const stored = config.contexts[context.value] ?? {};
  const fromStore = (key: ConfigKey): Candidate => [stored[key], 'config', `config (context ${context.value})`];

  const baseUrl = firstOf([[flags.baseUrl, 'flag', '--base-url'], [env.SCPCTL_BASE_URL, 'env', 'SCPCTL_BASE_URL'], fromStore('baseUrl')]);
  const caCert = firstOf([[flags.caCert, 'flag', '--ca-cert'], [env.SCPCTL_CA_CERT, 'env', 'SCPCTL_CA_CERT'], fromStore('caCert')]);
  const timeout = firstOf([[flags.timeout, 'flag', '--timeout'], [env.SCPCTL_TIMEOUT, 'env', 'SCPCTL_TIMEOUT'], fromStore('timeout')]);

  return {
    context,
    baseUrl,
    ...resolveToken(flags, env, context.value, fromStore('token'), readSecretFile, fetched),
    caCert,
    timeout: parsed(timeout, parseTimeout, DEFAULT_TIMEOUT_SECONDS),
    retries: parsed(firstOf([[flags.retries, 'flag', '--retries'], fromStore('retries')]), parseRetries, DEFAULT_RETRIES),
    historyKeep: parsed(firstOf([fromStore('historyKeep')]), parseHistoryKeep, DEFAULT_HISTORY_KEEP),
  };
}

/** The token in the settings' precedence (contract section 2), or why it cannot be had. */
function resolveToken(
  flags: SettingFlags,
  env: NodeJS.ProcessEnv,
  context: string,
  stored: Candidate,
  readSecretFile: (path: string, origin: string) => string,
  fetched: ContextToken | undefined,
): Pick<ResolvedSettings, 'token' | 'tokenError' | 'unreadTokenFile'> {
  const given = givenTokenSource(flags, env);
  if (given?.kind === 'env') {
    const value = env.SCPCTL_TOKEN!.trim();
    if (value) return { token: { value, kind: 'env', source: 'SCPCTL_TOKEN', origin: given } };
    return {
      tokenError: new AuthError('SCPCTL_TOKEN is set but empty', {
        hint: 'Give SCPCTL_TOKEN the token (in CI: is the secret defined for this job?), or unset it to use another source.',
      }),
    };
  }
  if (given) {
    const [kind, source] = given.kind === 'flag-file' ? (['flag', '--token-file'] as const) : (['env', 'SCPCTL_TOKEN_FILE'] as const);
    try {
      return { token: { value: readSecretFile(given.path, source), kind, source, origin: given } };
    } catch (error) {
      if (!(error instanceof ScpctlError)) throw error;
      return { tokenError: error, unreadTokenFile: { value: given.path, kind, source } };
    }
  }
  if (fetched) return 'token' in fetched ? { token: fetched.token } : { tokenError: fetched.error };
  const found = firstOf([stored]);
  return found ? { token: { ...found, origin: { kind: 'store', context } } } : {};
}

function parsed(raw: Sourced<string> | undefined, parse: (value: string, origin: string) => number, fallback: number): Sourced<number> {
  return raw ? { ...raw, value: parse(raw.value, raw.source) } : { value: fallback, kind: 'default', source: 'default' };
}

/** 0 keeps no history at all; 10,000 versions of an 8 MiB list is already more than a disk wants. */
export function parseHistoryKeep(value: string, origin = 'historyKeep'): number {
  return optionalInteger(origin, value, 0, 10_000)!;
}

export function parseTimeout(value: string, origin = '--timeout'): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(seconds > 0) || seconds > 3600) {
    throw new UsageError(`${origin}: "${value}" is not a timeout in seconds (a number above 0, at most 3600)`);
  }
  return seconds;
}

export function parseRetries(value: string, origin = '--retries'): number {
  return optionalInteger(origin, value, 0, 10)!;
}

interface FetchOptions {
  env: NodeJS.ProcessEnv;
  /** Tokens already known (the tokenCommand's stderr is masked with them). */
  known?: readonly string[];
  signal?: AbortSignal;
}

/**
 * The selected context's token from its tokenCommand (first) or the OS credential store: undefined when a
 * flag or variable comes first, or the context keeps its token (if any) in the config file. Hand the result
 * to resolveSettings.
 */
export async function fetchSelectedToken(flags: SettingFlags, config: ConfigData, options: FetchOptions): Promise<ContextToken | undefined> {
  if (givenTokenSource(flags, options.env)) return undefined;
  const context = resolveContext(flags, options.env, config).value;
  const values = Object.hasOwn(config.contexts, context) ? config.contexts[context] : undefined;
  if (!fetchesToken(values)) return undefined;
  const printed: string[] = [];
  try {
    if (values!.tokenCommand !== undefined) {
      const { parseTokenCommand, runTokenCommand } = await import('./token-command.js');
      const argv = parseTokenCommand(values!.tokenCommand, `tokenCommand (context ${context})`);
      refuseWritableConfig(options.env, 'to run a tokenCommand from');
      const token = await runTokenCommand(argv, { env: options.env, context, known: options.known ?? [], signal: options.signal, printed });
      return { token: { value: token, kind: 'config', source: `tokenCommand (context ${context})`, origin: { kind: 'command', context, argv } }, printed };
    }
    // The store's token goes wherever the config's baseUrl says: a config others can write must not say it.
    refuseWritableConfig(options.env, `to read the token of context ${context} from the OS credential store for`);
    const { keyringAccount, openCredentialStore, StoreUnavailable, unreachedStoreHint } = await import('./credential-store.js');
    let stored: string | undefined;
    try {
      stored = (await openCredentialStore(options.env)).read(keyringAccount(context, options.env));
    } catch (error) {
      if (!(error instanceof StoreUnavailable)) throw error;
      throw new AuthError(`cannot read the token of context ${context} from the OS credential store: ${error.message}`, {
        hint: unreachedStoreHint(options.env, `store the token in the file here: ${scpctlFor(context)} login --token-store file`),
      });
    }
    const token = stored?.trim();
    if (!token) {
      throw new AuthError(`no token in the OS credential store (context ${context})`, { hint: `Store one: ${scpctlFor(context)} login` });
    }
    return { token: { value: token, kind: 'config', source: `OS credential store (context ${context})`, origin: { kind: 'keyring', context } }, printed };
  } catch (error) {
    if (error instanceof ScpctlError) return { error, printed };
    throw error;
  }
}

/**
 * A tokenCommand runs with the user's rights, and a token from the OS store is sent to the context's baseUrl:
 * a config file others could have written (group- or world-writable, or owned by someone else, or in such a
 * folder) does neither, as ssh refuses such a config.
 */
function refuseWritableConfig(env: NodeJS.ProcessEnv, what: string): void {
  if (process.platform === 'win32') return; // no POSIX modes: the folder's ACL decides there
  const path = configPath(env);
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return; // a context read from nowhere has no tokenCommand
  const uid = currentUid();
  if (notOwnReason(stats, uid) !== undefined) {
    throw new UsageError(`refusing ${what} ${path}: others can write that file`, { hint: `chmod 600 ${path} (and make it yours)` });
  }
  // Its folder too: whoever can write there can swap in a file of their own between its read and this check.
  const folder = dirname(path);
  if (notOwnReason(statSync(folder), uid, { root: true, sticky: true }) !== undefined) {
    throw new UsageError(`refusing ${what} ${path}: others can write its folder ${folder}`, { hint: `chmod 700 ${folder} (and make it yours)` });
  }
}
