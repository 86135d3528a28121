// Help as the built binary writes it (contract section 12): at the terminal's width on a terminal, at 80 columns
// into a pipe, a file or /dev/null. Where stdout is not a terminal the help goes straight to the file
// descriptor (src/io.ts), without the stream Node builds for it: these runs are real processes, so that both
// ways are the process's own.
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, has, inTerminal, removeDir, shellQuote, stripEscapes, tempDir } from './harness.js';

const ENV = { PATH: process.env.PATH, NO_COLOR: '1' };
const widest = (text: string): number => Math.max(...text.split('\n').map((line) => line.replace(/\r$/, '').length));

/** `--help` run by sh with its stdout sent where `redirect` says. */
const helpInto = (redirect: string) =>
  execa('sh', ['-c', `exec node ${shellQuote(BIN)} --help ${redirect}`], { env: ENV, extendEnv: false, reject: false, stdin: 'ignore' });

describe('help out of a terminal', () => {
  it('into a pipe, a file and /dev/null: the same text, at 80 columns, exit 0', async () => {
    const piped = await execa('node', [BIN, '--help'], { env: ENV, extendEnv: false, reject: false, stdin: 'ignore' });
    expect(piped.exitCode, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(/^Usage: scpctl /);
    // The description of --token-file is longer than 80 columns unwrapped: the width was applied, not missed.
    expect(piped.stdout).toMatch(/--token-file <file> +read the API token from a file \(env SCPCTL_TOKEN_FILE;\n +or set SCPCTL_TOKEN\)/);
    expect(widest(piped.stdout)).toBeLessThanOrEqual(80);
    const dir = tempDir('scpctl-help-');
    try {
      const file = join(dir, 'help.txt');
      const filed = await helpInto(`> ${shellQuote(file)}`);
      expect(filed.exitCode, filed.stderr).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(`${piped.stdout}\n`);
      const discarded = await helpInto('> /dev/null');
      expect(discarded.exitCode, discarded.stderr).toBe(0);
      expect(discarded.stderr).toBe('');
    } finally {
      removeDir(dir);
    }
  });

  it('a reader that has gone away is not an error: exit 0, nothing on stderr', async () => {
    // The read end is closed before the child has even started, so its one write meets EPIPE.
    const child = execa('node', [BIN, 'buckets', '--help'], { env: ENV, extendEnv: false, reject: false, stdin: 'ignore', buffer: { stdout: false } });
    child.stdout!.destroy();
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(String(result.stderr)).toBe('');
  });
});

describe.skipIf(!has('script'))('help on a terminal (script)', () => {
  it("wraps at the terminal's width, not at 80", async () => {
    const narrow = await inTerminal(['--help'], ENV, { cols: 70 });
    expect(narrow.exitCode).toBe(0);
    const text = stripEscapes(narrow.output);
    expect(text).toMatch(/Usage: scpctl /);
    expect(widest(text)).toBeLessThanOrEqual(70);
    const wide = await inTerminal(['--help'], ENV, { cols: 160 });
    expect(stripEscapes(wide.output)).toMatch(/--token-file <file> +read the API token from a file \(env SCPCTL_TOKEN_FILE; or set SCPCTL_TOKEN\)/);
    expect(widest(stripEscapes(wide.output))).toBeGreaterThan(80);
  });
});
