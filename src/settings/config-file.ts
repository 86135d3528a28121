// The config store: one JSON file (mode 0600, always written whole: files/atomic-write.ts) holding named
// contexts. Not written through `conf`, which writes in place when SNAP is set (a snap-packaged terminal or
// editor sets it for everything started from it), so that a kill mid-write would lose every context.
import { mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { writeFileAtomically } from '../files/atomic-write.js';
import { NotPlainFile, readPlainFile } from '../files/plain-file.js';

export const CONFIG_KEYS = ['baseUrl', 'token', 'timeout', 'retries', 'caCert', 'historyKeep', 'tokenStore', 'tokenCommand'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];
export type ContextValues = Partial<Record<ConfigKey, string>>;

export interface ConfigData {
  currentContext?: string;
  contexts: Record<string, ContextValues>;
}

export const DEFAULT_CONTEXT = 'default';

/** `scpctl`, or `scpctl --context NAME` when the context is not the default one: how hints say to call it. */
export function scpctlFor(context: string): string {
  return context === DEFAULT_CONTEXT ? 'scpctl' : `scpctl --context ${context}`;
}

export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.SCPCTL_CONFIG_DIR) return env.SCPCTL_CONFIG_DIR;
  if (process.platform === 'win32') return join(env.APPDATA || join(homedir(), 'AppData', 'Roaming'), 'scpctl');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Preferences', 'scpctl');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'scpctl');
}

export function configPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'config.json');
}

/** Accepts the kebab-case spellings too (`base-url`, `ca-cert`), and `history.keep` for `historyKeep`. */
export function normalizeConfigKey(key: string): ConfigKey {
  if (key === 'history.keep' || key === 'history-keep') return 'historyKeep';
  const camel = key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  if ((CONFIG_KEYS as readonly string[]).includes(camel)) return camel as ConfigKey;
  throw new UsageError(`unknown config key "${key}"; the keys are ${CONFIG_KEYS.join(', ')} (base-url, ca-cert and history.keep also work)`);
}

/** A store of a hundred contexts is a few KiB; anything near this is not a config file scpctl wrote. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Reads the store; a missing file is an empty store, a broken one is a usage error naming the file. Only a
 * regular file is read: a FIFO put in its place would block every command (and Ctrl-C) on opening it.
 */
export function readConfig(path: string): ConfigData {
  let text: string;
  try {
    const bytes = readPlainFile(path, (stats) => {
      if (stats.size > MAX_CONFIG_BYTES) {
        throw new UsageError(`the config file ${path} is ${stats.size.toLocaleString('en-US')} bytes, more than a config file holds (1 MiB)`, {
          hint: 'Fix or delete it; `scpctl config path` names it.',
        });
      }
    });
    text = bytes?.toString('utf8') ?? '';
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (error instanceof NotPlainFile || (error as NodeJS.ErrnoException).code === 'EISDIR') {
      throw new UsageError(`the config file ${path} is not a regular file`, { hint: 'Remove it; `scpctl login` writes a new one.' });
    }
    throw new UsageError(`cannot read the config file ${path}: ${(error as Error).message}`);
  }
  try {
    return sanitizeConfig(text.trim() === '' ? {} : JSON.parse(text));
  } catch {
    throw new UsageError(`the config file ${path} is not valid JSON`, { hint: `Fix or delete it; \`scpctl config path\` names it.` });
  }
}

function sanitizeConfig(value: unknown): ConfigData {
  // Context names come from users; a null-prototype object keeps "__proto__" an ordinary key.
  const data: ConfigData = { contexts: Object.create(null) as ConfigData['contexts'] };
  if (typeof value !== 'object' || value === null) return data;
  const raw = value as { currentContext?: unknown; contexts?: unknown };
  if (typeof raw.currentContext === 'string') data.currentContext = raw.currentContext;
  if (typeof raw.contexts === 'object' && raw.contexts !== null) {
    for (const [name, values] of Object.entries(raw.contexts as Record<string, unknown>)) {
      const clean: ContextValues = {};
      if (typeof values === 'object' && values !== null) {
        for (const key of CONFIG_KEYS) {
          const v = (values as Record<string, unknown>)[key];
          if (typeof v === 'string' || typeof v === 'number') clean[key] = String(v);
          // A tokenCommand written by hand as a JSON array reads as the text `config set` stores.
          else if (key === 'tokenCommand' && Array.isArray(v)) clean[key] = JSON.stringify(v);
        }
      }
      data.contexts[name] = clean;
    }
  }
  return data;
}

/** A warning when the file can be read by others, since it may hold a token (every command warns; doctor fails). */
export function permissionWarning(path: string): string | null {
  if (process.platform === 'win32') return null;
  try {
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      return `the config file ${path} is readable by others (mode ${mode.toString(8).padStart(4, '0')}); run: chmod 600 ${path}`;
    }
  } catch {
    // No file, nothing to warn about.
  }
  return null;
}

/**
 * Applies `change` to the stored data and writes it whole (a temporary file, flushed, renamed). The whole
 * read-modify-write holds a lock (a `config.json.lock` folder, proper-lockfile), so that parallel
 * `login`s into different contexts all land instead of the last writer's copy winning.
 */
export async function updateConfig(change: (data: ConfigData) => void, env: NodeJS.ProcessEnv): Promise<ConfigData> {
  const path = configPath(env);
  mkdirSync(configDir(env), { recursive: true, mode: 0o700 });
  const { default: lockfile } = await import('proper-lockfile');
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(path, {
      realpath: false,
      // Up to about 10 s of waiting for other scpctl processes; a lock left by a crashed one is stale after 10 s.
      retries: { retries: 60, minTimeout: 20, maxTimeout: 250, randomize: true },
      stale: 10_000,
    });
  } catch (error) {
    throw new UsageError(`cannot lock the config file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
      hint: 'Another scpctl is writing it; try again. A lock left behind is the folder config.json.lock beside it.',
    });
  }
  try {
    const data = readConfig(path); // a broken file is reported here, naming it, and left as it is
    change(data);
    try {
      // Tab-indented, as `conf` wrote it: stores written before read the same, and diff cleanly.
      writeFileAtomically(path, `${JSON.stringify(data, null, '\t')}\n`, 0o600);
    } catch (error) {
      throw new UsageError(`cannot write the config file ${path}: ${error instanceof NotPlainFile ? 'not a regular file' : ((error as NodeJS.ErrnoException).code ?? (error as Error).message)}`);
    }
    return data;
  } finally {
    await release().catch(() => {});
  }
}
