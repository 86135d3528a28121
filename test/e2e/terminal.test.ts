// What scpctl does in a real terminal: run inside a pseudo-terminal (`script` for the raw byte stream, tmux for
// the screen as a user sees it) against the emulator. On a terminal: a table, colours, a spinner while waiting.
// The decisions per variable follow src/output/terminal.ts and the contract (section 7):
//   table    stdout is a terminal (whatever NO_COLOR, TERM or CI say)
//   colours  stdout is a terminal, not NO_COLOR/--no-color, not TERM=dumb, not CI
//   spinner  stderr is a terminal with a width, not --quiet, not TERM=dumb, not CI (NO_COLOR only takes its colour)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { BIN, TOKEN, envFor, removeDir, scpctl, startEmulator, tempDir, type Emulator, has, inTerminal as terminalRun, shellQuote as quote, until, pollPane, stripEscapes as strip } from './harness.js';

const ESC = /\x1b/;
const SGR = /\x1b\[[0-9;]*m/; // a colour or another text attribute
const BORDERS = /[┌┐└┘│─┬┴┼├┤]/;
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/; // ora's "dots"
const PENDING_MS = 1000;

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
const LONG_NAME = `very-long-legacy-bucket-name-${'x'.repeat(90)}-end`;

beforeAll(async () => {
  // One profile per test, so that the tests in a pseudo-terminal can run at the same time.
  const profiles = Array.from({ length: 12 }, (_, i) => ['--profile', `term-${i}=alpha-one,beta-two`]).flat();
  emu = await startEmulator(['--profile', 'finance=alpha-one,beta-two', '--profile', 'wide', ...profiles]);
  dir = tempDir();
  env = envFor(emu, dir);
  const stored = await scpctl(['buckets', 'append', 'wide', LONG_NAME, 'short-one', '--no-validate'], { env });
  expect(stored.exitCode).toBe(0);
});
afterAll(async () => {
  await emu?.stop();
  removeDir(dir);
});

/** A run in an 80×40 pseudo-terminal with this file's environment; `pipe` adds a shell tail (`| cat`). */
const inTerminal = (args: string[], extra: Record<string, string | undefined> = {}, pipe = '') => terminalRun(args, { ...env, ...extra }, { pipe });

let profilesUsed = 0;

/**
 * Runs `start` while `profile` is pending, and clears the change only once the run has asked twice (so it
 * has waited, spinner and all, however slowly the machine started it).
 */
async function whilePending<T>(profile: string, start: () => Promise<T>): Promise<T> {
  await emu.setPending(profile, 60_000);
  const running = start();
  await until(async () => (await emu.requests()).filter((q) => q.name === profile).length >= 2, 20_000);
  await emu.setPending(profile, 0);
  return running;
}

/** `buckets view PROFILE --wait` while the profile is pending, so that the wait (and its spinner) runs. */
async function viewWhilePending(extra: Record<string, string | undefined> = {}, flags: string[] = [], pipe = '') {
  const profile = `term-${profilesUsed++}`;
  const r = await whilePending(profile, () => inTerminal(['buckets', 'view', profile, '--wait', '30', ...flags], extra, pipe));
  expect(r.exitCode).toBe(0);
  if (!pipe) expect(strip(r.output)).toContain(`${profile}: 2 buckets`);
  return r.output;
}

describe.skipIf(!has('script'))('in a pseudo-terminal (script)', { concurrent: true }, () => {
  it('a table with colours, and a spinner while a change is pending', async () => {
    const output = await viewWhilePending();
    expect(output).toMatch(BORDERS);
    expect(output).toMatch(SGR);
    expect(output).toMatch(SPINNER);
    expect(output).toContain('change pending');
  });

  it('NO_COLOR: the table and the spinner, without a single colour', async () => {
    const output = await viewWhilePending({ NO_COLOR: '1' });
    expect(output).toMatch(BORDERS);
    expect(output).toMatch(SPINNER);
    expect(output).not.toMatch(SGR);
  });

  it('--no-color: the same as NO_COLOR', async () => {
    const output = await viewWhilePending({}, ['--no-color']);
    expect(output).toMatch(BORDERS);
    expect(output).not.toMatch(SGR);
  });

  it('TERM=dumb: the table, but no escape sequence at all and no spinner', async () => {
    const output = await viewWhilePending({ TERM: 'dumb' });
    expect(output).toMatch(BORDERS);
    expect(output).not.toMatch(ESC);
    expect(output).not.toMatch(SPINNER);
  });

  it.each(['true', '1'])('CI=%s: the table, but no escape sequence at all and no spinner', async (ci) => {
    const output = await viewWhilePending({ CI: ci });
    expect(output).toMatch(BORDERS);
    expect(output).not.toMatch(ESC);
    expect(output).not.toMatch(SPINNER);
  });

  it('--quiet: no spinner', async () => {
    const output = await viewWhilePending({}, ['--quiet']);
    expect(output).not.toMatch(SPINNER);
  });

  it('stdout piped on a terminal: one name a line, no borders, no colour in the data; the spinner on stderr', async () => {
    const file = join(dir, 'piped.txt');
    const terminal = await viewWhilePending({}, [], ` | cat > ${quote(file)}`);
    expect(terminal, 'stderr is still the terminal: the spinner is wanted there').toMatch(SPINNER);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(file, 'utf8')).toBe('alpha-one\nbeta-two\n');
  });

  it('a terminal without a size gets no spinner (it could not be redrawn) and still finishes', async () => {
    const r = await whilePending('term-11', () =>
      execa('script', ['-qfec', `stty cols 0 rows 0; node ${quote(BIN)} buckets view term-11 --wait 30`, '/dev/null'], {
        env: { ...env, TERM: 'xterm-256color' } as Record<string, string>,
        extendEnv: false,
        stdin: 'ignore',
        reject: false,
        timeout: 20_000,
      }),
    );
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).not.toMatch(SPINNER);
    expect(strip(String(r.stdout))).toContain('term-11: 2 buckets');
  });
});

