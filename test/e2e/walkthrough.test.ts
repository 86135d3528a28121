// docs/first-day.md ("A first day with scpctl", linked from the README), run as written: every line of its walkthrough block, in order, in a
// fresh folder with an empty config store, against `scpctl emulator` (on a free port instead of 8787).
// A line whose comment says "exits N" must exit N; every other line must exit 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { ROOT, removeDir, startEmulator, tempDir, type Emulator, scpctlOnPath } from './harness.js';

const GUIDE = readFileSync(join(ROOT, 'docs', 'first-day.md'), 'utf8');
const section = GUIDE.slice(GUIDE.indexOf('# A first day with scpctl'));
const block = (text: string): string => /```sh\n([\s\S]*?)```/.exec(text)![1]!;
const walkthrough = block(section.slice(section.indexOf('<!-- walkthrough -->')))
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'));

let emu: Emulator;
let work: string;
let env: Record<string, string>;
beforeAll(async () => {
  // As the guide starts it (`scpctl emulator`: token emulator-token, profiles demo and finance), on port 0.
  emu = await startEmulator(['--token', 'emulator-token']);
  work = tempDir('scpctl-first-day-');
  scpctlOnPath(join(work, 'bin'));
  const cfg = join(work, 'config');
  env = { PATH: `${join(work, 'bin')}:${process.env.PATH}`, HOME: work, SCPCTL_CONFIG_DIR: cfg, NO_COLOR: '1', SCPCTL_TOKEN_STORE: 'file' };
});
afterAll(async () => {
  await emu?.stop();
  removeDir(work);
});

describe('the first-day walkthrough (docs/first-day.md)', () => {
  it('starts the emulator as the plain `scpctl emulator`, at the address the walkthrough uses', () => {
    expect(block(section).trim()).toBe('scpctl emulator');
    expect(walkthrough.join('\n')).toContain('http://127.0.0.1:8787');
    expect(walkthrough.length).toBeGreaterThan(15);
  });

  it('runs, line by line, as written', { timeout: 120_000 }, async () => {
    const seen: Array<{ line: string; stdout: string; stderr: string }> = [];
    for (const line of walkthrough) {
      const command = line.replaceAll('http://127.0.0.1:8787', emu.url);
      const r = await execa('bash', ['-c', command], { cwd: work, env, extendEnv: false, reject: false, stripFinalNewline: false });
      const expected = Number(/#.*\bexits (\d+)/.exec(line)?.[1] ?? 0);
      const stdout = String(r.stdout);
      const stderr = String(r.stderr);
      expect(r.exitCode, `${line}\n${stderr}`).toBe(expected);
      expect(stderr, line).not.toMatch(/unexpected|\n\s+at /);
      expect(stdout + stderr, `${line}: the token shown`).not.toContain('emulator-token');
      seen.push({ line, stdout, stderr });
    }
    const of = (start: string) => seen.find((s) => s.line.startsWith(start))!;
    expect(of('echo emulator-token | scpctl login').stderr).toMatch(/^✔ logged in to http:\/\/127\.0\.0\.1:\d+ \(context default\)/);
    expect(of('scpctl doctor').stderr).toContain('✔ all checks passed');
    expect(of('scpctl buckets append finance -f new.txt --dry-run').stderr).toBe(
      'dry run: appendToBucketList finance would send 2 names: logs-eu-west-1, backups-2026; nothing sent\n',
    );
    expect(of('scpctl buckets sync finance -f allowlist.txt --dry-run').stdout).toBe('+ analytics-raw\n');
    expect(JSON.parse(of('scpctl buckets modify').stdout)).toEqual({
      profile: 'finance',
      operation: 'modifyBucketList',
      dryRun: true,
      body: { addList: 'tmp-scratch', deleteList: 'backups-2026' },
    });
    expect(of('scpctl report --type alert').stdout).toContain('count by user');
    expect(of('scpctl config get-contexts').stdout).toMatch(/^\*\s+default\s.*\n\s+staging\s/);
    expect(of('scpctl config use-context nope').stderr).toContain('no context named "nope"');
    expect(readFileSync(join(work, 'scpctl.bash'), 'utf8')).toContain('complete -F _scpctl scpctl');
    expect((await emu.profile('finance')).buckets).toEqual(['logs-eu-west-1', 'backups-2026', 'analytics-raw']);
  });
});
