// Reading names sources and the piped token: capped per source, strictly UTF-8.
import { Readable } from 'node:stream';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { MAX_INPUT_BYTES, readInput } from '../../src/files/read-input.js';
import { decodeUtf8 } from '../../src/core/utf8.js';

const dir = mkdtempSync(join(tmpdir(), 'scpctl-read-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readStdin = async (stream: NodeJS.ReadableStream, limit?: number): Promise<string> => (await readInput(stream, limit)).toString();
const readTextFile = async (path: string, limit?: number): Promise<string> => (await readInput(path, limit)).toString();

const bytes = (...parts: Array<string | number[]>): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

describe('readStdin', () => {
  it('reads every chunk, Buffers and strings alike', async () => {
    expect(await readStdin(Readable.from([Buffer.from('alpha\n'), 'beta\n']))).toBe('alpha\nbeta\n');
  });

  it('allows exactly the limit and refuses one byte more, naming stdin and the limit', async () => {
    expect(await readStdin(Readable.from([Buffer.alloc(10, 'a')]), 10)).toBe('a'.repeat(10));
    const over = readStdin(Readable.from([Buffer.alloc(6, 'a'), Buffer.alloc(5, 'a')]), 10);
    await expect(over).rejects.toThrow(UsageError);
    await expect(readStdin(Readable.from([Buffer.alloc(11)]), 10)).rejects.toThrow(/^stdin: larger than the input limit of 10 bytes$/);
  });

  it('stops reading an endless stream at the limit', async () => {
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled++;
        this.push(Buffer.alloc(1024 * 1024));
      },
    });
    await expect(readStdin(endless, 4 * 1024 * 1024)).rejects.toThrow(/^stdin: larger than the input limit of 4 MiB \(4,194,304 bytes\)$/);
    expect(pulled).toBeLessThan(10);
    expect(endless.destroyed).toBe(true);
  });

  it('has a limit of 32 MiB by default', () => {
    expect(MAX_INPUT_BYTES).toBe(32 * 1024 * 1024);
  });

  it('refuses bytes that are not UTF-8, naming stdin and the line', async () => {
    await expect(readStdin(Readable.from([bytes('good-name\nbad', [0xff], '\n')]))).rejects.toThrow(/^stdin:2: not valid UTF-8$/);
  });
});

describe('readTextFile', () => {
  it('reads a file, keeping a byte-order mark for the name reader to drop', async () => {
    const path = join(dir, 'names.txt');
    writeFileSync(path, '\ufeffalpha\r\nbeta\n');
    expect(await readTextFile(path)).toBe('\ufeffalpha\r\nbeta\n');
  });

  it('refuses a regular file over the limit by its size, naming it', async () => {
    const path = join(dir, 'sparse.bin');
    writeFileSync(path, '');
    truncateSync(path, MAX_INPUT_BYTES + 1); // sparse: nothing is written, nothing is read
    await expect(readTextFile(path)).rejects.toThrow(`${path}: larger than the input limit of 32 MiB (33,554,432 bytes)`);
    const small = join(dir, 'small.txt');
    writeFileSync(small, 'x'.repeat(11));
    await expect(readTextFile(small, 10)).rejects.toThrow(/larger than the input limit of 10 bytes/);
    expect(await readTextFile(small, 11)).toBe('x'.repeat(11));
  });

  it.runIf(process.platform === 'linux')('reads a regular file to its end whatever size it says, and stops at the limit', async () => {
    // Files under /proc say they are 0 bytes long and hold more: the read goes by what the file gives, as
    // for a file that grows while it is read.
    expect(await readTextFile('/proc/self/status')).toMatch(/^Name:/);
    await expect(readTextFile('/proc/self/status', 10)).rejects.toThrow(/^\/proc\/self\/status: larger than the input limit of 10 bytes$/);
  });

  it.runIf(process.platform !== 'win32')('counts what a character device gives and stops at the limit', async () => {
    await expect(readTextFile('/dev/zero', 3 * 1024 * 1024)).rejects.toThrow(/^\/dev\/zero: larger than the input limit of 3 MiB/);
  });

  it('says why a file cannot be read', async () => {
    await expect(readTextFile(join(dir, 'missing.txt'))).rejects.toThrow(/^cannot read .*missing\.txt: no such file$/);
    await expect(readTextFile(dir)).rejects.toThrow(/: it is a folder$/);
  });

  it('refuses a file that is not UTF-8, naming the file and the line', async () => {
    const path = join(dir, 'latin1.txt');
    writeFileSync(path, bytes('alpha\n', 'caf', [0xe9], '-bucket\n'));
    await expect(readTextFile(path)).rejects.toThrow(`${path}:2: not valid UTF-8`);
  });
});

describe('decodeUtf8', () => {
  it('decodes valid UTF-8, a real U+FFFD included', () => {
    expect(decodeUtf8(bytes('a', [0xef, 0xbf, 0xbd], 'b'), 'f')).toBe('a\ufffdb');
  });

  it.each([
    ['a lone continuation byte', bytes('ok\nok\n', [0x80])],
    ['a truncated sequence at the end', bytes('ok\nok\nab', [0xe2, 0x82])],
    ['an overlong encoding', bytes('ok\nok\n', [0xc0, 0xaf])],
    ['a UTF-16 surrogate', bytes('ok\nok\n', [0xed, 0xa0, 0x80])],
    ['a real U+FFFD on an earlier line', bytes('a', [0xef, 0xbf, 0xbd], '\nok\n', [0xff], 'x\nok')],
  ])('names the first invalid line: %s', (_, input) => {
    expect(() => decodeUtf8(input, 'names.txt')).toThrow(/^names\.txt:3: not valid UTF-8$/);
  });

  it('counts CRLF lines like LF lines', () => {
    expect(() => decodeUtf8(bytes('a\r\nb\r\n', [0xfe], '\r\n'), 'stdin')).toThrow(/^stdin:3: /);
  });
});
