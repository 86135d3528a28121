// `config get|set|unset|list|path`: the values of the selected context (the context commands: contexts.ts).
import { resolve as resolvePath } from 'node:path';
import { existsSync } from 'node:fs';
import { NotSetError, UsageError } from '../../errors.js';
import {
  CONFIG_KEYS,
  configPath,
  normalizeConfigKey,
  permissionWarning,
  readConfig,
  scpctlFor,
  updateConfig,
  type ConfigKey,
  type ContextValues,
} from '../../settings/config-file.js';
import { parseHistoryKeep, parseRetries, parseTimeout, resolveSettings } from '../../settings/resolve.js';
import { readCaFile } from '../../settings/secret-files.js';
import { normalizeBaseUrl } from '../../settings/base-url.js';
import { maskToken } from '../../core/secrets.js';
import type { CommandContext } from '../context.js';
import { writeListing } from '../../output/writers.js';
import { alignColumns } from '../../output/text.js';
import { readTokenInput } from '../token-input.js';
import { describeTokenCommand, storedTokenWarnings } from '../../settings/token-source.js';
import { parseTokenCommand } from '../../settings/token-command.js';
import { TOKEN_STORES, type TokenStoreName } from '../../settings/token-stores.js';
import { visible } from '../../core/service-text.js';

function display(key: ConfigKey, value: string): string {
  if (key === 'tokenCommand') return describeTokenCommand(parseTokenCommand(value));
  return key === 'token' ? maskToken(value) : value;
}

/** Checks a value before it is stored, so a bad setting fails at `set` and not at the next request. */
function checkValue(key: ConfigKey, value: string): string {
  switch (key) {
    case 'baseUrl':
      return normalizeBaseUrl(value, 'baseUrl').href.replace(/\/$/, '');
    case 'timeout':
      return String(parseTimeout(value, 'timeout'));
    case 'retries':
      return String(parseRetries(value, 'retries'));
    case 'caCert': {
      const path = resolvePath(value);
      if (!existsSync(path)) throw new UsageError(`caCert: no such file ${path}`);
      readCaFile(path, 'caCert'); // the same check every command makes of it, now rather than on each of them
      return path;
    }
    case 'historyKeep':
      return String(parseHistoryKeep(value, 'historyKeep'));
    case 'token':
      return value;
    case 'tokenStore':
      if (!(TOKEN_STORES as readonly string[]).includes(value)) throw new UsageError(`tokenStore: "${value}" is not keyring or file`);
      return value;
    case 'tokenCommand':
      return JSON.stringify(parseTokenCommand(value));
  }
}

export async function configGet(ctx: CommandContext, keyText: string): Promise<void> {
  const key = normalizeConfigKey(keyText);
  const context = ctx.contextName();
  const value = readConfig(configPath(ctx.env)).contexts[context]?.[key];
  const fetched = ctx.contextToken;
  const token = fetched && 'token' in fetched ? fetched.token : undefined;
  if (key === 'token' && value === undefined && (token?.origin.kind === 'keyring' || token?.origin.kind === 'command')) {
    ctx.term.out(`${maskToken(token.value)} (${token.origin.kind === 'keyring' ? 'in the OS credential store' : 'printed by the tokenCommand'})\n`);
    return;
  }
  if (value === undefined) {
    throw new NotSetError(`${key} is not set in context ${context}`, {
      hint: key === 'token' ? `Run: ${scpctlFor(context)} login` : `Set it with: scpctl config set ${key} VALUE`,
    });
  }
  ctx.term.out(display(key, value) + '\n');
}

export async function configSet(ctx: CommandContext, keyText: string, value: string | undefined, options: { withToken?: boolean }): Promise<void> {
  const key = normalizeConfigKey(keyText);
  if (key === 'token') return setToken(ctx, value, options.withToken);
  if (value === undefined) throw new UsageError(`config set ${key} needs a value`);
  // tokenStore says where the token is: setting it moves the token there (config migrate-token).
  if (key === 'tokenStore') return migrateToken(ctx, { to: checkValue(key, value) as TokenStoreName }, 'config set tokenStore');
  const stored = checkValue(key, value);
  const context = ctx.contextName();
  await updateConfig((data) => {
    data.contexts[context] = { ...data.contexts[context], [key]: stored };
  }, ctx.env);
  ctx.term.success(`${key} set in context ${context}`);
}

