// History is scpctl's alone, and every list that can be emptied is guarded and kept (contract section 13).
// Each test is an attack on a state folder someone else can write, or a slip at the keyboard, reproduced on
// the code before the defence.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, scpctl, tempDir, type Emulator, useEmulator } from './harness.js';

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
useEmulator(['--profile', 'finance', '--profile', 'legal'], (suite) => ({ emu, dir, env } = suite));

let state: string;
const made: string[] = [];
beforeEach(async () => {
  await emu.setProfile('finance', ['alpha-data', 'bravo-logs']);
  await emu.setProfile('legal', ['legal-one']);
  await emu.clearRequests();
  state = tempDir('scpctl-state-');
  made.push(state);
});
afterEach(() => {
  for (const folder of made.splice(0)) removeDir(folder);
});

const run = (args: string[], extra: Record<string, string | undefined> = {}) => scpctl(args, { env: { ...env, SCPCTL_STATE_DIR: state, ...extra } });

/** The folder of finance's versions in the default context, made by one replace. */
async function financeFolder(): Promise<string> {
  expect((await run(['buckets', 'replace', 'finance', 'alpha-data', 'bravo-logs', 'charlie-x'])).exitCode).toBe(0);
  await emu.clearRequests();
  const files = readdirSync(state, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return files[0]!.parentPath;
}

describe('a planted state folder', () => {
  it("a symlink where a profile's folder goes is not written through, and nothing in its target is pruned", async () => {
    const folder = await financeFolder();
    removeDir(folder);
    const target = join(state, '..', `target-${Math.random().toString(36).slice(2)}`);
    mkdirSync(target);
    made.push(target);
    for (const name of ['packages.json', 'abcdefgh1234.json', 'zzzzzzzzzzzz.json']) writeFileSync(join(target, name), 'keep me\n');
    symlinkSync(target, folder);
    const r = await run(['buckets', 'replace', 'finance', 'only-one', '--allow-empty']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`the history folder ${folder} is a symlink`);
    expect(await emu.changes()).toEqual([]);
    expect(readdirSync(target).sort()).toEqual(['abcdefgh1234.json', 'packages.json', 'zzzzzzzzzzzz.json']);
    expect((await emu.profile('finance')).buckets).toEqual(['alpha-data', 'bravo-logs', 'charlie-x']);
  });

  it('a state folder that others can write is refused (exit 2, naming it), before anything is sent', async () => {
    await financeFolder();
    const history = join(state, 'history');
    chmodSync(history, 0o777);
    const r = await run(['buckets', 'replace', 'finance', 'other-one']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`the history folder ${history} is writable by others (mode 777)`);
    expect(await emu.changes()).toEqual([]);
    const listed = await run(['buckets', 'history', 'finance']);
    expect(listed.exitCode).toBe(2);
  });

  it('pruning removes only its own entries: an id-shaped file that is not one stays', async () => {
    const folder = await financeFolder();
    writeFileSync(join(folder, 'aaaaaaaaaaaa.json'), '{"not":"scpctl"}\n[]\n');
    writeFileSync(join(folder, 'packages.json'), '{}\n');
    for (let i = 0; i < 3; i++) expect((await run(['buckets', 'replace', 'finance', `n-${i}-x`])).exitCode).toBe(0);
    // historyKeep 2: two own versions are left, the strangers stay.
    expect((await run(['config', 'set', 'historyKeep', '2'])).exitCode).toBe(0);
    expect((await run(['buckets', 'replace', 'finance', 'last-one'])).exitCode).toBe(0);
    const left = readdirSync(folder).sort();
    expect(left).toContain('aaaaaaaaaaaa.json');
    expect(left).toContain('packages.json');
    expect(left.filter((f) => f !== 'aaaaaaaaaaaa.json' && f !== 'packages.json')).toHaveLength(2);
    await run(['config', 'unset', 'historyKeep']);
  });
});

describe('entries are checked before they are shown or restored', () => {
  it('header fields from a planted entry are validated: an OSC sequence never reaches the terminal', async () => {
    const folder = await financeFolder();
    const osc = '\u001b]0;owned\u0007';
    writeFileSync(join(folder, 'zzzzzzzzzzz1.json'), `${JSON.stringify({ id: 'zzzzzzzzzzz1', time: `2026-01-01T00:00:00Z${osc}`, operation: `replace${osc}`, count: 1, profile: 'finance', context: 'default' })}\n["x-y-z"]\n`);
    const r = await run(['buckets', 'history', 'finance', '-o', 'table']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(/[\u0007\u001b]/);
    expect(r.stdout).not.toContain('zzzzzzzzzzz1');
  });

  it('a damaged entry is exit 2 "history version ID is damaged", for --show and restore', async () => {
    const folder = await financeFolder();
    const [file] = readdirSync(folder);
    const id = file!.slice(0, -5);
    const text = readFileSync(join(folder, file!), 'utf8');
    writeFileSync(join(folder, file!), text.slice(0, text.indexOf('\n') + 5));
    for (const args of [['buckets', 'history', 'finance', '--show', id], ['buckets', 'restore', 'finance', '--to', id]]) {
      const r = await run(args);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(`scpctl: history version ${id} is damaged`);
      expect(r.stderr).not.toContain('unexpected failure');
    }
    expect(await emu.changes()).toEqual([]);
  });

  it('an entry copied from another context is not restored', async () => {
    expect((await run(['--context', 'other', 'config', 'set', 'timeout', '30'])).exitCode).toBe(0);
    expect((await run(['buckets', 'replace', 'finance', 'other-ctx-list'], { SCPCTL_CONTEXT: 'other' })).exitCode).toBe(0);
    const folder = await financeFolder();
    const otherFile = readdirSync(state, { recursive: true, withFileTypes: true }).find((e) => e.isFile() && e.parentPath.includes('/other/'))!;
    copyFileSync(join(otherFile.parentPath, otherFile.name), join(folder, otherFile.name));
    const id = otherFile.name.slice(0, -5);
    const r = await run(['buckets', 'restore', 'finance', '--to', id]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`history version ${id} was kept for profile "finance" of context "other"`);
    expect(await emu.changes()).toEqual([]);
  });
});

describe('delete and modify are guarded and kept', () => {
  it('delete of every name needs --allow-empty (exit 2, nothing sent); with it, the old list is kept', async () => {
    const refused = await run(['buckets', 'delete', 'finance', 'alpha-data', 'bravo-logs']);
    expect(refused.exitCode, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('refusing to delete every bucket of finance: the list would be empty; nothing was sent');
    expect(await emu.changes()).toEqual([]);
    const allowed = await run(['buckets', 'delete', 'finance', 'alpha-data', 'bravo-logs', '--allow-empty']);
    expect(allowed.exitCode, allowed.stderr).toBe(0);
    expect((await emu.profile('finance')).buckets).toEqual([]);
    const history = JSON.parse((await run(['buckets', 'history', 'finance', '--json'])).stdout);
    expect(history).toMatchObject([{ operation: 'delete', count: 2 }]);
    const shown = await run(['buckets', 'history', 'finance', '--show', history[0].id]);
    expect(shown.stdout).toBe('alpha-data\nbravo-logs\n');
  });

  it('modify that deletes every name and adds none needs --allow-empty; a version is kept', async () => {
    const refused = await run(['buckets', 'modify', 'finance', '--delete', 'alpha-data,bravo-logs']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('refusing to modify every bucket of finance');
    expect(await emu.changes()).toEqual([]);
    expect((await run(['buckets', 'modify', 'finance', '--delete', 'alpha-data', '--add', 'new-one'])).exitCode).toBe(0);
    const history = JSON.parse((await run(['buckets', 'history', 'finance', '--json'])).stdout);
    expect(history).toMatchObject([{ operation: 'modify', count: 2 }]);
  });

  it('--no-history sends exactly one request and keeps nothing', async () => {
    const r = await run(['buckets', 'delete', 'finance', 'alpha-data', 'bravo-logs', '--no-history']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await emu.requests()).map((q) => q.op)).toEqual(['deleteFromBucketList']);
    expect(JSON.parse((await run(['buckets', 'history', 'finance', '--json'])).stdout)).toEqual([]);
  });
});
