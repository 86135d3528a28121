// A newcomer's first hour, against both of the emulator's error styles. Where the token in use came from
// (contract section 2): every message about a rejected or missing token names its source, a rejection's
// hint fits that source, and `login` warns when a token variable will override what it stores (a stale
// SCPCTL_TOKEN once made every command say "run `scpctl login`", and login then succeeded without changing
// anything). A mistyped profile gets the closest names the context has seen (section 12).
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_STYLES, scpctl, useEmulator, withTempDir, type Emulator } from './harness.js';

const STALE = 'stale-token-0123456789';

describe.each(ERROR_STYLES)('against an emulator with $name', (style) => {
  let emu: Emulator;
  let dir: string;
  let env: Record<string, string | undefined>;
  useEmulator(['--profile', 'finance=alpha-one', '--profile', 'finance-eu', '--profile', 'legal', ...style.args], (suite) => ({ emu, dir, env } = suite));

  it('a rejected token from a stale SCPCTL_TOKEN: each command names SCPCTL_TOKEN and says to unset or update it, not to log in', async () => {
    for (const args of [['buckets', 'view', 'finance'], ['buckets', 'append', 'finance', 'new-bucket'], ['report', '--period', '1h']]) {
      const r = await scpctl(args, { env: { ...env, SCPCTL_TOKEN: STALE } });
      expect(r.exitCode, args.join(' ')).toBe(3);
      expect(r.stderr, args.join(' ')).toMatch(/^scpctl: .*\(the token from SCPCTL_TOKEN\)$/m);
      expect(r.stderr).toMatch(/^hint: SCPCTL_TOKEN is set in this environment .*update it, or `unset SCPCTL_TOKEN`/m);
      expect(r.stderr).not.toContain('run `scpctl login`');
    }
  });

  it('login with SCPCTL_TOKEN or SCPCTL_TOKEN_FILE set stores the token and warns that the variable overrides it', async () => {
    const tokenFile = join(dir, 'mounted-token');
    writeFileSync(tokenFile, `${STALE}\n`);
    for (const [variable, value] of [['SCPCTL_TOKEN', STALE], ['SCPCTL_TOKEN_FILE', tokenFile]] as const) {
      const loginEnv = { ...env, SCPCTL_BASE_URL: undefined, SCPCTL_TOKEN: undefined, [variable]: value };
      const r = await scpctl(['--context', `via-${variable.toLowerCase()}`, 'login', '--base-url', emu.url, '--with-token'], { env: loginEnv, input: emu.token });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain('logged in to');
      expect(r.stderr).toMatch(new RegExp(`^warning: ${variable} is set in this environment and overrides the token just stored`, 'm'));
    }
    const clean = await scpctl(['--context', 'clean', 'login', '--base-url', emu.url, '--with-token'], { env: { ...env, SCPCTL_TOKEN: undefined }, input: emu.token });
    expect(clean.exitCode, clean.stderr).toBe(0);
    expect(clean.stderr).not.toContain('warning');
    // `config set token` stores a token the variable overrides just the same.
    const set = await scpctl(['--context', 'clean', 'config', 'set', 'token', '--with-token'], { env: { ...env, SCPCTL_TOKEN: STALE }, input: emu.token });
    expect(set.exitCode, set.stderr).toBe(0);
    expect(set.stderr).toMatch(/^warning: SCPCTL_TOKEN is set in this environment and overrides the token just stored/m);
  });

  it('a rejected token from --token-file or SCPCTL_TOKEN_FILE: names the file', async () => {
    const tokenFile = join(dir, 'old-token');
    writeFileSync(tokenFile, `${STALE}\n`);
    const flag = await scpctl(['buckets', 'view', 'finance', '--token-file', tokenFile], { env });
    expect(flag.exitCode).toBe(3);
    expect(flag.stderr).toContain(`(the token from --token-file ${tokenFile})`);
    expect(flag.stderr).toContain(`hint: Put the current token in ${tokenFile}`);
    const variable = await scpctl(['buckets', 'view', 'finance'], { env: { ...env, SCPCTL_TOKEN: undefined, SCPCTL_TOKEN_FILE: tokenFile } });
    expect(variable.exitCode).toBe(3);
    expect(variable.stderr).toContain(`(the token from SCPCTL_TOKEN_FILE=${tokenFile})`);
    expect(variable.stderr).toContain('`unset SCPCTL_TOKEN_FILE`');
  });

  it('a rejected token from the config store: names the context, and the hint logs in to it', async () => {
    const stored = { ...env, SCPCTL_BASE_URL: undefined, SCPCTL_TOKEN: undefined };
    const login = await scpctl(['--context', 'tenant-b', 'login', '--base-url', emu.url, '--with-token', '--no-verify'], { env: stored, input: STALE });
    expect(login.exitCode, login.stderr).toBe(0);
    const r = await scpctl(['--context', 'tenant-b', 'buckets', 'view', 'finance'], { env: stored });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('(the token from the config store of context tenant-b)');
    expect(r.stderr).toContain('hint: Store a current token: scpctl --context tenant-b login');
  });

  it('no token at all: the message names every source it looked in', async () => {
    const r = await scpctl(['buckets', 'view', 'finance'], { env: { ...env, SCPCTL_TOKEN: undefined } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('scpctl: no token configured (no --token-file, SCPCTL_TOKEN or SCPCTL_TOKEN_FILE, and none in the config store of context default)');
  });

  it('a profile that does not exist (exit 4) gets the closest names this context has seen, in a view and a change', async () => {
    const before = await scpctl(['buckets', 'view', 'finanse'], { env });
    expect(before.exitCode).toBe(4);
    expect(before.stderr).not.toContain('Did you mean'); // nothing seen yet
    for (const profile of ['finance', 'finance-eu', 'legal']) expect((await scpctl(['buckets', 'view', profile], { env })).exitCode).toBe(0);
    const view = await scpctl(['buckets', 'view', 'finanse'], { env });
    expect(view.exitCode).toBe(4);
    expect(view.stderr).toMatch(/^hint: Did you mean "finance"\? \(seen before in context default\) Profile names must match exactly/m);
    const change = await scpctl(['buckets', 'append', 'finace-eu', 'new-bucket'], { env });
    expect(change.exitCode).toBe(4);
    expect(change.stderr).toMatch(/^hint: Did you mean "finance-eu"\?/m);
    const far = await scpctl(['buckets', 'view', 'payroll'], { env });
    expect(far.exitCode).toBe(4);
    expect(far.stderr).not.toContain('Did you mean');
  });
});

describe('moving a token where SCPCTL_TOKEN_STORE=file (docs/configuration.md)', () => {
  it("config migrate-token's store error says to unset the variable, not login's --token-store; config set tokenStore's names itself", async () => {
    await withTempDir('scpctl-first-hour-', async (dir) => {
      const env = { PATH: process.env.PATH, HOME: dir, SCPCTL_CONFIG_DIR: dir, SCPCTL_TOKEN_STORE: 'file' };
      const login = await scpctl(['login', '--base-url', 'https://tenant.example.com', '--with-token', '--no-verify'], { env, input: STALE });
      expect(login.exitCode, login.stderr).toBe(0);
      const r = await scpctl(['config', 'migrate-token'], { env });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('scpctl: migrate-token: the OS credential store is needed: SCPCTL_TOKEN_STORE=file keeps tokens out of the OS credential store; nothing was changed');
      expect(r.stderr).toMatch(/^hint: Unset SCPCTL_TOKEN_STORE .*then run it again$/m);
      expect(r.stderr).not.toContain('--token-store');
      // `config set tokenStore keyring` moves the token as migrate-token does, and its failure names it.
      const set = await scpctl(['config', 'set', 'tokenStore', 'keyring'], { env });
      expect(set.exitCode).toBe(2);
      expect(set.stderr).toMatch(/^scpctl: config set tokenStore: the OS credential store is needed: /m);
    });
  });

  it('a context whose token is in the OS store: a command and doctor name the variable and the login of that context', async () => {
    await withTempDir('scpctl-first-hour-', async (dir) => {
      const env = { PATH: process.env.PATH, HOME: dir, SCPCTL_CONFIG_DIR: dir, SCPCTL_TOKEN_STORE: 'file' };
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ contexts: { laptop: { baseUrl: 'http://127.0.0.1:1', tokenStore: 'keyring' } } }), { mode: 0o600 });
      for (const args of [['buckets', 'view', 'finance'], ['doctor']]) {
        const r = await scpctl(['--context', 'laptop', ...args], { env });
        expect(r.exitCode, args.join(' ')).toBe(args[0] === 'doctor' ? 6 : 3); // doctor: nothing listens on port 1
        expect(r.stdout + r.stderr, args.join(' ')).toMatch(/hint: Unset SCPCTL_TOKEN_STORE .*; or store the token in the file.*: scpctl --context laptop login --token-store file$/m);
      }
    });
  });
});
