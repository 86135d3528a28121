// Which settings are in effect, and where each came from: flag, then environment, then the config store
// of the selected context, then the default (contract section 2).
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { AuthError, UsageError } from '../errors.js';
import { decodeUtf8 } from '../core/utf8.js';
import { isLoopbackHost } from '../core/urls.js';
import { DEFAULT_CONTEXT, type ConfigData, type ConfigKey } from './config-file.js';

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

export interface ResolvedSettings {
  context: Sourced<string>;
  baseUrl?: Sourced<string>;
  token?: Sourced<string>;
  timeout: Sourced<number>;
  retries: Sourced<number>;
  caCert?: Sourced<string>;
  /** How many versions of each list the history keeps (config key only). */
  historyKeep: Sourced<number>;
  /** The token variable that is set but empty (`SCPCTL_TOKEN=` from an unset CI secret): an error, not a fall-through. */
  emptyTokenVariable?: string;
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

/** Resolves every setting without reading token files; `readSecretFile` does that for the token. */
export function resolveSettings(
  flags: SettingFlags,
  env: NodeJS.ProcessEnv,
  config: ConfigData,
  readSecretFile: (path: string, origin: string) => string = readTokenFile,
): ResolvedSettings {
  const context = resolveContext(flags, env, config);
  const stored = config.contexts[context.value] ?? {};
  const fromStore = (key: ConfigKey): Candidate => [stored[key], 'config', `config (context ${context.value})`];

  const baseUrl = firstOf([[flags.baseUrl, 'flag', '--base-url'], [env.SCPCTL_BASE_URL, 'env', 'SCPCTL_BASE_URL'], fromStore('baseUrl')]);
  const caCert = firstOf([[flags.caCert, 'flag', '--ca-cert'], [env.SCPCTL_CA_CERT, 'env', 'SCPCTL_CA_CERT'], fromStore('caCert')]);

  let token: Sourced<string> | undefined;
  let emptyTokenVariable: string | undefined;
  if (flags.tokenFile !== undefined) token = { value: readSecretFile(flags.tokenFile, '--token-file'), kind: 'flag', source: '--token-file' };
  else if (env.SCPCTL_TOKEN?.trim()) token = { value: env.SCPCTL_TOKEN.trim(), kind: 'env', source: 'SCPCTL_TOKEN' };
  else if (env.SCPCTL_TOKEN !== undefined) emptyTokenVariable = 'SCPCTL_TOKEN';
  else if (env.SCPCTL_TOKEN_FILE) {
    token = { value: readSecretFile(env.SCPCTL_TOKEN_FILE, 'SCPCTL_TOKEN_FILE'), kind: 'env', source: 'SCPCTL_TOKEN_FILE' };
  } else token = firstOf([fromStore('token')]);

  const timeoutRaw = firstOf([[flags.timeout, 'flag', '--timeout'], [env.SCPCTL_TIMEOUT, 'env', 'SCPCTL_TIMEOUT'], fromStore('timeout')]);
  const retriesRaw = firstOf([[flags.retries, 'flag', '--retries'], fromStore('retries')]);
  const keepRaw = firstOf([fromStore('historyKeep')]);

  return {
    context,
    baseUrl,
    token,
    caCert,
    ...(emptyTokenVariable ? { emptyTokenVariable } : {}),
    timeout: timeoutRaw
      ? { ...timeoutRaw, value: parseTimeout(timeoutRaw.value, timeoutRaw.source) }
      : { value: DEFAULT_TIMEOUT_SECONDS, kind: 'default', source: 'default' },
    retries: retriesRaw
      ? { ...retriesRaw, value: parseRetries(retriesRaw.value, retriesRaw.source) }
      : { value: DEFAULT_RETRIES, kind: 'default', source: 'default' },
    historyKeep: keepRaw
      ? { ...keepRaw, value: parseHistoryKeep(keepRaw.value, keepRaw.source) }
      : { value: DEFAULT_HISTORY_KEEP, kind: 'default', source: 'default' },
  };
}

/** 0 keeps no history at all; 10,000 versions of an 8 MiB list is already more than a disk wants. */
export function parseHistoryKeep(value: string, origin = 'historyKeep'): number {
  if (!/^\d+$/.test(value) || Number(value) > 10_000) {
    throw new UsageError(`${origin}: "${value}" is not a number of versions to keep (0 to 10000)`);
  }
  return Number(value);
}

export function parseTimeout(value: string, origin = '--timeout'): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(seconds > 0) || seconds > 3600) {
    throw new UsageError(`${origin}: "${value}" is not a timeout in seconds (a number above 0, at most 3600)`);
  }
  return seconds;
}

