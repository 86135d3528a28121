// The question before a change that removes names (contract section 7), in a real pseudo-terminal (`script`):
// `replace finance old new` read as a swap, delete, apply's one question for the whole plan, and apply's
// progress line. Piped runs ask nothing (the rest of the suite runs them unchanged; one check here too).
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Emulator, has, inTerminal, scpctl, typeInTerminal, useEmulator } from './harness.js';

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
useEmulator([], (suite) => ({ emu, dir, env } = suite));

const names = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}`);
const sentTo = async (profile: string, op: string) => (await emu.requests()).filter((r) => r.name === profile && r.op === op);
const QUESTION = /\? \[y\/N\] $/;

describe.skipIf(!has('script'))('at a terminal, a change that removes names asks first', { concurrent: true }, () => {
  it('replace read as a swap: the count and the first 20 names, then "n" is exit 1 and nothing is sent', async () => {
    await emu.setProfile('swap-no', ['old-name', ...names('keep', 104)]);
    const r = await typeInTerminal(['buckets', 'replace', 'swap-no', 'old-name', 'new-name'], env, [{ when: QUESTION, keys: 'n\r' }]);
    expect(r.exitCode, r.screen).toBe(1);
    expect(r.screen).toContain('swap-no: 104 names to remove');
    expect(r.screen).toContain('  - keep-019');
    expect(r.screen).not.toContain('  - keep-020');
    expect(r.screen).toContain('  … and 84 more');
    expect(r.screen).toContain('Remove 104 names from swap-no? [y/N] n');
    expect(r.screen).toContain('scpctl: nothing changed');
    expect(await sentTo('swap-no', 'replaceBucketList')).toEqual([]);
    expect((await emu.profile('swap-no')).buckets).toHaveLength(105);
  });

  it('replace: "y" applies it', async () => {
    await emu.setProfile('swap-yes', ['old-name', ...names('keep', 104)]);
    const r = await typeInTerminal(['buckets', 'replace', 'swap-yes', 'old-name', 'new-name'], env, [{ when: QUESTION, keys: 'y\r' }]);
    expect(r.exitCode, r.screen).toBe(0);
    expect(r.screen).toContain('replaceBucketList swap-yes: 2 names sent');
    expect((await emu.profile('swap-yes')).buckets).toEqual(['old-name', 'new-name']);
  });

  it('delete: Enter alone is no; -y asks nothing and deletes', async () => {
    await emu.setProfile('del-q', ['alpha-one', 'beta-two', 'gamma-three']);
    const no = await typeInTerminal(['buckets', 'delete', 'del-q', 'beta-two'], env, [{ when: /Remove 1 name from del-q\? \[y\/N\] $/, keys: '\r' }]);
    expect(no.exitCode, no.screen).toBe(1);
    expect(no.screen).toContain('scpctl: nothing changed');
    expect(await sentTo('del-q', 'deleteFromBucketList')).toEqual([]);
    const yes = await inTerminal(['buckets', 'delete', 'del-q', 'beta-two', '-y'], env);
    expect(yes.exitCode, yes.output).toBe(0);
    expect(yes.output).not.toContain('[y/N]');
    expect((await emu.profile('del-q')).buckets).toEqual(['alpha-one', 'gamma-three']);
  });

  it('Ctrl-C at the question is exit 130, Ctrl-D is no: nothing sent either way', async () => {
    await emu.setProfile('del-keys', ['alpha-one', 'beta-two']);
    const asked = /Remove 1 name from del-keys\? \[y\/N\] $/;
    const interrupted = await typeInTerminal(['buckets', 'delete', 'del-keys', 'beta-two'], env, [{ when: asked, keys: '\x03' }]);
    expect(interrupted.exitCode, interrupted.screen).toBe(130);
    expect(interrupted.screen).toContain('scpctl: interrupted at the prompt; nothing changed');
    const ended = await typeInTerminal(['buckets', 'delete', 'del-keys', 'beta-two'], env, [{ when: asked, keys: '\x04' }]);
    expect(ended.exitCode, ended.screen).toBe(1);
    expect(ended.screen).toContain('scpctl: nothing changed');
    expect(await sentTo('del-keys', 'deleteFromBucketList')).toEqual([]);
  });

  it('apply: one question for the whole plan, then every profile is changed', async () => {
    await emu.setProfile('ap-one', ['a-keep', 'a-gone']);
    await emu.setProfile('ap-two', ['b-keep', 'b-gone-1', 'b-gone-2']);
    const manifest = join(dir, 'question.yaml');
    writeFileSync(manifest, 'profiles:\n  ap-one:\n    buckets: [a-keep]\n  ap-two:\n    buckets: [b-keep, b-new]\n');
    const r = await typeInTerminal(['apply', '-f', manifest], env, [{ when: QUESTION, keys: 'yes\r' }]);
    expect(r.exitCode, r.screen).toBe(0);
    expect(r.screen.match(/\[y\/N\]/g)).toHaveLength(1);
    expect(r.screen).toContain('Remove 3 names from 2 profiles? [y/N] yes');
    expect(r.screen).toContain('ap-two: 2 names to remove');
    expect((await emu.profile('ap-one')).buckets).toEqual(['a-keep']);
    expect((await emu.profile('ap-two')).buckets).toEqual(['b-keep', 'b-new']);
  });


  it('sync, restore and modify with deletions ask too; "n" sends nothing', async () => {
    await emu.setProfile('ask-more', ['a-one']);
    await scpctl(['buckets', 'replace', 'ask-more', 'a-one', 'b-two'], { env }); // piped: keeps [a-one], asks nothing
    const [version] = JSON.parse((await scpctl(['buckets', 'history', 'ask-more', '--json'], { env })).stdout) as Array<{ id: string }>;
    const wanted = join(dir, 'ask-more.txt');
    writeFileSync(wanted, 'a-one\n');
    for (const line of [['buckets', 'sync', 'ask-more', '-f', wanted], ['buckets', 'restore', 'ask-more', '--to', version!.id], ['buckets', 'modify', 'ask-more', '--delete', 'b-two', '--add', 'c-three']]) {
      const r = await typeInTerminal(line, env, [{ when: /Remove 1 name from ask-more\? \[y\/N\] $/, keys: 'n\r' }]);
      expect(r.exitCode, `${line.join(' ')}\n${r.screen}`).toBe(1);
      expect(r.screen).toContain('  - b-two');
    }
    expect((await emu.requests()).filter((r) => r.name === 'ask-more' && r.op === 'modifyBucketList')).toEqual([]);
    expect((await emu.profile('ask-more')).buckets).toEqual(['a-one', 'b-two']);
  });

  it('--json at a terminal asks nothing (a script reads it)', async () => {
    await emu.setProfile('ask-json', ['a-one', 'b-two']);
    const r = await inTerminal(['buckets', 'replace', 'ask-json', 'a-one', '--json'], env);
    expect(r.exitCode, r.output).toBe(0);
    expect(r.output).not.toContain('[y/N]');
    expect((await emu.profile('ask-json')).buckets).toEqual(['a-one']);
  });
});

// Alone: its delay fault would hold any view of the emulator.
describe.skipIf(!has('script'))('at a terminal, a long apply shows its progress', () => {
  it('apply: "planning N/60 profiles" counts up while the lists are read', async () => {
    const manifest = join(dir, 'sixty.yaml');
    const profiles = names('prog', 60);
    await Promise.all(profiles.map((p) => emu.setProfile(p, ['same-one'])));
    writeFileSync(manifest, `profiles:\n${profiles.map((p) => `  ${p}:\n    buckets: [same-one]\n`).join('')}`);
    // Each view held 40 ms: eight at a time, the reading takes long enough for the line to be redrawn.
    await emu.faults([{ kind: 'delay', endpoint: 'bucket', op: 'viewBucketList', ms: 40, count: 60 }]);
    // The client's own pace (24 requests in 5 s) lifted: the held answers alone make the reading take a while.
    const r = await inTerminal(['apply', '-f', manifest, '--dry-run'], { ...env, SCPCTL_RATE: '1000/1' });
    expect(r.exitCode, r.output).toBe(0);
    const counts = new Set([...r.output.matchAll(/planning (\d+)\/60 profiles/g)].map((m) => Number(m[1])));
    expect([...counts].some((n) => n > 0 && n < 60), r.output).toBe(true);
    expect(counts.size).toBeGreaterThan(1);
    await emu.clearFaults();
  });
});

describe('not at a terminal, nothing is asked', () => {
  it('a piped replace removes as it always did', async () => {
    await emu.setProfile('swap-pipe', ['old-name', ...names('keep', 10)]);
    const r = await scpctl(['buckets', 'replace', 'swap-pipe', 'old-name', 'new-name'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('[y/N]');
    expect((await emu.profile('swap-pipe')).buckets).toEqual(['old-name', 'new-name']);
  });
});
