// The first day as a person meets it, in a real pseudo-terminal (`script` for the byte stream): a spinner
// while a slow request hangs, and Ctrl-C or a rejected token at the login prompt.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOKEN, type Emulator, has, inTerminal as terminalRun, typeInTerminal as typed, stripEscapes as strip, removeDir, tempDir, useEmulator } from './harness.js';

const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/; // ora's "dots"

let emu: Emulator;
let env: Record<string, string | undefined>;
useEmulator(['--profile', 'finance=alpha-one,beta-two', '--profile', 'slow=alpha-one'], (suite) => ({ emu, env } = suite));

/** A run in a pseudo-terminal (80×40 unless told) with this file's environment. */
const inTerminal = (args: string[], extra: Record<string, string | undefined> = {}, pipe = '', cols = 80) =>
  terminalRun(args, { ...env, ...extra }, { pipe, cols });

describe.skipIf(!has('script'))('a slow request on a terminal', () => {
  it('shows a spinner naming the operation and the seconds so far, then the answer', async () => {
    await emu.faults([{ kind: 'delay', ms: 1500, endpoint: 'bucket', op: 'viewBucketList' }]);
    const { output, exitCode } = await inTerminal(['buckets', 'view', 'slow']);
    expect(exitCode).toBe(0);
    expect(output).toMatch(SPINNER);
    expect(strip(output)).toMatch(/viewBucketList slow \(1\.\d s\)/);
    expect(strip(output)).toContain('slow: 1 bucket');
  });

  it('a report too', async () => {
    await emu.faults([{ kind: 'delay', ms: 1000, endpoint: 'report' }]);
    const { output, exitCode } = await inTerminal(['report', '--groupby', 'user', '--period', '7d', '--limit', '2']);
    expect(exitCode).toBe(0);
    expect(output).toMatch(SPINNER);
    expect(strip(output)).toMatch(/report \(\d\.\d s\)/);
  });

  it('a mutation too', async () => {
    await emu.faults([{ kind: 'delay', ms: 1000, endpoint: 'bucket', op: 'appendToBucketList' }]);
    const { output, exitCode } = await inTerminal(['buckets', 'append', 'slow', 'gamma-three']);
    expect(exitCode).toBe(0);
    expect(strip(output)).toMatch(/appendToBucketList slow \(\d\.\d s\)/);
    expect(strip(output)).toContain('✔ appendToBucketList slow: 1 name sent');
  });
});

describe.skipIf(!has('script'))('a report table on a terminal', () => {
  it('shows timestamp and *_time seconds as ISO 8601 UTC; --raw-time keeps them', async () => {
    const iso = await inTerminal(['report', '--period', '7d', '--limit', '2'], {}, '', 200);
    expect(iso.exitCode).toBe(0);
    expect(strip(iso.output)).toMatch(/│ 20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ │ 20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ │/);
    const raw = await inTerminal(['report', '--period', '7d', '--limit', '2', '--raw-time'], {}, '', 200);
    expect(strip(raw.output)).toMatch(/│ +1\d{9} │ +1\d{9} │/);
    expect(strip(raw.output)).not.toMatch(/\d{4}-\d\d-\d\dT/);
  });

  it('piped, the same report keeps the seconds (json)', async () => {
    const { output } = await inTerminal(['report', '--period', '7d', '--limit', '2'], {}, ' | cat');
    expect(strip(output)).toMatch(/"timestamp":1\d{9}/);
  });
});

/** scpctl in a pseudo-terminal, typed into (harness typeInTerminal), with this file's environment. */
const typeInTerminal = (args: string[], steps: Array<{ when: RegExp; keys: string }>, extra: Record<string, string | undefined> = {}) =>
  typed(args, { ...env, ...extra }, steps);

describe.skipIf(!has('script'))('the token prompt', () => {
  const PROMPT = /API token: $/;
  const loginEnv = () => ({ SCPCTL_TOKEN: undefined, SCPCTL_CONFIG_DIR: tempDir(), SCPCTL_TOKEN_STORE: 'file' });
  const storedToken = (cfg: string): string | undefined => {
    const file = join(cfg, 'config.json');
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).contexts?.default?.token : undefined;
  };

  it('login: Ctrl-C exits 130, says it was interrupted (not "unexpected"), stores nothing', async () => {
    const extra = loginEnv();
    const r = await typeInTerminal(['login', '--base-url', emu.url], [{ when: PROMPT, keys: 'half-typed\x03' }], extra);
    expect(r.exitCode).toBe(130);
    expect(r.screen).toContain('scpctl: interrupted at the prompt; nothing was stored');
    expect(r.screen).not.toContain('unexpected');
    expect(r.screen).not.toContain('half-typed');
    expect(storedToken(extra.SCPCTL_CONFIG_DIR)).toBeUndefined();
    removeDir(extra.SCPCTL_CONFIG_DIR);
  });

  it('config set token: Ctrl-C exits 130 the same way', async () => {
    const extra = loginEnv();
    const r = await typeInTerminal(['config', 'set', 'token'], [{ when: PROMPT, keys: '\x03' }], extra);
    expect(r.exitCode).toBe(130);
    expect(r.screen).toContain('scpctl: interrupted at the prompt');
    expect(storedToken(extra.SCPCTL_CONFIG_DIR)).toBeUndefined();
    removeDir(extra.SCPCTL_CONFIG_DIR);
  });

  it('Ctrl-D on an empty prompt: exit 2, nothing stored, no hang', async () => {
    const extra = loginEnv();
    const r = await typeInTerminal(['login', '--base-url', emu.url], [{ when: PROMPT, keys: '\x04' }], extra);
    expect(r.exitCode).toBe(2);
    expect(r.screen).toContain('scpctl: no token was entered; nothing was stored');
    removeDir(extra.SCPCTL_CONFIG_DIR);
  });

  it('login: the typed token is not echoed, is checked, and is stored', async () => {
    const extra = loginEnv();
    const r = await typeInTerminal(['login', '--base-url', emu.url], [{ when: PROMPT, keys: `${TOKEN}\r` }], extra);
    expect(r.exitCode, r.screen).toBe(0);
    expect(r.screen).toMatch(/✔ logged in to http:\/\/127\.0\.0\.1:\d+ \(context default\)/);
    expect(storedToken(extra.SCPCTL_CONFIG_DIR)).toBe(TOKEN);
    removeDir(extra.SCPCTL_CONFIG_DIR);
  });

  it('login: a rejected token says the service rejected it (not "run scpctl login") and stores nothing', async () => {
    const extra = loginEnv();
    const r = await typeInTerminal(['login', '--base-url', emu.url], [{ when: PROMPT, keys: 'wrong-token-123456\r' }], extra);
    expect(r.exitCode).toBe(3);
    expect(r.screen).toMatch(/scpctl: the service rejected the token \(.*\); nothing was stored/);
    expect(r.screen).not.toContain('run `scpctl login`');
    expect(r.screen).not.toContain('wrong-token-123456');
    expect(storedToken(extra.SCPCTL_CONFIG_DIR)).toBeUndefined();
    removeDir(extra.SCPCTL_CONFIG_DIR);
  });
});
