// State files are plain files or nothing (files/plain-file.ts): what is refused is never opened blocking,
// never read, never renamed over. Real FIFOs, a real socket and a real device.
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NotPlainFile, openPlainFile, readPlainFile } from '../../src/files/plain-file.js';
import { writeFileAtomically } from '../../src/files/atomic-write.js';

const dir = mkdtempSync(join(tmpdir(), 'scpctl-plain-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fifo = join(dir, 'fifo');
execFileSync('mkfifo', [fifo]);

describe('readPlainFile and openPlainFile', () => {
  it('a FIFO (a symlink to one too), a socket and a device: NotPlainFile saying which, at once', async () => {
    const socket = join(dir, 'socket');
    const server = createServer();
    await new Promise<void>((listening) => server.listen(socket, listening));
    symlinkSync(fifo, join(dir, 'to-fifo'));
    try {
      for (const [path, kind] of [[fifo, 'a FIFO'], [join(dir, 'to-fifo'), 'a FIFO'], [socket, 'a socket'], ['/dev/null', 'a device']] as const) {
        expect(() => readPlainFile(path), path).toThrow(new NotPlainFile(path, kind));
        await expect(openPlainFile(path), path).rejects.toThrow(`${path} is ${kind}, not a regular file`);
      }
    } finally {
      server.close();
    }
  });

  it('a regular file is read; a missing one is undefined', async () => {
    const path = join(dir, 'plain.json');
    writeFileSync(path, '{"a":1}');
    expect(readPlainFile(path)?.toString()).toBe('{"a":1}');
    const opened = (await openPlainFile(path))!;
    expect(opened.stats.size).toBe(7);
    await opened.handle.close();
    expect(readPlainFile(join(dir, 'missing'))).toBeUndefined();
    expect(await openPlainFile(join(dir, 'missing'))).toBeUndefined();
  });
});

it('writeFileAtomically never renames over a FIFO: NotPlainFile, the FIFO left, no temporary file', () => {
  const before = readdirSync(dir).sort();
  expect(() => writeFileAtomically(fifo, 'text')).toThrow(NotPlainFile);
  expect(statSync(fifo).isFIFO()).toBe(true);
  expect(readdirSync(dir).sort()).toEqual(before);
});
