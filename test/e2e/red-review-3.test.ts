// Third red-team review (the session's refactors of the writers, the fan-out and the commands): each test
// reproduces a finding on the code before its fix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envFor, has, loginContexts, removeDir, scpctl, startEmulator, tempDir, typeInTerminal, type Emulator, useEmulator } from './harness.js';

let emu: Emulator;
let env: Record<string, string | undefined>;
useEmulator(['--profile', 'finance'], (suite) => ({ emu, env } = suite));

describe('JSON on stdout holds no character a terminal obeys', () => {
  it('a dry run\'s body under --no-validate: a bidi override in a name is written as \\u202e, and reads back the same', async () => {
    const name = 'ab\u202ecd';
    const r = await scpctl(['buckets', 'append', 'finance', '--dry-run', '--json', '--no-validate'], { env, input: `${name}\n` });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('\u202e');
    expect(r.stdout).toContain('ab\\u202ecd');
    expect((JSON.parse(r.stdout) as { body: { list: string } }).body.list).toBe(name);
    expect(await emu.changes()).toEqual([]);
  });
});

describe('--contexts: standard input at a terminal is read once for every context', () => {
  let alpha: Emulator;
  let bravo: Emulator;
  let dir: string;
  let many: Record<string, string | undefined>;
  beforeAll(async () => {
    [alpha, bravo] = await Promise.all([startEmulator(['--profile', 'finance=alpha-one']), startEmulator(['--profile', 'finance=bravo-one'])]);
    dir = tempDir('scpctl-red3-');
    many = envFor(undefined, dir);
    await loginContexts(many, [['alpha', alpha.url, alpha.token], ['bravo', bravo.url, bravo.token]]);
  });
  afterAll(async () => {
    await Promise.all([alpha?.stop(), bravo?.stop()]);
    if (dir) removeDir(dir);
  });

  it.skipIf(!has('script'))('names typed for `-f -` reach every context whole: the contexts do not share out the lines of one terminal between them', async () => {
    // Two contexts at once, each reading the terminal itself: each line typed went to whichever read first, so
    // a sync would have given each tenant part of the list (and deleted the rest).
    const r = await typeInTerminal(['buckets', 'append', 'finance', '-f', '-', '--contexts', '*', '--yes'], many, [
      { when: /^/, keys: 'typed-one\r' },
      { when: /typed-one/, keys: 'typed-two\r' },
      { when: /typed-two/, keys: '\x04' },
    ]);
    expect(r.exitCode, r.screen).toBe(0);
    expect((await alpha.profile('finance')).buckets.sort()).toEqual(['alpha-one', 'typed-one', 'typed-two']);
    expect((await bravo.profile('finance')).buckets.sort()).toEqual(['bravo-one', 'typed-one', 'typed-two']);
  });
});

describe('on a GitHub runner (GITHUB_ACTIONS=true) stderr starts no workflow command', () => {
  it('a list file a pull request names `::warning ...::` or `x ##[add-mask]NAME`: its FILE:LINE lines are not obeyed by the runner', async () => {
    // The runner obeys a line that starts with `::` once its leading spaces are trimmed (the detail lines are
    // indented), and one that holds `##[` anywhere: add-mask would hide a name from the log, no line break needed.
    const dir = tempDir('scpctl-red3-runner-');
    try {
      const files = ['::warning title=pwned::INJECTED', 'x ##[add-mask]alpha-data'];
      for (const file of files) writeFileSync(join(dir, file), 'bad_Name\n');
      writeFileSync(join(dir, 'scpctl.yaml'), `profiles:\n  finance:\n    files: ${JSON.stringify(files)}\n`);
      // As a workflow runs it, from the checkout: the FILE:LINE lines start with the file's name.
      const r = await scpctl(['apply', '-f', 'scpctl.yaml', '--dry-run'], { env: { ...env, GITHUB_ACTIONS: 'true' }, cwd: dir });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain('INJECTED:1: "bad_Name"');
      const lines = r.stderr.split('\n');
      expect(lines.filter((line) => line.trimStart().startsWith('::') || line.includes('##[')), r.stderr).toEqual([]);
      // Off a runner the message is as it always was.
      const plain = await scpctl(['apply', '-f', 'scpctl.yaml', '--dry-run'], { env, cwd: dir });
      expect(plain.stderr).toContain('  ::warning title=pwned::INJECTED:1: "bad_Name"');
    } finally {
      removeDir(dir);
    }
  });
});
