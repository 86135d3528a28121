// History and restore end to end: what replace, sync and apply keep (and where, and how many), `buckets
// history`, and `buckets restore` bringing back the same names byte for byte.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOKEN, removeDir, scpctl, tempDir, type Emulator, useEmulator } from './harness.js';

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
useEmulator(['--profile', 'finance', '--profile', 'legal'], (suite) => ({ emu, dir, env } = suite));

let state: string;
beforeEach(async () => {
  await emu.setProfile('finance', ['alpha-data', 'bravo-logs']);
  await emu.setProfile('legal', ['legal-one']);
  await emu.clearRequests();
  state = tempDir('scpctl-state-');
  made.push(state);
});
const made: string[] = [];
afterEach(() => {
  for (const folder of made.splice(0)) removeDir(folder);
});

const run = (args: string[], extra: Parameters<typeof scpctl>[1] = {}) =>
  scpctl(args, { ...extra, env: { ...env, SCPCTL_STATE_DIR: state, ...extra.env } });

/** Every file under a folder, recursively. */
function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

async function historyJson(profile: string, extra: Parameters<typeof scpctl>[1] = {}) {
  const r = await run(['buckets', 'history', profile, '--json'], extra);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Array<{ id: string; time: string; operation: string; count: number }>;
}

describe('history is kept before a change', () => {
  it('replace reads the list first and keeps it; history lists it; --show prints its names', async () => {
    const r = await run(['buckets', 'replace', 'finance', 'charlie-new']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await emu.requests()).map((q) => q.op)).toEqual(['viewBucketList', 'replaceBucketList']);
    const versions = await historyJson('finance');
    expect(versions).toEqual([{ id: expect.stringMatching(/^[0-9a-z]{8,16}$/), time: expect.any(String), operation: 'replace', count: 2 }]);
    expect(Date.now() - Date.parse(versions[0]!.time)).toBeLessThan(60_000);
    const show = await run(['buckets', 'history', 'finance', '--show', versions[0]!.id]);
    expect(show.stdout).toBe('alpha-data\nbravo-logs\n');
    // Piped, the listing has no heading: one version a line, newest first.
    const listed = await run(['buckets', 'history', 'finance']);
    expect(listed.stdout).toMatch(new RegExp(`^${versions[0]!.id}  \\S+Z  replace\\s+2\\n$`));
  });

  it('replace with an output format it does not have: exit 2 before the history read, nothing sent or kept', async () => {
    const r = await run(['buckets', 'replace', 'finance', 'charlie-new', '-o', 'csv']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^scpctl: .*csv/);
    expect(await emu.requests()).toEqual([]);
    expect(await historyJson('finance')).toEqual([]);
  });

  it('replace --no-history sends one request and keeps nothing', async () => {
    const r = await run(['buckets', 'replace', 'finance', 'charlie-new', '--no-history']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await emu.requests()).map((q) => q.op)).toEqual(['replaceBucketList']);
    expect(await historyJson('finance')).toEqual([]);
    const none = await run(['buckets', 'history', 'finance']);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('no versions of finance kept');
  });

  it('sync and apply keep the list they read, newest first; a dry run keeps nothing', async () => {
    const file = join(state, 'desired.txt');
    writeFileSync(file, 'alpha-data\nsync-added\n');
    expect((await run(['buckets', 'sync', 'finance', '-f', file, '--dry-run'])).exitCode).toBe(0);
    expect(await historyJson('finance')).toEqual([]);
    const before = (await run(['buckets', 'view', 'finance', '-o', 'text'])).stdout;
    expect((await run(['buckets', 'sync', 'finance', '-f', file])).exitCode).toBe(0);
    const manifest = join(state, 'scpctl.yaml');
    writeFileSync(manifest, 'profiles:\n  finance:\n    buckets: [apply-added]\n');
    expect((await run(['apply', '-f', manifest])).exitCode).toBe(0);
    const versions = await historyJson('finance');
    expect(versions.map((v) => [v.operation, v.count])).toEqual([['apply', 2], ['sync', 2]]);
    const kept = await run(['buckets', 'history', 'finance', '--show', versions[0]!.id]);
    expect(kept.stdout).toBe('alpha-data\nsync-added\n');
    // sync keeps the answer's own text of a plain list: it shows as the list the view showed
    expect((await run(['buckets', 'history', 'finance', '--show', versions[1]!.id])).stdout).toBe(before);
  });

  it('keeps the newest historyKeep versions (history.keep accepted), per context and profile', async () => {
    expect((await run(['config', 'set', 'history.keep', '2'])).exitCode).toBe(0);
    try {
      for (const name of ['one-one', 'two-two', 'three-three']) expect((await run(['buckets', 'replace', 'finance', name])).exitCode).toBe(0);
      const versions = await historyJson('finance');
      expect(versions.map((v) => v.count)).toEqual([1, 1]);
      expect((await run(['buckets', 'history', 'finance', '--show', versions[0]!.id])).stdout).toBe('two-two\n');
      expect((await run(['buckets', 'history', 'finance', '--show', versions[1]!.id])).stdout).toBe('one-one\n');
      expect(await historyJson('legal')).toEqual([]);
      // Another context (it must exist: an unknown one is exit 2) has a history of its own.
      expect((await run(['--context', 'other', 'config', 'set', 'timeout', '30'])).exitCode).toBe(0);
      expect(await historyJson('finance', { env: { SCPCTL_CONTEXT: 'other' } })).toEqual([]);
      expect((await run(['config', 'set', 'historyKeep', 'many'])).exitCode).toBe(2);
    } finally {
      await run(['config', 'unset', 'historyKeep']);
    }
  });

  it('lives in SCPCTL_STATE_DIR, else XDG_STATE_HOME/scpctl, else ~/.local/state/scpctl; private, and never holds the token', async () => {
    expect((await run(['buckets', 'replace', 'finance', 'charlie-new'])).exitCode).toBe(0);
    const files = filesUnder(state);
    expect(files).toHaveLength(1);
    expect(statSync(files[0]!).mode & 0o777).toBe(0o600);
    const xdg = tempDir('scpctl-xdg-');
    made.push(xdg);
    expect((await run(['buckets', 'replace', 'finance', 'delta-new'], { env: { SCPCTL_STATE_DIR: undefined, XDG_STATE_HOME: xdg } })).exitCode).toBe(0);
    expect(filesUnder(join(xdg, 'scpctl'))).toHaveLength(1);
    const home = tempDir('scpctl-home-');
    made.push(home);
    expect((await run(['buckets', 'replace', 'finance', 'echo-new'], { env: { SCPCTL_STATE_DIR: undefined, HOME: home } })).exitCode).toBe(0);
    expect(filesUnder(join(home, '.local', 'state', 'scpctl'))).toHaveLength(1);
    for (const file of [...files, ...filesUnder(xdg), ...filesUnder(home)]) {
      const text = readFileSync(file, 'utf8');
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(encodeURIComponent(TOKEN));
    }
  });
});

