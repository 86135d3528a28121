// The mask runs before anything is cut (contract section 13): a token inside a report cell or a bucket name
// from the service is masked whole, then the cell is cut to its column; no 6 characters of the token's start
// survive in any form. And a list file holding two known tokens names both lines. Each test reproduces a
// finding of a security review on the code before the fix.
import { beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inTerminal, scpctl, type Emulator, useEmulator } from './harness.js';

/** Another context's token in the config store (letters and digits: a valid bucket name). */
const OTHER_TOKEN = 'ctxb7secret9f8e7d6c5b4a';

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
useEmulator(['--profile', 'finance'], (suite) => ({ emu, dir, env } = suite));

beforeEach(async () => {
  await emu.clearFaults();
  await emu.clearRequests();
});

/** The first 6 characters of `token` in every form the contract names: as they are, cased, %-encoded, base64. */
function startForms(token: string): string[] {
  const start = token.slice(0, 6);
  const encoded = encodeURIComponent(start);
  const base64 = Buffer.from(start).toString('base64');
  return [start, start.toLowerCase(), start.toUpperCase(), encoded, encoded.toLowerCase(), base64, base64.replace(/\+/g, '-').replace(/\//g, '_')];
}

function expectNoTokenStart(output: string, tokens: readonly string[]): void {
  for (const token of tokens) for (const form of startForms(token)) expect(output, `${form} (start of a token) in:\n${output}`).not.toContain(form);
}

/** Report pages as the service would send them, one fault a page, then an empty page. */
async function reportPages(pages: object[][]): Promise<void> {
  await emu.faults([...pages, []].map((records) => ({ kind: 'status', status: 200, endpoint: 'report', body: JSON.stringify({ status: 'success', data: records }) })));
}

describe('the mask runs before a cell is cut', () => {
  it('report --all -o table into a file: a later page\'s cell holding ?token=TOKEN is masked, then cut to the first page\'s width', async () => {
    const url = `https://files.example/dl?token=${emu.token}&x=1`;
    await reportPages([[{ url: 'https://files.example/dl?token=short-and-dull-value-here' }, { url: 'https://files.example/x' }], [{ url }]]);
    const r = await scpctl(['report', '--period', '1h', '--all', '--limit', '2', '-o', 'table'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('?token=***&x=1');
    expectNoTokenStart(r.stdout + r.stderr, [emu.token]);
  });

  it('report -o table on a narrow terminal: the cell is masked, then cut to the screen', async () => {
    await reportPages([[{ url: `https://files.example/dl?token=${emu.token}&x=1`, user: 'alice' }]]);
    const { output, exitCode } = await inTerminal(['report', '--period', '1h', '-o', 'table'], env, { cols: 60 });
    expect(exitCode, output).toBe(0);
    expect(output).toContain('?token=***&x=1');
    expectNoTokenStart(output, [emu.token]);
  });

  it('buckets view -o table at 70 columns: a name from the service holding a token is masked, then cut', async () => {
    const names = [`${'x'.repeat(46)}${emu.token}`, `${'y'.repeat(40)}${OTHER_TOKEN}${'z'.repeat(10)}`, 'alpha-data'];
    await emu.setProfile('finance', names);
    const config = join(dir, 'two-contexts');
    mkdirSync(config, { recursive: true });
    const store = { currentContext: 'default', contexts: { default: { baseUrl: emu.url, token: emu.token }, b: { baseUrl: emu.url, token: OTHER_TOKEN } } };
    writeFileSync(join(config, 'config.json'), JSON.stringify(store), { mode: 0o600 });
    const { output, exitCode } = await inTerminal(['buckets', 'view', 'finance', '-o', 'table'], { ...env, SCPCTL_TOKEN: undefined, SCPCTL_CONFIG_DIR: config, HOME: config }, { cols: 70 });
    expect(exitCode, output).toBe(0);
    expect(output).toContain(`${'x'.repeat(46)}***`);
    expect(output).toContain(`${'y'.repeat(40)}***`);
    expectNoTokenStart(output, [emu.token, OTHER_TOKEN]);
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

describe('the spinner, which ora draws past the stderr writer', () => {
  // A profile name is the only text of a spinner's label that comes from outside; one holding a known token is
  // now refused before anything starts (checkProfileName), so the spinner's own mask (Terminal.spinner) stays
  // as a second line of defence that no command line reaches.
  it('a slow view of a profile named with the token at a terminal: refused before any spinner, no token start shown', async () => {
    await emu.faults([{ kind: 'delay', ms: 600, endpoint: 'bucket', op: 'viewBucketList' }]);
    const { output } = await inTerminal(['buckets', 'view', `p-${emu.token}`], env, { cols: 100 });
    expect(output).toContain('scpctl: the profile name is a name that looks like the API token (not shown)');
    expect(output).not.toMatch(/viewBucketList/);
    expectNoTokenStart(output, [emu.token]);
  });
});

describe('a list file holding known tokens', () => {
  it('the token in use and another context\'s stored token on the next line: both lines named, nothing sent', async () => {
    const config = join(dir, 'list-contexts');
    mkdirSync(config, { recursive: true });
    const store = { currentContext: 'default', contexts: { default: { baseUrl: emu.url, token: emu.token }, b: { baseUrl: emu.url, token: OTHER_TOKEN } } };
    writeFileSync(join(config, 'config.json'), JSON.stringify(store), { mode: 0o600 });
    const list = join(config, 'list.txt');
    writeFileSync(list, `alpha-data\n${emu.token}\n${OTHER_TOKEN}\nBad_Name\n`);
    const r = await scpctl(['buckets', 'append', 'finance', '-f', list, '--dry-run'], { env: { ...env, SCPCTL_TOKEN: undefined, SCPCTL_CONFIG_DIR: config, HOME: config } });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${list}:2: a name that looks like the API token (not shown)`);
    expect(r.stderr).toContain(`${list}:3: a name that looks like the API token (not shown)`);
    // Reported with the input's invalid names, in one error.
    expect(r.stderr).toMatch(/list\.txt:4: "Bad_Name": upper-case letters are not allowed/);
    expectNoTokenStart(r.stdout + r.stderr, [emu.token, OTHER_TOKEN]);
    expect(await emu.requests()).toEqual([]);
  });
});
