// Help as the built binary writes it (contract section 12): at the terminal's width on a terminal, at 80 columns
// into a pipe, a file or /dev/null. Where stdout is not a terminal the help goes straight to the file
// descriptor (src/io.ts), without the stream Node builds for it: these runs are real processes, so that both
// ways are the process's own.
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, has, inTerminal, shellQuote, stripEscapes, withTempDir } from './harness.js';

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
    await withTempDir('scpctl-help-', async (dir) => {
      const file = join(dir, 'help.txt');
      const filed = await helpInto(`> ${shellQuote(file)}`);
      expect(filed.exitCode, filed.stderr).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(`${piped.stdout}\n`);
      const discarded = await helpInto('> /dev/null');
      expect(discarded.exitCode, discarded.stderr).toBe(0);
      expect(discarded.stderr).toBe('');
    });
  });

  it('a reader that has gone away is not an error: exit 0, nothing on stderr (help, and the launcher\'s --version)', async () => {
    for (const args of [['buckets', '--help'], ['--version']]) {
      // The read end is closed before the child has even started, so its one write meets EPIPE.
      const child = execa('node', [BIN, ...args], { env: ENV, extendEnv: false, reject: false, stdin: 'ignore', buffer: { stdout: false } });
      child.stdout!.destroy();
      const result = await child;
      expect(result.exitCode, args.join(' ')).toBe(0);
      expect(String(result.stderr), args.join(' ')).toBe('');
    }
  });

  it('a full disk is one line and exit 1 (help, and the launcher\'s --version)', async () => {
    for (const args of ['buckets --help', '--version']) {
      const full = await execa('sh', ['-c', `exec node ${shellQuote(BIN)} ${args} > /dev/full`], { env: ENV, extendEnv: false, reject: false, stdin: 'ignore' });
      expect(full.exitCode, args).toBe(1);
      expect(full.stderr, args).toBe('scpctl: cannot write the output: ENOSPC');
    }
  });

  it('without NO_COLOR too, help into a pipe never makes the stdout stream (it loads net: 4 ms)', async () => {
    await withTempDir('scpctl-help-probe-', async (dir) => {
      // Says on stderr when anything first reads process.stdout.
      const probe = join(dir, 'probe.cjs');
      writeFileSync(probe, `const d = Object.getOwnPropertyDescriptor(process, 'stdout');
Object.defineProperty(process, 'stdout', { configurable: true, enumerable: d.enumerable, get() { require('fs').writeSync(2, 'stdout stream made\\n'); return d.get.call(this); } });
`);
      const env = { PATH: process.env.PATH, TERM: 'xterm-256color' };
      const help = await execa('node', ['--require', probe, BIN, 'buckets', '--help'], { env, extendEnv: false, reject: false, stdin: 'ignore' });
      expect(help.exitCode, help.stderr).toBe(0);
      expect(help.stdout).toMatch(/^Usage: scpctl buckets /);
      expect(help.stderr).toBe('');
      // The probe itself works: a command that writes through the stream trips it.
      const completion = await execa('node', ['--require', probe, BIN, 'completion', 'bash'], { env, extendEnv: false, reject: false, stdin: 'ignore' });
      expect(completion.exitCode).toBe(0);
      expect(completion.stderr).toContain('stdout stream made');
    });
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