describe('restore', () => {
  it('brings back the same names, each byte for byte, with one modifyBucketList (dry run first)', async () => {
    // Names the service holds that scpctl's own checks would not let a user type: they must come back exactly.
    const original = ['alpha-data', 'Ünïcode-Bucket', 'UPPER.case', 'x', 'bravo-logs', '日本-bucket'];
    await emu.setProfile('finance', original);
    expect((await run(['buckets', 'replace', 'finance', 'replacement-one', 'bravo-logs'])).exitCode).toBe(0);
    const [version] = await historyJson('finance');
    expect(version!.count).toBe(original.length);

    await emu.clearRequests();
    const dry = await run(['buckets', 'restore', 'finance', '--to', version!.id, '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toBe('+ alpha-data\n+ Ünïcode-Bucket\n+ UPPER.case\n+ x\n+ 日本-bucket\n- replacement-one\n');
    expect(dry.stderr).toContain('nothing sent');
    expect((await emu.requests()).map((q) => q.op)).toEqual(['viewBucketList']);

    await emu.clearRequests();
    const r = await run(['buckets', 'restore', 'finance', '--to', version!.id, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ profile: 'finance', version: version!.id, applied: true });
    expect((await emu.requests()).map((q) => q.op)).toEqual(['viewBucketList', 'modifyBucketList']);
    const live = (await emu.profile('finance')).buckets;
    expect(live.map((n) => Buffer.from(n, 'utf8').toString('hex')).sort()).toEqual(original.map((n) => Buffer.from(n, 'utf8').toString('hex')).sort());
    // The list restore replaced is itself kept, so a restore can be undone.
    const versions = await historyJson('finance');
    expect(versions.map((v) => [v.operation, v.count])).toEqual([['restore', 2], ['replace', original.length]]);
    const again = await run(['buckets', 'restore', 'finance', '--to', version!.id]);
    expect(again.stderr).toContain(`finance already holds version ${version!.id}`);
  });

  it('an unknown ID is exit 2; an empty version needs --allow-empty', async () => {
    const unknown = await run(['buckets', 'restore', 'finance', '--to', 'zzzzzzzzzzzz']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('no version "zzzzzzzzzzzz" of finance');
    expect((await run(['buckets', 'history', 'finance', '--show', '../../etc'])).exitCode).toBe(2);
    expect((await run(['buckets', 'restore', 'finance'])).exitCode).toBe(2);

    await emu.setProfile('legal', []);
    expect((await run(['buckets', 'replace', 'legal', 'legal-two'])).exitCode).toBe(0);
    const [empty] = await historyJson('legal');
    expect(empty!.count).toBe(0);
    await emu.clearRequests();
    const refused = await run(['buckets', 'restore', 'legal', '--to', empty!.id]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--allow-empty');
    expect(await emu.requests()).toEqual([]);
    const allowed = await run(['buckets', 'restore', 'legal', '--to', empty!.id, '--allow-empty']);
    expect(allowed.exitCode, allowed.stderr).toBe(0);
    expect((await emu.profile('legal')).buckets).toEqual([]);
  });
});

describe('history belongs to a context and the service it points at', () => {
  it('rename-context takes the versions along; a name used again for another tenant starts empty', async () => {
    const config = tempDir('scpctl-config-');
    made.push(config);
    const base = { ...env, SCPCTL_CONFIG_DIR: config, SCPCTL_BASE_URL: undefined, SCPCTL_TOKEN: undefined };
    const login = (context: string, url: string) =>
      run(['login', '--with-token', '--no-verify', '--base-url', url, '--context', context], { env: base, input: `${TOKEN}\n` });
    expect((await login('tenant-a', emu.url)).exitCode).toBe(0);
    expect((await run(['buckets', 'replace', 'finance', 'charlie-new', '--context', 'tenant-a'], { env: base })).exitCode).toBe(0);
    expect(await historyJson('finance', { env: { ...base, SCPCTL_CONTEXT: 'tenant-a' } })).toHaveLength(1);

    expect((await run(['config', 'rename-context', 'tenant-a', 'tenant-b'], { env: base })).exitCode).toBe(0);
    expect(await historyJson('finance', { env: { ...base, SCPCTL_CONTEXT: 'tenant-b' } })).toHaveLength(1);

    // The old name again, for another service (another address of the same emulator stands in for it).
    expect((await login('tenant-a', emu.url.replace('127.0.0.1', 'localhost'))).exitCode).toBe(0);
    expect(await historyJson('finance', { env: { ...base, SCPCTL_CONTEXT: 'tenant-a' } })).toEqual([]);
  });
});
