// `config get|set|unset|list|path|use-context|get-contexts`: the store of named contexts.
import { resolve as resolvePath } from 'node:path';
import { existsSync } from 'node:fs';
import { ApiError, UsageError } from '../errors.js';
import { CONFIG_KEYS, configPath, normalizeConfigKey, readConfig, updateConfig, DEFAULT_CONTEXT, type ConfigKey } from '../settings/config-file.js';
import { normalizeBaseUrl, parseRetries, parseTimeout, type Sourced } from '../settings/resolve.js';
import { maskToken } from '../output/prompt.js';
import type { CommandContext } from './context.js';
import { readTokenInput } from './token-input.js';

function display(key: ConfigKey, value: string): string {
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
      return path;
    }
    case 'token':
      return value;
  }
}

export async function configGet(ctx: CommandContext, keyText: string): Promise<void> {
  const key = normalizeConfigKey(keyText);
  const context = ctx.settings().context.value;
  const value = readConfig(configPath(ctx.env)).contexts[context]?.[key];
  if (value === undefined) throw new ApiError(`${key} is not set in context ${context}`);
  ctx.term.out(display(key, value) + '\n');
}

export async function configSet(ctx: CommandContext, keyText: string, value: string | undefined, options: { withToken?: boolean }): Promise<void> {
  const key = normalizeConfigKey(keyText);
  if (key === 'token' && value !== undefined) {
    throw new UsageError('refusing a token on the command line: it would stay in shell history and process lists', {
      hint: 'Run `scpctl config set token` for a hidden prompt, or pipe it: echo "$TOKEN" | scpctl config set token --with-token',
    });
  }
  let stored: string;
  if (key === 'token') stored = await readTokenInput(ctx, options.withToken);
  else if (value === undefined) throw new UsageError(`config set ${key} needs a value`);
  else stored = checkValue(key, value);
  const context = ctx.settings().context.value;
  await updateConfig((data) => {
    data.contexts[context] = { ...data.contexts[context], [key]: stored };
  }, ctx.env);
  ctx.term.info(`✔ ${key} set in context ${context}`);
}

export async function configUnset(ctx: CommandContext, keyText: string): Promise<void> {
  const key = normalizeConfigKey(keyText);
  const context = ctx.settings().context.value;
  await updateConfig((data) => {
    delete data.contexts[context]?.[key];
  }, ctx.env);
  ctx.term.info(`✔ ${key} unset in context ${context}`);
}

export async function configPathCommand(ctx: CommandContext): Promise<void> {
  ctx.term.out(configPath(ctx.env) + '\n');
}

interface SettingRow {
  key: string;
  value: string;
  source: string;
}

/** Every setting in effect, with where it came from. */
export async function configList(ctx: CommandContext): Promise<void> {
  const settings = ctx.settings();
  const row = (key: string, setting: Sourced<string | number> | undefined, mask = false): SettingRow => ({
    key,
    value: setting === undefined ? '' : mask ? maskToken(String(setting.value)) : String(setting.value),
    source: setting === undefined ? 'not set' : setting.source,
  });
  const rows: SettingRow[] = [
    row('context', settings.context),
    row('baseUrl', settings.baseUrl),
    row('token', settings.token, true),
    row('timeout', settings.timeout),
    row('retries', settings.retries),
    row('caCert', settings.caCert),
  ];
  const format = ctx.outputFormat(['table', 'text', 'json'] as const, 'table', 'text');
  if (format === 'json') {
    ctx.term.out(JSON.stringify({ configFile: configPath(ctx.env), settings: rows }) + '\n');
    return;
  }
  const width = Math.max(...rows.map((r) => r.key.length));
  const valueWidth = Math.max(...rows.map((r) => r.value.length), 1);
  const lines = rows.map((r) => `${r.key.padEnd(width)}  ${(r.value || '-').padEnd(valueWidth)}  ${r.source}`);
  ctx.term.out(lines.join('\n') + '\n');
}

export async function useContext(ctx: CommandContext, name: string): Promise<void> {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) throw new UsageError(`"${name}" is not a context name (letters, digits, . _ -)`);
  let known = false;
  await updateConfig((data) => {
    known = name in data.contexts;
    data.contexts[name] ??= {};
    data.currentContext = name;
  }, ctx.env);
  ctx.term.info(`✔ the default context is now ${name}`);
  if (!known) ctx.term.warn(`context ${name} has no settings yet: scpctl --context ${name} login --base-url URL`);
}

export async function getContexts(ctx: CommandContext): Promise<void> {
  const data = readConfig(configPath(ctx.env));
  const current = data.currentContext ?? DEFAULT_CONTEXT;
  const names = new Set([current, ...Object.keys(data.contexts)]);
  const format = ctx.outputFormat(['table', 'text', 'json'] as const, 'table', 'text');
  const rows = [...names].sort().map((name) => {
    const values = data.contexts[name] ?? {};
    return { name, current: name === current, baseUrl: values.baseUrl ?? '', token: values.token ? 'stored' : 'none' };
  });
  if (format === 'json') {
    ctx.term.out(JSON.stringify(rows) + '\n');
    return;
  }
  const width = Math.max(...rows.map((r) => r.name.length));
  ctx.term.out(rows.map((r) => `${r.current ? '*' : ' '} ${r.name.padEnd(width)}  ${r.baseUrl || '-'}  token: ${r.token}`).join('\n') + '\n');
}

export { CONFIG_KEYS };
