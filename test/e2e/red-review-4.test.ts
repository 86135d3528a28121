// Fourth red-team review (issue 35's shrinking of completion and the report paths): each test reproduces a
// finding on the code before its fix. Its checkpoint findings are tested with the others, in trust-checkpoint.test.ts.
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scpctl, type Emulator, useEmulator } from './harness.js';

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
useEmulator(['--events', '50'], (suite) => ({ emu, dir, env } = suite));

/** Report pages as the service would send them, one fault a page, then an empty page. */
async function reportPages(pages: object[][]): Promise<void> {
  await emu.faults([...pages, []].map((records) => ({ kind: 'status', status: 200, endpoint: 'report', body: JSON.stringify({ status: 'success', data: records }) })));
}

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
