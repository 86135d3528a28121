// `buckets sync`, `--wait`, and the lost-answer case, end to end against the emulator.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envFor, scpctl, startEmulator, type Emulator, useEmulator } from './harness.js';

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
useEmulator(['--profile', 'finance'], (suite) => ({ emu, dir, env } = suite));
beforeEach(async () => {
  await emu.clearFaults();
  await emu.setProfile('finance', ['keep-one', 'keep-two', 'old-one']);
  await emu.clearRequests();
});

const run = (args: string[], extra: Parameters<typeof scpctl>[1] = {}) => scpctl(args, { env, ...extra });

function desired(...names: string[]): string {
  const file = join(dir, `desired-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(file, `# allowlist\n${names.join('\n')}\n`);
  return file;
}

describe('sync', () => {
  it('adds and deletes in one modify request, printing the plan on stdout', async () => {
    const r = await run(['buckets', 'sync', 'finance', '-f', desired('keep-one', 'keep-two', 'new-one')]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('+ new-one\n- old-one\n');
    expect(r.stderr).toContain('1 added, 1 deleted');
    const sent = await emu.changes();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.query.op).toBe('modifyBucketList');
    expect(JSON.parse(sent[0]!.body)).toEqual({ addList: 'new-one', deleteList: 'old-one' });
    expect((await emu.profile('finance')).buckets.sort()).toEqual(['keep-one', 'keep-two', 'new-one']);
  });

  it('adds only: the body has no deleteList', async () => {
    await run(['buckets', 'sync', 'finance', '-f', desired('keep-one', 'keep-two', 'old-one', 'new-a', 'new-b')]);
    expect(JSON.parse((await emu.changes())[0]!.body)).toEqual({ addList: 'new-a,new-b' });
  });

  it('deletes only: the body has no addList', async () => {
    await run(['buckets', 'sync', 'finance', '-f', desired('keep-one')]);
    expect(JSON.parse((await emu.changes())[0]!.body)).toEqual({ deleteList: 'keep-two,old-one' });
  });

  it('nothing to change: says so, sends no mutation, exit 0 even with --exit-code', async () => {
    const r = await run(['buckets', 'sync', 'finance', '-f', desired('old-one', 'keep-two', 'keep-one'), '--exit-code']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('finance is in sync (3 buckets): nothing to change');
    expect(await emu.changes()).toEqual([]);
  });

  it('--dry-run sends no mutation; --exit-code makes differences exit 8', async () => {
    const file = desired('keep-one', 'brand-new');
    const dry = await run(['buckets', 'sync', 'finance', '-f', file, '--dry-run']);
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout).toBe('+ brand-new\n- keep-two\n- old-one\n');
    const coded = await run(['buckets', 'sync', 'finance', '-f', file, '--dry-run', '--exit-code']);
    expect(coded.exitCode).toBe(8);
    expect(coded.stderr).not.toContain('scpctl:');
    expect(await emu.changes()).toEqual([]);
    const applied = await run(['buckets', 'sync', 'finance', '-f', file, '--exit-code']);
    expect(applied.exitCode).toBe(8);
    expect(await emu.changes()).toHaveLength(1);
  });

  it('--json prints only the result object', async () => {
    const r = await run(['buckets', 'sync', 'finance', '-f', desired('keep-one', 'keep-two', 'x-new'), '--json']);
    expect(JSON.parse(r.stdout)).toEqual({ profile: 'finance', add: ['x-new'], delete: ['old-one'], applied: true });
    const dry = await run(['buckets', 'sync', 'finance', '-f', desired('keep-one'), '--json', '--dry-run']);
    expect(JSON.parse(dry.stdout)).toEqual({ profile: 'finance', add: [], delete: ['keep-two', 'x-new'], applied: false });
  });

  it('refuses an empty desired list unless --allow-empty', async () => {
    const empty = desired();
    const refused = await run(['buckets', 'sync', 'finance', '-f', empty]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--allow-empty');
    expect(await emu.requests()).toEqual([]);
    const allowed = await run(['buckets', 'sync', 'finance', '-f', empty, '--allow-empty']);
    expect(allowed.exitCode).toBe(0);
    expect((await emu.profile('finance')).buckets).toEqual([]);
  });

  it('needs -f', async () => {
    const r = await run(['buckets', 'sync', 'finance']);
    expect(r.exitCode).toBe(2);
  });

  it('--verify catches a concurrent change made right after ours', async () => {
    await emu.faults([{ kind: 'tamper', endpoint: 'bucket', op: 'modifyBucketList', append: ['rogue-bucket'] }]);
    const r = await run(['buckets', 'sync', 'finance', '-f', desired('keep-one', 'new-one'), '--verify']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^scpctl: verify: finance does not match after the sync: unexpected rogue-bucket/m);
  });

  it('--verify passes when the list matches', async () => {
    const r = await run(['buckets', 'sync', 'finance', '-f', desired('keep-one', 'new-one'), '--verify']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('✔ verified');
  });

  it('reads the desired list from standard input with -f -', async () => {
    const r = await run(['buckets', 'sync', 'finance', '-f', '-', '--dry-run'], { input: 'keep-one\nkeep-two\nold-one\n' });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
  });
});

describe('--wait', () => {
  it('rides out a pending change until it clears', async () => {
    await emu.setPending('finance', 1200);
    const before = (await emu.requests()).length;
    const r = await run(['buckets', 'append', 'finance', 'after-wait', '--wait', '20', '--verbose']);
    expect(r.exitCode).toBe(0);
    // It waits between tries: a few attempts, not one every few milliseconds until the change clears. (The
    // time is no measure: the emulator shares the test's clock, so the change clears only once it has passed.)
    const attempts = (await emu.requests()).slice(before).filter((q) => q.op === 'appendToBucketList');
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts.length).toBeLessThanOrEqual(5);
    expect(r.stderr).toMatch(/finance: change pending; attempt 1, waited \d+ s of 20 s/);
    expect((await emu.profile('finance')).buckets).toContain('after-wait');
  });

  it('runs out with exit 5, saying how long it waited', async () => {
    await emu.setPending('finance', 60_000);
    const r = await run(['buckets', 'view', 'finance', '--wait', '1']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toMatch(/still pending after waiting 1 s/);
    await emu.setPending('finance', 0);
  });

  it('rejects a bad --wait value before sending', async () => {
    const r = await run(['buckets', 'view', 'finance', '--wait', 'soon']);
    expect(r.exitCode).toBe(2);
    expect(await emu.requests()).toEqual([]);
  });
});

describe('a mutation whose answer was lost', () => {
  let slow: Emulator;
  beforeAll(async () => {
    slow = await startEmulator(['--profile', 'finance', '--pending-ms', '3000']);
  });
  afterAll(async () => slow?.stop());

  it('says the first attempt may have been applied instead of blaming someone else', async () => {
    await slow.faults([{ kind: 'delay', endpoint: 'bucket', op: 'appendToBucketList', ms: 5000 }]);
    const r = await scpctl(['buckets', 'append', 'finance', 'lost-answer', '--timeout', '1', '--retries', '1'], {
      env: envFor(slow, dir),
    });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('the first attempt got no answer');
    expect(r.stderr).toContain('may have been applied');
    expect(r.stderr).toContain('scpctl buckets view finance --wait');
    // It was applied: the emulator processed the first attempt before holding its answer.
    expect((await slow.profile('finance')).buckets).toContain('lost-answer');
  });
});
