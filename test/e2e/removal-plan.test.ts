// What replace, delete and modify remove, before and as they send (contract sections 7 and 13): the plan with
// --dry-run --diff, the names a delete names that the list does not hold, and the guard against emptying a
// list judged on the list read after a --wait. Against both of the emulator's error styles.
import { describe, expect, it } from 'vitest';
import { ERROR_STYLES, type Emulator, scpctl, until, useEmulator } from './harness.js';

describe.each(ERROR_STYLES)('with $name', ({ args }) => {
  let emu: Emulator;
  let env: Record<string, string | undefined>;
  useEmulator(args, (suite) => ({ emu, env } = suite));
  const run = (line: string[]) => scpctl(line, { env });
  const changes = async (profile: string) => (await emu.requests()).filter((r) => r.name === profile && r.op !== 'viewBucketList');

  // Profiles of their own and no faults: these run at once; the --wait ones after them, one at a time.
  describe('--dry-run --diff reads the list and prints the plan as sync does; nothing is sent', { concurrent: true }, () => {
    it('replace: + and - lines; --json is sync\'s shape with "applied":false; --exit-code is 8', async () => {
      await emu.setProfile('diff-r', ['old-name', 'keep-one', 'keep-two']);
      const text = await run(['buckets', 'replace', 'diff-r', 'old-name', 'new-name', '--dry-run', '--diff']);
      expect(text.exitCode, text.stderr).toBe(0);
      expect(text.stdout).toBe('+ new-name\n- keep-one\n- keep-two\n');
      expect(text.stderr).toContain('dry run: replace diff-r would add 1 and delete 2; nothing sent');
      const json = await run(['buckets', 'replace', 'diff-r', 'old-name', 'new-name', '--dry-run', '--diff', '--json', '--exit-code']);
      expect(json.exitCode).toBe(8);
      expect(JSON.parse(json.stdout)).toEqual({ profile: 'diff-r', add: ['new-name'], delete: ['keep-one', 'keep-two'], applied: false });
      const same = await run(['buckets', 'replace', 'diff-r', 'old-name', 'keep-one', 'keep-two', '--dry-run', '--diff', '--exit-code']);
      expect(same.exitCode, same.stderr).toBe(0);
      expect(same.stdout).toBe('');
      expect(await changes('diff-r')).toEqual([]);
      expect((await emu.profile('diff-r')).buckets).toEqual(['old-name', 'keep-one', 'keep-two']);
    });

    it('delete and modify: only what they really remove and add', async () => {
      await emu.setProfile('diff-d', ['alpha-one', 'beta-two', 'gamma-three']);
      const del = await run(['buckets', 'delete', 'diff-d', 'beta-two', 'not-there', '--dry-run', '--diff', '--json']);
      expect(del.exitCode, del.stderr).toBe(0);
      expect(JSON.parse(del.stdout)).toEqual({ profile: 'diff-d', add: [], delete: ['beta-two'], applied: false });
      const mod = await run(['buckets', 'modify', 'diff-d', '--add', 'alpha-one,delta-four', '--delete', 'gamma-three', '--dry-run', '--diff', '--exit-code']);
      expect(mod.exitCode).toBe(8);
      expect(mod.stdout).toBe('+ delta-four\n- gamma-three\n');
      // The rehearsal stops where the real run would: emptying the list needs --allow-empty.
      const emptying = await run(['buckets', 'delete', 'diff-d', 'alpha-one', 'beta-two', 'gamma-three', '--dry-run', '--diff']);
      expect(emptying.exitCode).toBe(2);
      expect(emptying.stderr).toContain('refusing to delete every bucket of diff-d');
      expect(await changes('diff-d')).toEqual([]);
    });

    it('--diff without --dry-run, and --exit-code without --diff, are usage errors before anything is read', async () => {
      for (const line of [['buckets', 'delete', 'diff-u', 'x-name', '--diff'], ['buckets', 'replace', 'diff-u', 'x-name', '--dry-run', '--exit-code']]) {
        const r = await run(line);
        expect(r.exitCode, line.join(' ')).toBe(2);
        expect(r.stderr).toMatch(/^scpctl: --(diff|exit-code) goes with/);
      }
    });

    it('delete of names the list does not hold says so; exit 0', async () => {
      await emu.setProfile('absent', ['alpha-one', 'beta-two']);
      const r = await run(['buckets', 'delete', 'absent', 'beta-two', 'no-such-1', 'no-such-2']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain('2 of 3 names were not in the list: no-such-1, no-such-2');
      const mod = await run(['buckets', 'modify', 'absent', '--delete', 'no-such-3']);
      expect(mod.exitCode, mod.stderr).toBe(0);
      expect(mod.stderr).toContain('1 of 1 name was not in the list: no-such-3');
      expect((await emu.profile('absent')).buckets).toEqual(['alpha-one']);
    });
  });

  describe('--wait: the guard and the version kept are those of the list read after the wait', () => {
    /**
     * The list is read ([keep-a, gone-b]), and while that answer is on its way someone else's change leaves
     * only keep-a and makes the profile pending: the delete meets the pending change and waits it out.
     */
    async function raced(profile: string, line: string[]) {
      await emu.setProfile(profile, ['keep-a', 'gone-b']);
      await emu.faults([{ kind: 'delay', endpoint: 'bucket', op: 'viewBucketList', ms: 150, count: 1 }]);
      const running = run(line);
      await until(async () => (await emu.requests()).some((r) => r.name === profile && r.op === 'viewBucketList'));
      await emu.setProfile(profile, ['keep-a']);
      await emu.setPending(profile, 2000);
      return running;
    }

    it('delete: a concurrent change during the wait would empty the list: refused without --allow-empty', async () => {
      const r = await raced('race-d', ['buckets', 'delete', 'race-d', 'keep-a', '--wait', '30']);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain('refusing to delete every bucket of race-d');
      expect((await emu.profile('race-d')).buckets).toEqual(['keep-a']);
      // One delete went out, and met the pending change; none after the wait.
      expect(await changes('race-d')).toHaveLength(1);
    });

    it('a request that meets a pending change waits it out (back-off, a line) before the list is read again', async () => {
      await emu.setProfile('pend-v', ['a-one', 'b-two']);
      const body = JSON.stringify({ status: 'error', errors: ["A change is pending on profile 'pend-v'"] });
      await emu.faults([{ kind: 'status', endpoint: 'bucket', op: 'deleteFromBucketList', status: 409, body, count: 2 }]);
      const r = await run(['buckets', 'delete', 'pend-v', 'a-one', '--wait', '30']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr.match(/pend-v: change pending; attempt 1,/g)).toHaveLength(2);
      expect((await emu.requests()).filter((q) => q.name === 'pend-v').map((q) => q.op)).toEqual([
        'viewBucketList', 'deleteFromBucketList', 'viewBucketList', 'deleteFromBucketList', 'viewBucketList', 'deleteFromBucketList',
      ]);
      expect((await emu.profile('pend-v')).buckets).toEqual(['b-two']);
    });

    it('modify --delete the same; with --allow-empty it goes on and keeps the list read after the wait', async () => {
      const r = await raced('race-m', ['buckets', 'modify', 'race-m', '--delete', 'keep-a', '--wait', '30']);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain('refusing to modify every bucket of race-m');
      const allowed = await raced('race-m', ['buckets', 'delete', 'race-m', 'keep-a', '--wait', '30', '--allow-empty']);
      expect(allowed.exitCode, allowed.stderr).toBe(0);
      expect((await emu.profile('race-m')).buckets).toEqual([]);
      const newest = JSON.parse((await run(['buckets', 'history', 'race-m', '--json'])).stdout)[0];
      expect(newest).toMatchObject({ operation: 'delete', count: 1 });
    });
  });
});