export function parseRetries(value: string, origin = '--retries'): number {
  if (!/^\d+$/.test(value) || Number(value) > 10) {
    throw new UsageError(`${origin}: "${value}" is not a number of retries (0 to 10)`);
  }
  return Number(value);
}

/** Reads up to one byte past `maxBytes`, so that the caller can tell a file that is too large. */
function readCapped(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (let read = 1; read > 0 && length <= maxBytes; length += read) {
      read = readSync(fd, buffer, length, buffer.length - length, null);
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * Pipes a run has already read on the event loop, by path (CommandContext.preloadPipes): a FIFO can be read
 * only once, and reading it here would block. The run's own, handed in, never a module's.
 */
export type PreloadedPipes = ReadonlyMap<string, Buffer>;

/** The token file the settings will read, if any (the same precedence as resolveSettings). */
export function tokenFilePath(flags: Pick<SettingFlags, 'tokenFile'>, env: NodeJS.ProcessEnv): string | undefined {
  if (flags.tokenFile !== undefined) return flags.tokenFile;
  if (env.SCPCTL_TOKEN !== undefined) return undefined;
  return env.SCPCTL_TOKEN_FILE || undefined;
}

/** A token is short: anything past this is not a token file (or is /dev/zero), and is refused before reading. */
export const MAX_TOKEN_FILE_BYTES = 64 * 1024;

export function readTokenFile(path: string, origin: string, pipes?: PreloadedPipes): string {
  if (path.trim() === '') throw new UsageError(`${origin}: the value is empty`);
  const token = readSmallTextFile(path, origin, 'token file', MAX_TOKEN_FILE_BYTES, pipes).trim();
  if (token === '') throw new AuthError(`${origin}: the token file ${path} is empty`);
  return token;
}

/**
 * Reads a small settings file (a token, a CA certificate): a regular file of at most `maxBytes` of UTF-8.
 * Devices, pipes and huge files are refused rather than read, so `--token-file /dev/zero` cannot hang.
 */
export function readSmallTextFile(path: string, origin: string, what: string, maxBytes: number, pipes?: PreloadedPipes): string {
  try {
    const stats = statSync(path);
    const tooLarge = (): UsageError => new UsageError(`${origin}: the ${what} ${path} is larger than ${maxBytes / 1024} KiB`);
    let bytes: Buffer;
    if (stats.isFile()) {
      if (stats.size > maxBytes) throw tooLarge();
      bytes = readFileSync(path);
    } else if (stats.isFIFO()) {
      // A pipe, as `--token-file <(pass show scpctl)` makes: read to its end, but never past the cap.
      bytes = pipes?.get(path) ?? readCapped(path, maxBytes);
      if (bytes.length > maxBytes) throw tooLarge();
    } else {
      throw new UsageError(`${origin}: ${path} is not a regular file or a pipe`);
    }
    return decodeUtf8(bytes, path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${origin}: cannot read the ${what} ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** CA bundles run to a few hundred KiB; 4 MiB leaves room and still refuses a device or a wrong file. */
export const MAX_CA_FILE_BYTES = 4 * 1024 * 1024;

/** A CA file's PEM text: readable, a regular file or a pipe, under 4 MiB, and holding a certificate. */
export function readCaFile(path: string, origin: string, pipes?: PreloadedPipes): string {
  const pem = readSmallTextFile(path, origin, 'CA file', MAX_CA_FILE_BYTES, pipes);
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`${origin}: ${path} holds no PEM certificate`);
  return pem;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Checks and normalizes a base URL: a bare host means https, a path is kept (without its trailing slash),
 * plain http is refused unless the host is loopback, because the token would cross the network in clear.
 */
export function normalizeBaseUrl(input: string, origin = 'base URL'): URL {
  const text = input.trim();
  let url: URL;
  try {
    url = new URL(SCHEME.test(text) ? text : `https://${text}`);
  } catch {
    throw new UsageError(`${origin}: "${input}" is not a valid URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`${origin}: "${input}" must use https:// (or http:// on loopback)`);
  }
  if (url.username || url.password) throw new UsageError(`${origin}: credentials in the URL are not allowed; use the token settings`);
  if (url.search || url.hash) throw new UsageError(`${origin}: "${input}" must not carry a query or fragment`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(`${origin}: refusing plain http:// to ${url.hostname}: the token would cross the network in clear text`, {
      hint: `Use https://${url.host}${url.pathname === '/' ? '' : url.pathname} instead.`,
    });
  }
  url.pathname = url.pathname.replace(/\/+$/, '');
  if (/\/api\/v1$/.test(url.pathname)) {
    throw new UsageError(`${origin}: leave /api/v1 out of the base URL ("${input}"); scpctl adds it`);
  }
  return url;
}
