// Trust boundaries (contract sections 7 and 13): a report checkpoint is bound to its tenant and query, never
// loses a window (from the very first run, even after kill -9), and a file in a shared folder that is not
// scpctl's own checkpoint is refused before any request. Each test fails on the code before the defence.
import { beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ndjson, scpctl, spawnScpctl, type Emulator, until, useEmulator } from './harness.js';

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
useEmulator(['--events', '400'], (suite) => ({ emu, dir, env } = suite));

let work: string;
beforeEach(async () => {
  await emu.clearFaults();
  await emu.clearRequests();
  work = join(dir, `cp-${Math.random().toString(36).slice(2)}`);
  mkdirSync(work);
});

const BASE = ['report', '--type', 'application', '--all', '-o', 'ndjson', '--retries', '0'];
const run = (args: string[], extra: Record<string, string | undefined> = {}) => scpctl(args, { env: { ...env, ...extra } });
const reportRequests = async () => (await emu.requests()).filter((r) => r.path.endsWith('/report'));

/** starttime of every report request made since the last clearRequests. */
async function startTimes(): Promise<number[]> {
  return (await reportRequests()).map((r) => Number(r.query.starttime));
}

async function refusedBeforeAnyRequest(r: { exitCode: number; stdout: string; stderr: string }, message: RegExp): Promise<void> {
  expect(r.exitCode, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(message);
  expect(await reportRequests()).toEqual([]);
}

describe('the first run is at least once', () => {
  it('a failed first run is repeated from its own start, not from a new "24 hours ago"', async () => {
    const file = join(work, 'cp.json');
    await emu.faults([{ kind: 'status', status: 503, endpoint: 'report', count: 1 }]);
    const failed = await run([...BASE, '--checkpoint', file, '--start', '2h']);
    expect(failed.exitCode, failed.stderr).toBe(6);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    const [firstStart] = await startTimes();
    expect(written).toMatchObject({ end: firstStart, start: firstStart, running: { start: firstStart } });

    await emu.clearRequests();
    const retry = await run([...BASE, '--checkpoint', file]);
    expect(retry.exitCode, retry.stderr).toBe(0);
    expect(retry.stderr).toContain('(repeating a run that did not complete)');
    expect(new Set(await startTimes())).toEqual(new Set([firstStart]));
    const done = JSON.parse(readFileSync(file, 'utf8'));
    expect(done.start).toBe(firstStart);
    expect(done.running).toBeUndefined();
  });

  it('kill -9 during the first request: the next run starts where the killed one did', async () => {
    const file = join(work, 'cp.json');
    await emu.faults([{ kind: 'delay', ms: 20_000, endpoint: 'report', count: 1 }]);
    const child = spawnScpctl([...BASE, '--checkpoint', file, '--start', '3h'], { env });
    await until(async () => (await reportRequests()).length > 0, 10_000, () => 'the first report request');
    child.kill('SIGKILL');
    await child.catch(() => undefined);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    const [firstStart] = await startTimes();
    expect(written.end).toBe(firstStart);

    await emu.clearFaults();
    await emu.clearRequests();
    const retry = await run([...BASE, '--checkpoint', file]);
    expect(retry.exitCode, retry.stderr).toBe(0);
    expect(new Set(await startTimes())).toEqual(new Set([firstStart]));
    expect(ndjson(retry.stdout).length).toBeGreaterThan(0);
  });
});

describe('a checkpoint belongs to one tenant, and to now', () => {
  async function completeRun(file: string): Promise<Record<string, unknown>> {
    const r = await run([...BASE, '--checkpoint', file, '--start', '1h']);
    expect(r.exitCode, r.stderr).toBe(0);
    await emu.clearRequests();
    return JSON.parse(readFileSync(file, 'utf8'));
  }

  it("another tenant's checkpoint (the same URL, another token) is exit 2, nothing sent, the file kept", async () => {
    const file = join(work, 'cp.json');
    const saved = await completeRun(file);
    expect(JSON.stringify(saved)).not.toContain(emu.token);
    const before = readFileSync(file, 'utf8');
    const r = await run([...BASE, '--checkpoint', file], { SCPCTL_TOKEN: 'tenant-b-token-0123456789' });
    await refusedBeforeAnyRequest(r, /--checkpoint .*cp\.json belongs to another tenant/);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('an end in the future (beyond 5 minutes of skew) is exit 2, not a silent no-op', async () => {
    const file = join(work, 'cp.json');
    const saved = await completeRun(file);
    writeFileSync(file, JSON.stringify({ ...saved, end: Math.floor(Date.now() / 1000) + 86_400 }));
    const r = await run([...BASE, '--checkpoint', file]);
    await refusedBeforeAnyRequest(r, /lies in the future; every run would fetch nothing/);
  });

  // A file in a shared folder with this tenant's key copied in and an `end` past the year 275760 made
  // isoSeconds throw before the seal was looked at: "unexpected failure", exit 1, instead of exit 2 naming it.
  it('an end of 2^53 - 1 (or a running window ending there) is exit 2 naming the file, nothing sent', async () => {
    const file = join(work, 'cp.json');
    const saved = await completeRun(file);
    for (const forged of [{ end: Number.MAX_SAFE_INTEGER }, { running: { start: saved.end, end: Number.MAX_SAFE_INTEGER } }]) {
      writeFileSync(file, JSON.stringify({ ...saved, ...forged }));
      const r = await run([...BASE, '--checkpoint', file]);
      await refusedBeforeAnyRequest(r, /--checkpoint \S*cp\.json/);
      expect(r.stderr).not.toContain('unexpected failure');
    }
  });

  it('a --lag that puts the window before any date is exit 2 naming --lag, nothing written or sent', async () => {
    const file = join(work, 'lag.json');
    const r = await run([...BASE, '--checkpoint', file, '--lag', '99999999999999']);
    await refusedBeforeAnyRequest(r, /^scpctl: --lag: /);
    expect(existsSync(file)).toBe(false);
  });
});

describe('a shared folder cannot swap the file', () => {
  it('a symlink in place of the checkpoint is refused and its target left alone', async () => {
    const target = join(work, 'precious.txt');
    writeFileSync(target, 'keep me\n');
    const file = join(work, 'cp.json');
    symlinkSync(target, file);
    const r = await run([...BASE, '--checkpoint', file, '--start', '1h']);
    await refusedBeforeAnyRequest(r, /it is a symlink/);
    expect(readFileSync(target, 'utf8')).toBe('keep me\n');
  });

  it('a FIFO is refused at once (a run waiting on it would ignore Ctrl-C)', async () => {
    const fifo = join(work, 'cp.fifo');
    execFileSync('mkfifo', [fifo]);
    const r = await scpctl([...BASE, '--checkpoint', fifo], { env, timeout: 10_000 });
    await refusedBeforeAnyRequest(r, /not a regular file/);
  });

  it.each([
    ['empty', '', /the file is empty, not a checkpoint/],
    ['not a checkpoint', '{"hello":1}', /not a scpctl report checkpoint/],
  ])('an %s file is exit 2, never a first run', async (_what, text, message) => {
    const file = join(work, 'cp.json');
    writeFileSync(file, text);
    const r = await run([...BASE, '--checkpoint', file]);
    await refusedBeforeAnyRequest(r, message);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('another query is exit 2 naming FILE', async () => {
    const file = join(work, 'cp.json');
    expect((await run([...BASE, '--checkpoint', file, '--start', '1h'])).exitCode).toBe(0);
    await emu.clearRequests();
    const r = await run(['report', '--type', 'alert', '--all', '-o', 'ndjson', '--checkpoint', file]);
    await refusedBeforeAnyRequest(r, /belongs to another report/);
    expect(existsSync(file)).toBe(true);
  });
});
