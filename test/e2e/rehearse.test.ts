// Rehearsing a mutation (--dry-run), --wait that keeps the arguments after it, and a mutation whose answer
// was lost saying that it may have been applied. Whole commands against the emulator.
import { describe, expect, it } from 'vitest';
import { scpctl, useEmulator, type Emulator } from './harness.js';

let emu: Emulator;
let env: Record<string, string | undefined>;
useEmulator(['--profile', 'finance=a-bucket', '--profile', 'legal=l-bucket', '--profile', 'slow=s-bucket'], (suite) => {
  emu = suite.emu;
  env = suite.env;
});
const run = (args: string[], extra: Record<string, string | undefined> = {}, input?: string) =>
  scpctl(args, { env: { ...env, ...extra }, ...(input === undefined ? {} : { input }) });
const noCredentials = { SCPCTL_TOKEN: undefined, SCPCTL_BASE_URL: undefined };

describe('--dry-run on append, delete, replace and modify', () => {
  it.each([
    [['append', 'finance', 'new-one,new-two'], 'appendToBucketList', { list: 'new-one,new-two' }],
    [['delete', 'finance', 'a-bucket'], 'deleteFromBucketList', { list: 'a-bucket' }],
    [['replace', 'finance', 'only-one'], 'replaceBucketList', { list: 'only-one' }],
    [['modify', 'finance', '--add', 'x-one,x-two', '--delete', 'a-bucket'], 'modifyBucketList', { addList: 'x-one,x-two', deleteList: 'a-bucket' }],
  ] as const)('buckets %j: the exact wire body with --json, nothing sent, no token needed', async (args, operation, body) => {
    await emu.clearRequests();
    const r = await run(['buckets', ...args, '--dry-run', '--json'], noCredentials);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ profile: 'finance', operation, dryRun: true, body });
    expect(r.stderr).toMatch(new RegExp(`^dry run: ${operation} finance would send .*; nothing sent\\n$`));
    expect(await emu.requests()).toEqual([]);
    expect((await emu.profile('finance')).buckets).toEqual(['a-bucket']);
  });

  it('says what would be sent on stderr, the first names and how many more; stdout stays empty', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `bucket-${i}`).join('\n');
    const r = await run(['buckets', 'append', 'finance', '--dry-run'], noCredentials, names);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('dry run: appendToBucketList finance would send 8 names: bucket-0, bucket-1, bucket-2, bucket-3, bucket-4, … and 3 more; nothing sent\n');
  });

  it('still checks the names (exit 2) and the empty-list guard', async () => {
    const bad = await run(['buckets', 'append', 'finance', 'Bad_Name', '--dry-run'], noCredentials);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('arg 1: "Bad_Name"');
    const empty = await run(['buckets', 'replace', 'finance', '--dry-run'], noCredentials, '');
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('refusing to replace the list of finance with an empty list');
    const allowed = await run(['buckets', 'replace', 'finance', '--dry-run', '--allow-empty', '--json'], noCredentials, '');
    expect(JSON.parse(allowed.stdout).body).toEqual({ list: '' });
  });
});

describe('--wait keeps the arguments after it', () => {
  it('buckets append --wait finance a b: finance is the profile, the default wait applies', async () => {
    await emu.setProfile('legal', ['l-bucket']);
    await emu.setPending('legal', 600);
    const r = await run(['buckets', 'append', '--wait', 'legal', 'w-one', 'w-two']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('✔ appendToBucketList legal: 2 names sent');
    expect((await emu.profile('legal')).buckets).toEqual(['l-bucket', 'w-one', 'w-two']);
  });

  it('a number after --wait is still the seconds; view --wait PROFILE works', async () => {
    expect((await run(['buckets', 'view', '--wait', 'legal'])).stdout).toBe('l-bucket\nw-one\nw-two\n');
    expect((await run(['buckets', 'view', '--wait', '5', 'legal'])).stdout).toBe('l-bucket\nw-one\nw-two\n');
    const bad = await run(['buckets', 'view', 'legal', '--wait=soon']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--wait: "soon" is not a number of seconds');
  });
});

describe('a mutation whose answer was lost', () => {
  it('says it may have been applied and how to check (and it was)', async () => {
    await emu.faults([{ kind: 'delay', ms: 3000, endpoint: 'bucket', op: 'appendToBucketList' }]);
    const r = await run(['buckets', 'append', 'slow', 'late-bucket', '--timeout', '0.5', '--retries', '0']);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/^scpctl: no complete answer from .* \(timeout\); the change may have been applied\n/);
    expect(r.stderr).toContain('hint: Check with: scpctl buckets view slow. Sending the same change again is safe.');
    expect((await emu.profile('slow')).buckets).toContain('late-bucket');
  });

  it('a refused connection says nothing of the kind: nothing left this machine', async () => {
    const r = await run(['buckets', 'append', 'slow', 'x-bucket', '--retries', '0'], { SCPCTL_BASE_URL: 'http://127.0.0.1:9' });
    expect(r.exitCode).toBe(6);
    expect(r.stderr).not.toContain('may have been applied');
  });
});
