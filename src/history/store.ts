// Kept versions of bucket lists: before scpctl replaces, syncs, applies or restores a profile, the list it
// read is written here, so that yesterday's list can be put back. One file per version under
// `<state>/history/<context>/<service>/<profile>/` (the service: a hash of the base URL), the newest N kept. A version holds the time, the operation and
// the names, nothing else: never a token, never the base URL's credentials (there are none to hold).
import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import { writeFileAtomically } from '../files/atomic-write.js';
import { createHash, randomInt } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface HistoryEntry {
  id: string;
  /** ISO 8601, UTC. */
  time: string;
  operation: string;
  count: number;
}

export interface HistoryVersion extends HistoryEntry {
  names: string[];
}

/** `$SCPCTL_STATE_DIR`, else `$XDG_STATE_HOME/scpctl`, else `~/.local/state/scpctl`. */
export function stateDir(env: NodeJS.ProcessEnv): string {
  if (env.SCPCTL_STATE_DIR?.trim()) return env.SCPCTL_STATE_DIR;
  if (env.XDG_STATE_HOME?.trim()) return join(env.XDG_STATE_HOME, 'scpctl');
  return join(env.HOME?.trim() ? env.HOME : homedir(), '.local', 'state', 'scpctl');
}

/**
 * A folder name for any profile or context name: percent-encoded (so `/`, `..` and NUL cannot escape the
 * folder, and two names never share one), and hashed when it would be too long for a file system.
 */
export function safeSegment(name: string): string {
  const encoded = encodeURIComponent(name).replace(/\./g, '%2E').replace(/\*/g, '%2A');
  if (encoded.length <= 120) return encoded;
  return `${encoded.slice(0, 60)}~${createHash('sha256').update(name).digest('hex').slice(0, 32)}`;
}

const ID = /^[0-9a-z]{8,16}$/;

export class HistoryStore {
  constructor(
    private readonly root: string,
    private readonly context: string,
    /** How many versions of each profile to keep; 0 keeps none. */
    readonly keep: number,
    /**
     * The service the context points at (its base URL): versions are kept per service too, so that a context
     * name used again for another tenant never offers the first tenant's lists to restore.
     */
    private readonly service?: string,
  ) {}

  folder(profile: string): string {
    const service = this.service === undefined ? [] : [createHash('sha256').update(this.service).digest('hex').slice(0, 16)];
    return join(this.root, 'history', safeSegment(this.context), ...service, safeSegment(profile));
  }

  /** The folder of a context's versions: renaming the context moves it (config rename-context). */
  static contextFolder(root: string, context: string): string {
    return join(root, 'history', safeSegment(context));
  }

  /** Keeps `names` as the newest version of `profile`'s list, then forgets versions past `keep`. */
  async record(profile: string, operation: string, names: readonly string[], now = new Date()): Promise<HistoryEntry | undefined> {
    if (this.keep <= 0) return undefined;
    const folder = this.folder(profile);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    // 12 characters: sortable by time (milliseconds in base 36, fixed width), then random, so two runs in the
    // same millisecond do not collide (without a lock).
    const id = now.getTime().toString(36).padStart(9, '0') + randomInt(36 ** 3).toString(36).padStart(3, '0');
    const entry: HistoryEntry = { id, time: now.toISOString(), operation, count: names.length };
    // First line: what `history` lists, read without the names; second line: the names, as JSON (any name
    // the service returns, commas and all, comes back byte for byte).
    const text = `${JSON.stringify({ ...entry, profile, context: this.context })}\n${JSON.stringify(names)}\n`;
    const path = join(folder, `${id}.json`);
    writeFileAtomically(path, text);
    await this.prune(folder);
    return entry;
  }

  /** The versions of `profile`, newest first. */
  async list(profile: string): Promise<HistoryEntry[]> {
    const ids = await this.ids(this.folder(profile));
    const entries: HistoryEntry[] = [];
    for (const id of ids.reverse()) {
      const header = await readFirstLine(join(this.folder(profile), `${id}.json`));
      if (header === undefined) continue;
      try {
        const parsed = JSON.parse(header) as HistoryEntry;
        entries.push({ id, time: String(parsed.time), operation: String(parsed.operation), count: Number(parsed.count) });
      } catch {
        // A damaged file is skipped rather than failing the listing of the others.
      }
    }
    return entries;
  }

  /** One version with its names, or undefined for an ID that is not there. */
  async read(profile: string, id: string): Promise<HistoryVersion | undefined> {
    if (!ID.test(id)) return undefined;
    let text: string;
    try {
      text = await readFile(join(this.folder(profile), `${id}.json`), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const newline = text.indexOf('\n');
    const header = JSON.parse(text.slice(0, newline)) as HistoryEntry;
    const names = JSON.parse(text.slice(newline + 1)) as unknown;
    if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) throw new Error(`history version ${id} is damaged`);
    return { id, time: String(header.time), operation: String(header.operation), count: names.length, names };
  }

  private async ids(folder: string): Promise<string[]> {
    let files: string[];
    try {
      files = await readdir(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return files.filter((f) => f.endsWith('.json') && ID.test(f.slice(0, -5))).map((f) => f.slice(0, -5)).sort();
  }

  private async prune(folder: string): Promise<void> {
    const ids = await this.ids(folder);
    for (const id of ids.slice(0, Math.max(0, ids.length - this.keep))) await rm(join(folder, `${id}.json`), { force: true });
  }
}

/** The header line alone: listing 50 versions of an 8 MiB list must not read 400 MB. */
async function readFirstLine(path: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const newline = text.indexOf('\n');
    return newline < 0 ? undefined : text.slice(0, newline);
  } finally {
    await handle.close();
  }
}
