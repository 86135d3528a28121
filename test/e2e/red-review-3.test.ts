// Third red-team review (the session's refactors of the writers, the fan-out and the commands): each test
// reproduces a finding on the code before its fix.
import { describe, expect, it } from 'vitest';
import { scpctl, type Emulator, useEmulator } from './harness.js';

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
    expect((await emu.requests()).filter((request) => request.op !== 'viewBucketList')).toEqual([]);
  });
});