describe('piped, no terminal at all', () => {
  it('no borders, no escape sequences, no spinner, on stdout or stderr', async () => {
    await emu.setPending('finance', PENDING_MS);
    const r = await scpctl(['buckets', 'view', 'finance', '--wait', '30'], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('alpha-one\nbeta-two\n');
    for (const stream of [r.stdout, r.stderr]) {
      expect(stream).not.toMatch(BORDERS);
      expect(stream).not.toMatch(ESC);
      expect(stream).not.toMatch(SPINNER);
    }
  });

  it('FORCE_COLOR does not turn piped data into a table', async () => {
    const r = await scpctl(['buckets', 'view', 'finance'], { env: { ...env, FORCE_COLOR: '1' } });
    expect(r.stdout).toBe('alpha-one\nbeta-two\n');
  });
});

describe.skipIf(!has('tmux'))('on an 80-column screen (tmux)', () => {
  // A private server on a socket in the test's folder: nothing is left behind, nothing else is touched.
  const tmux = (...args: string[]) =>
    execa('tmux', ['-S', join(dir, 'tmux.sock'), ...args], { reject: false, env: { PATH: process.env.PATH! }, extendEnv: false });

  // One session lives as long as these tests: tmux ends its server with the last session, and a new-session
  // sent while it is ending fails with "server exited unexpectedly" (seen on a loaded machine).
  beforeAll(async () => {
    const kept = await tmux('new-session', '-d', '-s', 'keep', 'sleep 600');
    expect(kept.exitCode, String(kept.stderr)).toBe(0);
  });

  afterAll(async () => {
    await tmux('kill-server');
  });

  /** Runs scpctl as a tmux session's program and returns the screen (with escape codes) once it has finished. */
  async function screen(args: string[], extra: Record<string, string> = {}): Promise<string> {
    const session = `s${Math.random().toString(36).slice(2, 10)}`;
    const runner = join(dir, `${session}.sh`);
    // The environment goes through a file, so the token is not on the tmux command line.
    const exports = Object.entries({ ...env, TERM: 'xterm-256color', ...extra })
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `export ${k}=${quote(v!)}`)
      .join('\n');
    writeFileSync(runner, `${exports}\nnode ${quote(BIN)} ${args.map(quote).join(' ')}\necho "__exit $?"\nsleep 60\n`, { mode: 0o700 });
    try {
      const started = await tmux('new-session', '-d', '-s', session, '-x', '80', '-y', '40', `sh ${quote(runner)}`);
      expect(started.exitCode, String(started.stderr)).toBe(0);
      const shown = await pollPane(tmux, session, /__exit \d+/, 15_000, { escapes: true });
      expect(shown).toContain('__exit 0');
      expect(shown.includes(TOKEN), 'token leaked').toBe(false);
      return shown;
    } finally {
      await tmux('kill-session', '-t', session);
    }
  }

  it('a long name is cut with … and no line is wider than 80 columns', async () => {
    const shown = await screen(['buckets', 'view', 'wide']);
    const lines = strip(shown).split('\n');
    expect(lines.some((l) => l.includes('wide: 2 buckets'))).toBe(true);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    const row = lines.find((l) => l.includes('very-long-legacy'))!;
    expect(row).toMatch(/^│ +1 │ very-long-legacy-bucket-name-x+… │$/);
    expect([...row].length).toBe(80);
    expect(lines.some((l) => /^│ +2 │ short-one +│$/.test(l))).toBe(true);
  });

  it('shows the table in colour on the screen', async () => {
    const shown = await screen(['buckets', 'view', 'finance']);
    expect(shown).toMatch(SGR);
    expect(strip(shown)).toMatch(/┌─+┬─+┐/);
    expect(strip(shown)).toMatch(/│ +1 │ alpha-one +│/);
  });

  it('and without colour under NO_COLOR', async () => {
    const shown = await screen(['buckets', 'view', 'finance'], { NO_COLOR: '1' });
    expect(shown).not.toMatch(SGR);
    expect(shown).toMatch(/│ +1 │ alpha-one +│/);
  });
});
