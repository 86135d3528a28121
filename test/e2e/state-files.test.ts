// Contract section 13, "State files are plain files or nothing", and section 2's atomic store: real FIFOs
// (mkfifo) in real processes, since a blocking open of one would hold the whole test process too.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envFor, scpctl, spawnScpctl, untilOpen, useEmulator, type Emulator } from './harness.js';

let emu: Emulator;
let dir: string;
useEmulator(['--profile', 'finance=alpha-one,beta-two'], (suite) => ({ emu, dir } = suite));

/** A config folder of its own, with a FIFO at `name` in it. */
function folderWithFifo(name: string, at: string): { env: Record<string, string | undefined>; fifo: string } {
  const cfg = join(dir, name);
  mkdirSync(cfg, { recursive: true, mode: 0o700 });
  const fifo = join(cfg, at);
  execFileSync('mkfifo', ['-m', '600', fifo]);
  return { env: envFor(emu, cfg), fifo };
}

describe('a FIFO where a state file belongs', () => {
  it('profiles-seen.json: the bucket command succeeds at once, one warning naming it, the FIFO left alone', async () => {
    const { env, fifo } = folderWithFifo('seen-fifo', 'profiles-seen.json');
    writeFileSync(join(dir, 'keep.txt'), 'alpha-one\nbeta-two\n');
    // sync reads the list and then changes it: two successes, one warning.
    const started = Date.now();
    const r = await spawnScpctl(['buckets', 'sync', 'finance', '-f', join(dir, 'keep.txt')], { env, timeout: 8_000, reject: false });
    expect(r.exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    const warnings = String(r.stderr).split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings).toEqual([`warning: ${fifo} is a FIFO, not a regular file: profile names are not remembered for completion (remove it to have them)`]);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('a process blocked elsewhere (a --token-file FIFO) with such a profiles-seen still ends 130 on SIGINT (security.test.ts: 143 on SIGTERM)', async () => {
    const { env, fifo } = folderWithFifo('seen-fifo-signals', 'profiles-seen.json');
    const tokenFifo = join(dir, 'seen-fifo-signals', 'token');
    execFileSync('mkfifo', ['-m', '600', tokenFifo]);
    const child = spawnScpctl(['buckets', 'sync', 'finance', '--token-file', tokenFifo, '-f', join(dir, 'keep.txt')], { env: { ...env, SCPCTL_TOKEN: undefined }, timeout: 8_000, reject: false });
    await untilOpen(child.pid, tokenFifo);
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(130);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('the state folder (SCPCTL_STATE_DIR) a FIFO: replace stops with exit 2 naming it, nothing sent', async () => {
    const { env, fifo } = folderWithFifo('state-fifo', 'state');
    await emu.clearRequests();
    const r = await scpctl(['buckets', 'replace', 'finance', 'alpha-one', 'delta-four'], { env: { ...env, SCPCTL_STATE_DIR: fifo } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`scpctl: the history folder ${fifo} is not a folder; nothing was read or written there`);
    expect(await emu.changes()).toEqual([]);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('the emulator\'s --state FILE, a FIFO: exit 2 naming it, at once', async () => {
    const { fifo } = folderWithFifo('emulator-fifo', 'state.json');
    const r = await spawnScpctl(['emulator', '--port', '0', '--state', fifo], { timeout: 8_000, reject: false });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`scpctl: emulator: cannot read state file ${fifo}: ${fifo} is a FIFO, not a regular file`);
  });

  it('--save-plan FILE, a FIFO: exit 2 naming it, at once, and the FIFO is not replaced', async () => {
    const { env, fifo } = folderWithFifo('plan-fifo', 'plan.json');
    const manifest = join(dir, 'plan-fifo', 'scpctl.yaml');
    writeFileSync(manifest, 'profiles:\n  finance:\n    buckets: [alpha-one, gamma-three]\n');
    const r = await scpctl(['apply', '-f', manifest, '--dry-run', '--save-plan', fifo], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`scpctl: cannot write the plan ${fifo}: it is a FIFO, not a regular file`);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });
});

describe('the config store is written whole, even with SNAP set', () => {
  it('config set under SNAP: a new file renamed into place (a new inode), never the old one rewritten in place', async () => {
    const cfg = join(dir, 'snap');
    mkdirSync(cfg, { recursive: true, mode: 0o700 });
    const path = join(cfg, 'config.json');
    const contexts = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`ctx-${i}`, { baseUrl: `https://tenant-${i}.example.com`, token: `t-${i}` }]));
    writeFileSync(path, JSON.stringify({ currentContext: 'ctx-0', contexts }), { mode: 0o600 });
    const before = statSync(path).ino;
    const env = { ...envFor(emu, cfg), SNAP: '/snap/code/123', SNAP_NAME: 'code' };
    const r = await spawnScpctl(['--context', 'ctx-7', 'config', 'set', 'timeout', '45'], { env, timeout: 8_000, reject: false });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const after = statSync(path);
    expect(after.ino).not.toBe(before);
    expect(after.mode & 0o777).toBe(0o600);
    const data = JSON.parse(readFileSync(path, 'utf8')) as { contexts: Record<string, Record<string, string>> };
    expect(Object.keys(data.contexts)).toHaveLength(50);
    expect(data.contexts['ctx-7']).toEqual({ baseUrl: 'https://tenant-7.example.com', token: 't-7', timeout: '45' });
    expect(readdirSync(cfg).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

