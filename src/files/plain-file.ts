// The files scpctl keeps for itself (the config store, profiles-seen, history entries, plans, checkpoints)
// are plain files or nothing (contract section 13). Opening a FIFO blocks until a writer comes, and a
// synchronous open or read blocks the one thread that would answer SIGINT and SIGTERM; a device reads
// without end. So such a path is looked at with lstat first and opened without blocking, and what is read
// is checked on the descriptor itself (the path may be swapped between the look and the open).
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, writeFileSync, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/** What a path that is not a plain file is, in words, or undefined for a regular file (or a folder). */
export function oddKind(stats: Stats): string | undefined {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return undefined;
}

/** Thrown for a state path that is a FIFO, socket or device: callers name the path and decide the outcome. */
export class NotPlainFile extends Error {
  readonly code = 'ENOTPLAIN';
  constructor(
    readonly path: string,
    readonly kind: string,
  ) {
    super(`${path} is ${kind}, not a regular file`);
  }
}

function refuseOdd(path: string, stats: Stats): void {
  const kind = oddKind(stats);
  if (kind) throw new NotPlainFile(path, kind);
}

/** Throws NotPlainFile when `path` is there and is a FIFO, socket or device; nothing is opened. */
export function refuseOddFile(path: string): void {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch {
    return; // missing (or unreadable): the open or the rename that follows says so
  }
  refuseOdd(path, stats);
}

/**
 * Opens a state file for reading (`flags` added, O_NOFOLLOW for example) without holding the event loop:
 * never blocking, and checked on the descriptor. Undefined when there is none; NotPlainFile for a FIFO,
 * socket or device (closed unread); anything else the file system's error (with its `code`). The caller
 * closes the handle.
 */
export async function openPlainFile(path: string, flags = 0): Promise<{ handle: FileHandle; stats: Stats } | undefined> {
  refuseOddFile(path);
  // Loaded here: the commands that only read the config store (sync) never pay for node:fs/promises.
  const { open } = await import('node:fs/promises');
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | flags);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const stats = await handle.stat();
  if (oddKind(stats)) await handle.close();
  refuseOdd(path, stats);
  return { handle, stats };
}

/** openPlainFile's file read at once; `check` sees the descriptor's stats before any byte is read (a size cap). */
export function readPlainFile(path: string, check?: (stats: Stats) => void, flags = 0): Buffer | undefined {
  refuseOddFile(path);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | flags);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    refuseOdd(path, stats);
    check?.(stats);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Appends `text` to a file that must be a plain one (GITHUB_STEP_SUMMARY), made if missing: opened without
 * blocking (a FIFO with no reader fails at once, ENXIO) and checked on the descriptor (NotPlainFile). Never
 * through node:fs/promises: an open waiting in the thread pool keeps the process from exiting, SIGINT and
 * SIGTERM included.
 */
export function appendPlainFile(path: string, text: string): void {
  refuseOddFile(path);
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, 0o644);
  try {
    refuseOdd(path, fstatSync(fd));
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
