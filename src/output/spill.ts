// What a context waiting its turn among many (--contexts) prints beyond what memory may hold for it: kept in a
// file of its own until its turn, then read back in order, so the order of the output holds and memory stays
// bounded whatever the tenants print. The file is made private (0600 in a 0700 folder of its own) and unlinked
// at once where the system allows, so a kill leaves nothing behind; only whole lines reach it, masked first
// (a token holds no line break, so no token, whole or split between two writes, rests on disk).
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

/** What is read back at a time. */
const CHUNK_BYTES = 1 << 20;

export class Spill {
  private readonly fd: number;
  private readonly dir: string;
  private removed = false;
  /** The text after the last line break, not yet written. */
  private tail = '';
  private written = 0;

  constructor(private readonly mask: (text: string) => string) {
    this.dir = mkdtempSync(join(tmpdir(), 'scpctl-held-'));
    this.fd = openSync(join(this.dir, 'output'), 'wx+', 0o600);
    this.remove();
  }

  write(text: string): void {
    const whole = this.tail + text;
    const cut = whole.lastIndexOf('\n') + 1;
    this.tail = whole.slice(cut);
    if (cut === 0) return;
    const bytes = Buffer.from(this.mask(whole.slice(0, cut)), 'utf8');
    for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at, bytes.length - at, this.written + at);
    this.written += bytes.length;
  }

  /** Everything written, in order, as text; the file is closed and gone after. */
  *drain(): Generator<string> {
    const decoder = new StringDecoder('utf8');
    const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, Math.max(1, this.written)));
    try {
      for (let at = 0; at < this.written; ) {
        const read = readSync(this.fd, buffer, 0, buffer.length, at);
        if (read === 0) break;
        at += read;
        yield decoder.write(buffer.subarray(0, read));
      }
      yield decoder.end() + this.tail;
    } finally {
      closeSync(this.fd);
      this.remove();
    }
  }

  private remove(): void {
    if (this.removed) return;
    try {
      rmSync(this.dir, { recursive: true, force: true });
      this.removed = true;
    } catch {
      // Windows keeps an open file: removed once drained
    }
  }
}
