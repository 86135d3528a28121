// Kept versions of bucket lists: before scpctl replaces, syncs, applies, restores, deletes from or modifies a
// profile, the list it read is written here, so that yesterday's list can be put back. One file per version
// under `<state>/history/<context>/<service>/<profile>/` (the service: a hash of the base URL), the newest N
// kept. A version holds the time, the operation and the names, nothing else: never a token (a name the
// service returned holding one is kept masked, and restore refuses it).
//
// The state folder may be shared or planted (contract section 13), so it is scpctl's alone: every folder
// below the state root is made by scpctl one level at a time and checked (no symlink, a folder, owned by
// this user, not group- or world-writable) before anything is read or written there; entry files are opened
// without following a symlink; pruning removes only entries whose header says they are this profile's in
// this context; a header is checked field by field, and one that names another profile or context is never
// restored. A check that fails is a usage error naming the path (exit 2), before anything is sent.
import { constants } from 'node:fs';
import { lstat, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { writeFileAtomically } from '../files/atomic-write.js';
import { NotPlainFile, openPlainFile } from '../files/plain-file.js';
import { currentUid, notOwnReason } from '../files/owned.js';
import { createHash, randomInt } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { mayHoldSecret } from '../core/secrets.js';
import { maskNames } from '../core/secret-names.js';

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

/** The operations that keep a version: a header naming another is not one scpctl wrote. */
export const HISTORY_OPERATIONS = ['replace', 'sync', 'apply', 'restore', 'delete', 'modify'] as const;
export type HistoryOperation = (typeof HISTORY_OPERATIONS)[number];

/** The JSON array text of a plain list's names, on one line, as the view answer held it, and their count. */
export interface ListJson {
  json: string;
  count: number;
}

function isListJson(names: readonly string[] | ListJson): names is ListJson {
  return !Array.isArray(names);
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

/** The IDs scpctl writes: 9 characters of time in base 36, then 3 random ones. */
const ID = /^[0-9a-z]{12}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

function damaged(id: string, why?: string): UsageError {
  return new UsageError(`history version ${id} is damaged${why ? ` (${why})` : ''}`, {
    hint: 'Pick another version: scpctl buckets history PROFILE',
  });
}

function unlessMissing<T>(pending: Promise<T>): Promise<T | undefined> {
  return pending.catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/**
 * Makes (or checks) `path` as a folder of scpctl's own, one level below a checked parent: never through a
 * symlink, owned by this user, writable by no one else. What is there already (EEXIST) is checked as made.
 */
async function ownFolder(path: string, create: boolean): Promise<boolean> {
  if (create) {
    await mkdir(path, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
  const info = await unlessMissing(lstat(path));
  if (info === undefined) return false;
  refuseUnlessOwn(path, info, info.isSymbolicLink() ? 'is a symlink, and scpctl follows no symlink it did not make' : undefined);
  return true;
}

function refuseUnlessOwn(path: string, info: { isDirectory(): boolean; uid: number; mode: number }, problem?: string): void {
  const why = problem ?? (!info.isDirectory() ? 'is not a folder' : notOwnReason(info, currentUid()));
  if (why) {
    throw new UsageError(`the history folder ${path} ${why}; nothing was read or written there`, {
      hint: 'Remove it (scpctl makes its folders itself), or point SCPCTL_STATE_DIR at a folder of your own (historyKeep 0 keeps no history).',
    });
  }
}

interface Header extends HistoryEntry {
  profile: string;
  context: string;
}

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
    /** Every token the run knows: a kept name holding one is written masked (contract section 13). */
    private readonly secrets: readonly string[] = [],
  ) {}

  private levels(profile: string): string[] {
    const service = this.service === undefined ? [] : [createHash('sha256').update(this.service).digest('hex').slice(0, 16)];
    const parts = ['history', safeSegment(this.context), ...service, safeSegment(profile)];
    return parts.map((_, i) => join(this.root, ...parts.slice(0, i + 1)));
  }

  folder(profile: string): string {
    return this.levels(profile).at(-1)!;
  }

  /** The folder of a context's versions: renaming the context moves it (config rename-context). */
  static contextFolder(root: string, context: string): string {
    return join(root, 'history', safeSegment(context));
  }

  /**
   * The profile's folder, every level checked (and made, when `create`); undefined when it does not exist
   * yet. The state root itself may be a symlink the user chose, but must be theirs alone too.
   */
  private async checkedFolder(profile: string, create: boolean): Promise<string | undefined> {
    // Checked before any mkdir: a FIFO or a file at the root is refused by name (exit 2), not met as EEXIST.
    const root = await unlessMissing(stat(this.root));
    if (root === undefined && !create) return undefined;
    if (root === undefined) await mkdir(this.root, { recursive: true, mode: 0o700 });
    refuseUnlessOwn(this.root, root ?? (await stat(this.root)));
    for (const level of this.levels(profile)) if (!(await ownFolder(level, create))) return undefined;
    return this.folder(profile);
  }

  /**
   * Keeps `names` as the newest version of `profile`'s list, then forgets versions past `keep`. The names
   * come as strings, or as the JSON array text of plain names the view answer held (api/bucket-list-scan.ts:
   * one line, parsing to the names), written as it is, without a string made for each.
   */
  async record(profile: string, operation: HistoryOperation, listed: readonly string[] | ListJson, now: Date): Promise<HistoryEntry | undefined> {
    if (this.keep <= 0) return undefined;
    // The view's JSON text is kept as it is unless it may hold a token: only then is it parsed and masked.
    const names = isListJson(listed)
      ? mayHoldSecret(listed.json, this.secrets) ? maskNames(JSON.parse(listed.json) as string[], this.secrets) : listed
      : maskNames(listed, this.secrets);
    const folder = (await this.checkedFolder(profile, true))!;
    // 12 characters: sortable by time (milliseconds in base 36, fixed width), then random, so two runs in the
    // same millisecond do not collide (without a lock).
    const id = now.getTime().toString(36).padStart(9, '0') + randomInt(36 ** 3).toString(36).padStart(3, '0');
    const entry: HistoryEntry = { id, time: now.toISOString(), operation, count: isListJson(names) ? names.count : names.length };
    // First line: what `history` lists, read without the names; second line: the names, as JSON (any name
    // the service returns, commas and all, comes back byte for byte).
    const header = `${JSON.stringify({ ...entry, profile, context: this.context })}\n`;
    writeFileAtomically(join(folder, `${id}.json`), [header, isListJson(names) ? names.json : JSON.stringify(names), '\n']);
    await this.prune(folder, profile);
    return entry;
  }

  /** The versions of `profile`, newest first; entries that are not this profile's own are left out. */
  async list(profile: string): Promise<HistoryEntry[]> {
    const folder = await this.checkedFolder(profile, false);
    if (folder === undefined) return [];
    const entries: HistoryEntry[] = [];
    for (const id of (await this.ids(folder)).reverse()) {
      const header = headerOf(await readEntry(join(folder, `${id}.json`), 4096), id);
      if (!header || header.profile !== profile || header.context !== this.context) continue;
      entries.push({ id, time: header.time, operation: header.operation, count: header.count });
    }
    return entries;
  }

  /**
   * One version with its names, or undefined for an ID that is not there. A damaged entry, or one whose
   * header names another profile or context (copied in from elsewhere), is a usage error: never restored.
   */
  async read(profile: string, id: string): Promise<HistoryVersion | undefined> {
    if (!ID.test(id)) return undefined;
    const folder = await this.checkedFolder(profile, false);
    if (folder === undefined) return undefined;
    const text = await readEntry(join(folder, `${id}.json`), Number.POSITIVE_INFINITY);
    if (text === undefined) return undefined;
    const header = headerOf(text, id);
    if (!header) throw damaged(id);
    if (header.profile !== profile || header.context !== this.context) {
      throw new UsageError(`history version ${id} was kept for profile ${JSON.stringify(header.profile)} of context ${JSON.stringify(header.context)}, not ${JSON.stringify(profile)} of ${JSON.stringify(this.context)}; it is not restored`);
    }
    let names: unknown;
    try {
      names = JSON.parse(text.slice(text.indexOf('\n') + 1));
    } catch {
      throw damaged(id, 'its names are not JSON');
    }
    if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) throw damaged(id, 'its names are not a list of strings');
    if (names.length !== header.count) throw damaged(id, `its header counts ${header.count} names, it holds ${names.length}`);
    return { id, time: header.time, operation: header.operation, count: names.length, names };
  }

  /**
   * Rewrites the context named in every entry of a renamed context's folder (config rename-context moves
   * the folder): the entries stay restorable under the new name, and only under it.
   */
  static async renameContext(root: string, from: string, to: string): Promise<void> {
    const folder = HistoryStore.contextFolder(root, to);
    const files = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const file of files) {
      if (!file.isFile() || !file.name.endsWith('.json') || !ID.test(file.name.slice(0, -5))) continue;
      const path = join(file.parentPath, file.name);
      const text = await readEntry(path, Number.POSITIVE_INFINITY);
      const header = headerOf(text, file.name.slice(0, -5));
      if (!header || header.context !== from) continue;
      writeFileAtomically(path, `${JSON.stringify({ ...header, context: to })}${text!.slice(text!.indexOf('\n'))}`);
    }
  }

  private async ids(folder: string): Promise<string[]> {
    const files = (await unlessMissing(readdir(folder))) ?? [];
    return files.filter((f) => f.endsWith('.json') && ID.test(f.slice(0, -5))).map((f) => f.slice(0, -5)).sort();
  }

  /** Forgets the oldest of this profile's own entries past `keep`; nothing else in the folder is touched. */
  private async prune(folder: string, profile: string): Promise<void> {
    for (const { id } of (await this.list(profile)).slice(this.keep)) await rm(join(folder, `${id}.json`), { force: true });
  }
}

/** An entry's header (its first line, which must end) checked field by field: what `history` prints must be what scpctl wrote. */
function headerOf(text: string | undefined, id: string): Header | undefined {
  const newline = text?.indexOf('\n') ?? -1;
  if (newline < 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text!.slice(0, newline));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const h = value as Record<string, unknown>;
  const ok =
    h.id === id &&
    typeof h.time === 'string' && ISO_TIME.test(h.time) &&
    typeof h.operation === 'string' && (HISTORY_OPERATIONS as readonly string[]).includes(h.operation) &&
    typeof h.count === 'number' && Number.isSafeInteger(h.count) && h.count >= 0 &&
    typeof h.profile === 'string' && typeof h.context === 'string';
  return ok ? (h as unknown as Header) : undefined;
}

/**
 * An entry file's text (at most `max` bytes of it: the header alone needs 4 KiB, not 8 MiB), never through a
 * symlink and only from a regular file (a FIFO would hold the run); undefined when there is none.
 */
async function readEntry(path: string, max: number): Promise<string | undefined> {
  const opened = await openPlainFile(path, constants.O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => {
    if (error instanceof NotPlainFile || error.code === 'ELOOP') return undefined;
    throw error;
  });
  if (opened === undefined) return undefined;
  const { handle, stats: info } = opened;
  try {
    if (!info.isFile()) return undefined;
    if (max === Number.POSITIVE_INFINITY) return await handle.readFile('utf8');
    const buffer = Buffer.alloc(Math.min(max, info.size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
