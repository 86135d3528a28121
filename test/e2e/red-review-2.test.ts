// Second red-team review of issue 34 (contract section 13): each test reproduces a finding on the code before
// its fix. The mask runs before anything is cut, including the few characters of a service's words quoted
// in a message.
import { beforeEach, describe, expect, it } from 'vitest';
import { scpctl, type Emulator, useEmulator } from './harness.js';

let emu: Emulator;
let env: Record<string, string | undefined>;
useEmulator(['--profile', 'finance'], (suite) => ({ emu, env } = suite));

beforeEach(async () => {
  await emu.clearFaults();
});

describe('a service word cut to a readable length is masked first', () => {
  it('an unexpected "status" holding the token past its 60th character: the token is masked, then the status cut', async () => {
    // The status is quoted cut to 60 characters; cut before the mask, its last 10 were the token's start.
    const status = `${'x'.repeat(50)}${emu.token}`;
    await emu.faults([{ kind: 'status', status: 200, endpoint: 'bucket', body: JSON.stringify({ status, data: [] }) }]);
    const r = await scpctl(['buckets', 'view', 'finance', '--retries', '0'], { env });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain(`unexpected status "${'x'.repeat(50)}***"`);
    expect(r.stderr).not.toContain(emu.token.slice(0, 6));
  });
});
