// Fourth red-team review (issue 35's shrinking of completion and the report paths): each test reproduces a
// finding on the code before its fix.
import { beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scpctl, type Emulator, useEmulator } from './harness.js';

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
useEmulator(['--events', '50'], (suite) => ({ emu, dir, env } = suite));

let work: string;
beforeEach(async () => {
  await emu.clearFaults();
  await emu.clearRequests();
  work = join(dir, `w-${Math.random().toString(36).slice(2)}`);
  mkdirSync(work);
});

/** Report pages as the service would send them, one fault a page, then an empty page. */
async function reportPages(pages: object[][]): Promise<void> {
  await emu.faults([...pages, []].map((records) => ({ kind: 'status', status: 200, endpoint: 'report', body: JSON.stringify({ status: 'success', data: records }) })));
}

const BASE = ['report', '--type', 'application', '--all', '-o', 'ndjson', '--retries', '0'];
const reportRequests = async () => (await emu.requests()).filter((r) => r.path.endsWith('/report'));

describe('a checkpoint or --lag beyond what a date holds', () => {
  // A file in a shared folder with this tenant's key copied in and an `end` past the year 275760 made
  // isoSeconds throw before the seal was looked at: "unexpected failure", exit 1, instead of exit 2 naming it.
  it('an end of 2^53 - 1 in a checkpoint is exit 2 naming the file, nothing sent', async () => {
    const file = join(work, 'cp.json');
    const first = await scpctl([...BASE, '--checkpoint', file, '--start', '1h'], { env });
    expect(first.exitCode, first.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    for (const forged of [{ end: Number.MAX_SAFE_INTEGER }, { running: { start: saved.end, end: Number.MAX_SAFE_INTEGER } }]) {
      writeFileSync(file, JSON.stringify({ ...saved, ...forged }));
      await emu.clearRequests();
      const r = await scpctl([...BASE, '--checkpoint', file], { env });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(`--checkpoint ${file}`);
      expect(r.stderr).not.toContain('unexpected failure');
      expect(r.stdout).toBe('');
      expect(await reportRequests()).toEqual([]);
    }
  });

  it('a --lag that puts the window before any date is exit 2 naming --lag, nothing written or sent', async () => {
    const file = join(work, 'lag.json');
    const r = await scpctl([...BASE, '--checkpoint', file, '--lag', '99999999999999'], { env });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^scpctl: --lag: /);
    expect(() => readFileSync(file)).toThrow();
    expect(await reportRequests()).toEqual([]);
  });
});

describe('CSV quoting comes after the mask', () => {
  // RFC 4180 doubles a quote inside a quoted cell, so a token holding `"` no longer appeared in the CSV text
  // that Terminal.out masked: the token went out whole (as `ctxb7""secret...`), once a cell and in the header.
  it('report -o csv: a cell and a key holding a stored token with a quote in it are masked, every page', async () => {
    const other = 'ctxb7"secret9f8e7d6c5b4a';
    const config = join(dir, 'quote-token');
    mkdirSync(config, { recursive: true });
    const store = { currentContext: 'default', contexts: { default: { baseUrl: emu.url, token: emu.token }, b: { baseUrl: emu.url, token: other } } };
    writeFileSync(join(config, 'config.json'), JSON.stringify(store), { mode: 0o600 });
    const runEnv = { ...env, SCPCTL_TOKEN: undefined, SCPCTL_CONFIG_DIR: config, HOME: config };
    await reportPages([[{ user: `u ${other}`, [`k-${other}`]: 1 }], [{ user: other }]]);
    const r = await scpctl(['report', '--period', '1h', '--all', '--limit', '1', '-o', 'csv'], { env: runEnv });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('user,k-***\r\nu ***,1\r\n***,\r\n');
    for (const form of [other.slice(0, 6), other.slice(6, 12), 'secret9f8e']) expect(r.stdout + r.stderr).not.toContain(form);
  });
});
