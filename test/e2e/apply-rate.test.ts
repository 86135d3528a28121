// The client-side rate limit: 50 profiles planned and applied against an emulator that answers 429 past its
// rate never meet a 429 (with retries off, one would fail the run), and without the limit they do. The
// window is 1 s rather than the service's 5 s (the arithmetic is the same), and the pacing is measured by the
// test's clock, which the client's limiter and the emulator's both read: it jumps over pauses, so the four
// seconds of pacing take no real time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envFor, removeDir, scpctl, startEmulator, tempDir, type Emulator, testClock } from './harness.js';

const PROFILES = Array.from({ length: 50 }, (_, i) => `tenant-${String(i).padStart(2, '0')}`);
let dir: string;
let manifest: string;

beforeAll(() => {
  dir = tempDir();
  manifest = join(dir, 'scpctl.yaml');
  writeFileSync(manifest, `profiles:\n${PROFILES.map((p) => `  ${p}:\n    buckets: [${p}-logs, shared-archive]\n`).join('')}`);
});
afterAll(() => removeDir(dir));

async function limitedEmulator(): Promise<Emulator> {
  return startEmulator(['--rate', '24/1', ...PROFILES.flatMap((p) => ['--profile', `${p}=${p}-old,shared-archive`])]);
}

describe('apply under a rate limit of 24 requests a second', () => {
  it('applies 50 profiles (100 requests) without a single 429, and as fast as the rate allows', async () => {
    const emu = await limitedEmulator();
    try {
      const started = testClock.now();
      const startedReally = performance.now();
      const r = await scpctl(['apply', '-f', manifest, '--retries', '0', '--json'], { env: envFor(emu, dir, { SCPCTL_RATE: '24/1' }) });
      const seconds = (testClock.now() - started) / 1000;
      const paused = seconds - (performance.now() - startedReally) / 1000; // what the clock jumped over
      expect(r.exitCode, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as { profiles: Array<{ applied: boolean }> };
      expect(out.profiles.filter((p) => p.applied)).toHaveLength(50);
      const requests = await emu.requests();
      expect(requests).toHaveLength(100);
      expect(requests.filter((q) => q.status === 429)).toEqual([]);
      expect(requests.filter((q) => q.op === 'modifyBucketList')).toHaveLength(50);
      // In any one-second window the emulator saw at most 24 requests.
      const times = requests.map((q) => q.time).sort((a, b) => a - b);
      for (let i = 24; i < times.length; i++) expect(times[i]! - times[i - 24]!).toBeGreaterThanOrEqual(1000);
      // 100 requests at 24 a second: at least 4 s by the test's clock, which jumps over pauses; and no pause
      // beyond what the rate needs (the real time of the run, which a busy machine stretches, left out).
      expect(seconds).toBeGreaterThanOrEqual(4);
      expect(paused).toBeLessThan(4.5);
      expect((await emu.profile('tenant-49')).buckets.sort()).toEqual(['shared-archive', 'tenant-49-logs']);
    } finally {
      await emu.stop();
    }
  }, 30_000);

  it('without the limiter the same run meets 429 (so the test above can fail)', async () => {
    const emu = await limitedEmulator();
    try {
      const r = await scpctl(['apply', '-f', manifest, '--retries', '0', '--dry-run'], { env: envFor(emu, dir, { SCPCTL_RATE: '1000/1' }) });
      expect(r.exitCode).toBe(6);
      expect((await emu.requests()).some((q) => q.status === 429)).toBe(true);
    } finally {
      await emu.stop();
    }
  }, 30_000);
});