async function setToken(ctx: CommandContext, value: string | undefined, withToken: boolean | undefined): Promise<void> {
  if (value !== undefined) {
    throw new UsageError('refusing a token on the command line: it would stay in shell history and process lists', {
      hint: 'Run `scpctl config set token` for a hidden prompt, or pipe it: echo "$TOKEN" | scpctl config set token --with-token',
    });
  }
  const token = await readTokenInput(ctx, withToken);
  const context = ctx.contextName();
  // Where the context keeps its token now, so that the new one replaces it there and no old one stays.
  const { saveToken, tokenPlace } = await import('../login/token-store.js');
  await saveToken(ctx.env, context, token, tokenPlace(readConfig(configPath(ctx.env)).contexts[context]) ?? 'file');
  ctx.term.success(`token set in context ${context}`);
  for (const warning of storedTokenWarnings(ctx.env)) ctx.term.warn(warning);
}

export async function configUnset(ctx: CommandContext, keyText: string): Promise<void> {
  const key = normalizeConfigKey(keyText);
  if (key === 'tokenStore') return migrateToken(ctx, { to: 'file' }, 'config unset tokenStore');
  const context = ctx.contextName();
  await updateConfig((data) => {
    delete data.contexts[context]?.[key];
  }, ctx.env);
  ctx.term.success(`${key} unset in context ${context}`);
}

export async function configPathCommand(ctx: CommandContext): Promise<void> {
  ctx.term.out(configPath(ctx.env) + '\n');
}

interface SettingRow {
  key: string;
  value: string;
  source: string;
  /** Why the value in effect cannot be used; only when it cannot. */
  error?: string;
}

/**
 * Every setting in effect, with where it came from. A stored value that cannot be used (a hand-edited
 * `"timeout": "abc"`) or an unreadable token file is listed with the reason instead of failing the listing:
 * this is the command that should show what is wrong.
 */
export async function configList(ctx: CommandContext): Promise<void> {
  const path = configPath(ctx.env);
  const warning = permissionWarning(path);
  if (warning) ctx.term.warn(warning);
  const context = ctx.contextName();
  const config = readConfig(path);
  const stored = config.contexts[context] ?? {};
  // Stored values that `config set` would refuse are left out of the resolution, and kept with the reason.
  const broken = new Map<ConfigKey, string>();
  const usable: ContextValues = {};
  for (const key of CONFIG_KEYS) {
    const value = stored[key];
    if (value === undefined) continue;
    try {
      checkValue(key, value);
      usable[key] = value;
    } catch (error) {
      broken.set(key, (error as Error).message);
    }
  }
  const onlyUsable = { ...config, contexts: { [context]: usable } };
  const settings = resolveSettings(ctx.options, ctx.env, onlyUsable, ctx.readTokenFile, ctx.contextToken);

  const fromStore = `config (context ${context})`;
  const describe = (key: ConfigKey): SettingRow => {
    // Set in the store alone: no flag or environment variable stands for them.
    const storeOnly = key === 'tokenStore' || key === 'tokenCommand';
    const setting = storeOnly ? undefined : settings[key];
    const problem = broken.get(key);
    // A broken stored value matters only when no flag or environment variable stands before it.
    if (problem !== undefined && (setting === undefined || setting.kind === 'default')) {
      return { key, value: storeOnly ? visible(stored[key]!) : stored[key]!, source: fromStore, error: problem };
    }
    if (storeOnly && stored[key] !== undefined) return { key, value: display(key, stored[key]), source: fromStore };
    // With an unreadable token file, the value shown is the file's path.
    const unread = key === 'token' ? settings.unreadTokenFile : undefined;
    if (unread) return { key, value: unread.value, source: unread.source, error: settings.tokenError!.message };
    if (setting === undefined) return { key, value: '', source: 'not set' };
    return { key, value: display(key, String(setting.value)), source: setting.source };
  };
  // Masked before the columns are padded: a tokenCommand holding the token would otherwise push its column out.
  const rows: SettingRow[] = [{ key: 'context', value: settings.context.value, source: settings.context.source }, ...CONFIG_KEYS.map(describe)]
    .map((r) => ({ ...r, value: ctx.term.mask.mask(r.value) }));
  const lines = alignColumns(rows.map((r) => [r.key, r.value || '-', r.source, r.error === undefined ? '' : `(invalid: ${r.error})`]));
  await writeListing(ctx.term, ctx.outputFormat('listing'), { head: [], rows: [], lines, value: { configFile: path, settings: rows } });
}

/** `config migrate-token [--to keyring|file]`: moves the context's stored token (login/token-store.ts). */
export async function migrateToken(ctx: CommandContext, options: { to?: TokenStoreName }, doing?: string): Promise<void> {
  const context = ctx.contextName();
  const { moveToken } = await import('../login/token-store.js');
  const moved = await moveToken(ctx.env, context, options.to, doing);
  const name = (place: string): string => (place === 'keyring' ? 'the OS credential store' : `the config file ${configPath(ctx.env)}`);
  if (moved.from === moved.to) ctx.term.info(`the token of context ${context} is already in ${name(moved.to)}`);
  else ctx.term.success(`token of context ${context} moved from ${name(moved.from)} to ${name(moved.to)}`);
}
