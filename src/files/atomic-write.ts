// Every file scpctl keeps (the emulator's state, kept list versions, checkpoints, saved plans, the profiles
// completion has seen) is replaced whole or not at all: written to a temporary file beside it, flushed to
// disk, then renamed over it. A crash, a full disk or two commands at once leave the old file or the new
// one, never half of either.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomHex } from '../core/random.js';
import { refuseOddFile } from './plain-file.js';

/**
 * Replaces `path` with `text` (or its pieces one after another, each made only when written). Throws the file
 * system's error (with its `code`), an error the pieces threw, or NotPlainFile when `path` is a FIFO, socket or
 * device (left in place); the temporary file is gone.
 */
export function writeFileAtomically(path: string, text: string | Iterable<string | Uint8Array>, mode = 0o600): void {
  refuseOddFile(path);
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}-${randomHex(4)}.tmp`);
  try {
    const fd = openSync(temporary, 'wx', mode);
    try {
      // writeFileSync, unlike writeSync, loops until every byte is written.
      for (const piece of typeof text === 'string' ? [text] : text) writeFileSync(fd, piece);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
