// Faults a real service or network produces, injected by the emulator, and what scpctl makes of each.
import { beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envFor, removeDir, scpctl, spawnScpctl, startEmulator, tempDir, type Emulator, useEmulator, testClock, until } from './harness.js';

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
useEmulator(['--profile', 'finance'], (suite) => ({ emu, dir, env } = suite));
beforeEach(async () => {
  await emu.clearFaults();
  await emu.setProfile('finance', ['alpha-one']);
  await emu.clearRequests();
});

const run = (args: string[], extra: Parameters<typeof scpctl>[1] = {}) => scpctl(args, { env, ...extra });
const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);

describe('answers that cannot be understood: exit 7, one line, no crash', () => {
  const cases: Array<[string, object]> = [
    ['an HTML page from a proxy (502, retried, then 6)', { kind: 'html', count: 10 }],
    ['truncated JSON', { kind: 'truncated' }],
    ['an empty body', { kind: 'empty' }],
    ['JSON of the wrong shape', { kind: 'wrong-shape' }],
  ];
  for (const [name, fault] of cases) {
    it(name, async () => {
      await emu.faults([fault]);
      const r = await run(['buckets', 'view', 'finance', '--retries', '1']);
      expect(r.exitCode).toBe(name.includes('HTML') ? 6 : 7);
      expect(r.stderr.split('\n')[0]).toMatch(/^scpctl: /);
      noStack(r.stderr);
    });
  }

  it('a body of hundreds of megabytes is cut off at 64 MiB', async () => {
    await emu.faults([{ kind: 'huge', sizeMb: 200 }]);
    const started = Date.now();
    const r = await run(['buckets', 'view', 'finance']);
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain('larger than 64.00 MiB; stopped reading');
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('an HTTP 200 with "status":"error" is an error, classified by its words', async () => {
    await emu.faults([{ kind: 'status', status: 200, body: '{"status":"error","msg":"Profile is pending approval"}' }]);
    const r = await run(['buckets', 'append', 'finance', 'x-bucket']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('Profile is pending approval');
  });
});

describe('retries', () => {
  it('429 with Retry-After is waited out, then succeeds', async () => {
    await emu.faults([{ kind: 'status', status: 429, headers: { 'Retry-After': '1' }, body: '{"status":"error","errors":["slow down"]}' }]);
    const started = testClock.now();
    const r = await run(['buckets', 'view', 'finance', '--verbose']);
    expect(r.exitCode).toBe(0);
    // a second by the run's clock (the test's, which jumps over pauses rather than taking them)
    expect(testClock.now() - started).toBeGreaterThanOrEqual(1000);
    expect(r.stderr).toContain('retrying in 1.0 s: HTTP 429');
    expect((await emu.requests()).map((q) => q.status)).toEqual([429, 200]);
  });

  it('a reset connection is retried', async () => {
    await emu.faults([{ kind: 'reset' }]);
    const r = await run(['buckets', 'view', 'finance']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('alpha-one\n');
  });

  it('when the retries are spent: exit 6 with the last cause and the attempts', async () => {
    await emu.faults([{ kind: 'reset', count: 3 }]);
    const r = await run(['buckets', 'view', 'finance', '--retries', '2']);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/^scpctl: connection to .* was reset \(after 3 attempts\)/);
  });

  it('4xx other than 429 is never retried', async () => {
    await emu.faults([{ kind: 'status', status: 400, body: '{"status":"error","errors":["bad request"]}', count: 5 }]);
    const r = await run(['buckets', 'view', 'finance']);
    expect(r.exitCode).toBe(1);
    expect(await emu.requests()).toHaveLength(1);
  });

  it('a body that stalls halfway is bounded by --timeout', async () => {
    await emu.faults([{ kind: 'stall' }]);
    const started = Date.now();
    const r = await run(['buckets', 'view', 'finance', '--timeout', '0.5', '--retries', '0']);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain('within 0.5 s (timeout)');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('Ctrl-C', () => {
  it('stops a command waiting on the network promptly with exit 130', async () => {
    await emu.faults([{ kind: 'hang' }]);
    const child = spawnScpctl(['buckets', 'view', 'finance'], { env });
    await until(async () => (await emu.requests()).length > 0);
    const sent = Date.now();
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(Date.now() - sent).toBeLessThan(3_000);
    expect(String(r.stderr)).toContain('scpctl: interrupted');
  });
});

describe('secrets and the config file', () => {
  it('warns when the config file can be read by others', async () => {
    const cfg = tempDir();
    const file = join(cfg, 'config.json');
    writeFileSync(file, JSON.stringify({ contexts: { default: { timeout: '10' } } }));
    chmodSync(file, 0o644);
    const r = await scpctl(['config', 'list'], { env: { PATH: process.env.PATH, SCPCTL_CONFIG_DIR: cfg } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('is readable by others (mode 0644); run: chmod 600');
    removeDir(cfg);
  });

  it('the token never shows, even in verbose logs of failing requests', async () => {
    await emu.faults([{ kind: 'status', status: 500, body: `{"status":"error","errors":["echo ${emu.token}"]}`, count: 2 }]);
    const r = await run(['buckets', 'view', 'finance', '--verbose', '--retries', '1']);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain('echo ***');
  });
});

describe('load', () => {
  it('20 appends in parallel, riding out pending changes: nothing lost', async () => {
    const busy = await startEmulator(['--profile', 'shared', '--pending-ms', '30']);
    try {
      const names = Array.from({ length: 20 }, (_, i) => [`parallel-${i}-a`, `parallel-${i}-b`]);
      const results = await Promise.all(
        names.map((pair) => scpctl(['buckets', 'append', 'shared', ...pair, '--wait', '60', '-q'], { env: envFor(busy, dir) })),
      );
      expect(results.map((r) => r.exitCode)).toEqual(names.map(() => 0));
      const final = (await busy.profile('shared')).buckets;
      expect(final.sort()).toEqual(names.flat().sort());
    } finally {
      await busy.stop();
    }
  }, 90_000);
});
