// The OS credential store against a real one (contract section 16): the Linux kernel keyring, each test's
// scpctl runs children of test/e2e/keyring-session.py, inside a session keyring of its own (joined by
// syscall; no keyctl, no D-Bus, no desktop), and the stored token read back from the kernel directly, not
// through scpctl. @napi-rs/keyring tries the Secret Service first and falls back to the kernel keyring; with
// no D-Bus session here it is the kernel keyring that answers. A session keyring that refuses writes is the
// machine where no store answers: login falls back to the 0600 file with one line.
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT, TOKEN, kernelKeyringAvailable, useEmulator, type Emulator } from './harness.js';
import { mayHoldSecret, secretForms } from '../../src/core/secrets.js';

const HELPER = join(ROOT, 'test/e2e/keyring-session.py');
const linux = kernelKeyringAvailable();

type Step = { run: string[]; input?: string; env?: Record<string, string> } | { read: string } | { clear: string };
type Result = { code: number; stdout: string; stderr: string; value: string | null };

/** Runs the steps in a session keyring of their own; every key they made is cleared at the end. */
async function inKeyring(steps: Step[], env: Record<string, string>, how: { denyWrites?: boolean } = {}): Promise<Result[]> {
  const all = [...steps.map((step) => ('run' in step ? { ...step, env: { ...env, ...step.env } } : step)), { clear: env.SCPCTL_CONFIG_DIR! }];
  const done = await execa('python3', [HELPER, ...(how.denyWrites ? ['--deny-writes'] : [])], { input: JSON.stringify(all), reject: false, extendEnv: false, env: { PATH: process.env.PATH } });
  if (done.exitCode !== 0) throw new Error(`keyring-session.py: ${done.stderr}`);
  const results = JSON.parse(done.stdout) as Result[];
  for (const r of results) if (r.stdout !== undefined) expect(r.stdout + r.stderr, 'the token in output').not.toContain(TOKEN);
  return results.slice(0, -1);
}

const scpctl = (...argv: string[]): string[] => [process.execPath, BIN, ...argv];

/** Every file under the folders, as text: what rests on disk. */
function filesUnder(...roots: string[]): string[] {
  return roots.flatMap((root) =>
    existsSync(root) ? readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => readFileSync(join(e.parentPath, e.name), 'latin1')) : [],
  );
}

describe.skipIf(!linux)('the OS credential store: a real kernel keyring', () => {
  let emu: Emulator;
  let dir: string;
  let env: Record<string, string>;
  useEmulator(['--profile', 'finance'], (suite) => {
    ({ emu, dir } = suite);
    env = { PATH: process.env.PATH!, HOME: dir, SCPCTL_CONFIG_DIR: join(dir, 'config'), SCPCTL_STATE_DIR: join(dir, 'state'), NO_COLOR: '1' };
  });
  const entry = (context: string) => `keyring:${context}@${join(dir, 'config')}@scpctl`;
  const config = () => JSON.parse(readFileSync(join(dir, 'config', 'config.json'), 'utf8')).contexts;

  it('login stores it there and the config file says only keyring; commands, config list, doctor and connect() use it; migrate-token both ways; logout removes it', async () => {
    const library = `require(${JSON.stringify(join(ROOT, 'dist/library.cjs'))}).connect().then((s) => s.buckets.view('finance')).then((l) => console.log('size', l.size))`;
    const [login, stored, replace, view, list, got, doctor, lib, toFile, afterFile, toKeyring, afterKeyring, already, logout, afterLogout] = await inKeyring([
      { run: scpctl('login', '--base-url', emu.url, '--with-token'), input: `${TOKEN}\n` },
      { read: entry('default') },
      { run: scpctl('buckets', 'replace', 'finance', 'alpha-data', 'bravo-logs') },
      { run: scpctl('buckets', 'view', 'finance') },
      { run: scpctl('config', 'list') },
      { run: scpctl('config', 'get', 'token') },
      { run: scpctl('doctor') },
      { run: [process.execPath, '-e', library] },
      { run: scpctl('config', 'migrate-token') },
      { read: entry('default') },
      { run: scpctl('config', 'migrate-token', '--to', 'keyring') },
      { read: entry('default') },
      { run: scpctl('config', 'set', 'tokenStore', 'keyring') },
      { run: scpctl('logout') },
      { read: entry('default') },
    ], env);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toBe(`✔ logged in to ${emu.url} (context default); saved in the OS credential store (the base URL in ${join(dir, 'config', 'config.json')})\n`);
    expect(stored.value).toBe(TOKEN);
    expect(replace.code, replace.stderr).toBe(0);
    expect(view.stdout).toBe('alpha-data\nbravo-logs\n');
    expect(list.stdout).toMatch(/^token +tok_\*\*\* +OS credential store \(context default\)$/m);
    expect(list.stdout).toMatch(/^tokenStore +keyring +config \(context default\)$/m);
    expect(got.stdout).toBe('tok_*** (in the OS credential store)\n');
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
    expect(doctor.stdout).toContain('✔ token:           tok_*** from the OS credential store (context default)\n');
    expect(doctor.stdout).toMatch(/✔ token store: +the OS credential store answers \(service scpctl, account default@/);
    expect(lib.stdout, lib.stderr).toBe('size 2\n');
    expect(toFile.stderr).toMatch(/^✔ token of context default moved from the OS credential store to the config file /);
    expect(afterFile.value).toBeNull();
    expect(toKeyring.stderr).toMatch(/^✔ token of context default moved from the config file .* to the OS credential store\n$/);
    expect(afterKeyring.value).toBe(TOKEN);
    expect(already.stderr).toBe('the token of context default is already in the OS credential store\n');
    expect(logout.stderr).toBe('✔ token removed from context default (the OS credential store)\n');
    expect(afterLogout.value).toBeNull();
    expect(config().default).toEqual({ baseUrl: emu.url });
  });

  it('a token login stored there is in no file under the config and state folders, in any form the mask knows; rename-context moves it, delete-context removes it', async () => {
    const [login, , stored, rest, contexts, renamed, renamedEntry, oldEntry, deleted, deletedEntry] = await inKeyring([
      { run: scpctl('--context', 'rest', 'login', '--base-url', emu.url, '--with-token'), input: `${TOKEN}\n` },
      { run: scpctl('--context', 'rest', 'buckets', 'replace', 'finance', 'charlie-data') },
      { read: entry('rest') },
      { run: ['cat', join(dir, 'config', 'config.json')] },
      { run: scpctl('config', 'get-contexts', '--json') },
      { run: scpctl('config', 'rename-context', 'rest', 'rest2') },
      { read: entry('rest2') },
      { read: entry('rest') },
      { run: scpctl('config', 'delete-context', 'rest2') },
      { read: entry('rest2') },
    ], env);
    expect(login.code, login.stderr).toBe(0);
    expect(stored.value).toBe(TOKEN);
    expect(JSON.parse(rest.stdout).contexts.rest).toEqual({ baseUrl: emu.url, tokenStore: 'keyring' });
    expect(JSON.parse(contexts.stdout)).toContainEqual({ name: 'rest', current: false, baseUrl: emu.url, token: 'keyring' });
    expect(renamed.code, renamed.stderr).toBe(0);
    expect([renamedEntry.value, oldEntry.value]).toEqual([TOKEN, null]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deletedEntry.value).toBeNull();
    const texts = filesUnder(join(dir, 'config'), join(dir, 'state'));
    expect(texts.length).toBeGreaterThan(1); // the config file and a kept version at least
    for (const text of texts) {
      expect(mayHoldSecret(text, [TOKEN])).toBe(false);
      for (const form of secretForms(TOKEN)) expect(text).not.toContain(form);
    }
  });

  it('a rejected or missing token names the OS credential store as its source (exit 3); login --token-store file takes it out of the store', async () => {
    const relogin = (...more: string[]) => ({ run: scpctl('--context', 'bad', 'login', '--base-url', emu.url, '--with-token', ...more), input: `${TOKEN}\n` });
    const [, rejected, , missing, , again, toFile, gone] = await inKeyring([
      { run: scpctl('--context', 'bad', 'login', '--base-url', emu.url, '--with-token', '--no-verify'), input: 'not-the-token-123456\n' },
      { run: scpctl('--context', 'bad', 'buckets', 'view', 'finance') },
      { clear: entry('bad') },
      { run: scpctl('--context', 'bad', 'buckets', 'view', 'finance') },
      relogin(),
      { read: entry('bad') },
      relogin('--token-store', 'file'),
      { read: entry('bad') },
    ], env);
    expect(again.value).toBe(TOKEN);
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(gone.value).toBeNull();
    expect(config().bad).toEqual({ baseUrl: emu.url, token: TOKEN });
    expect(rejected.code, rejected.stderr).toBe(3);
    expect(rejected.stderr).toContain('the OS credential store (context bad)');
    expect(missing.code, missing.stderr).toBe(3);
    expect(missing.stderr).toMatch(/^scpctl: no token in the OS credential store \(context bad\)\nhint: Store one: scpctl --context bad login\n$/);
  });

  it("a config file others can write never sends the store's token: they could point its baseUrl anywhere (exit 2, nothing sent)", async () => {
    const file = join(dir, 'config', 'config.json');
    const [login, , view, ,] = await inKeyring([
      { run: scpctl('--context', 'shared', 'login', '--base-url', emu.url, '--with-token'), input: `${TOKEN}\n` },
      { run: ['chmod', '666', file] },
      { run: scpctl('--context', 'shared', 'buckets', 'view', 'finance') },
      { run: ['chmod', '600', file] },
      { run: scpctl('config', 'delete-context', 'shared') },
    ], env);
    expect(login.code, login.stderr).toBe(0);
    expect(view.code, view.stderr).toBe(2);
    expect(view.stderr).toContain(`refusing to read the token of context shared from the OS credential store for ${file}: others can write that file`);
  });
});

describe.skipIf(!linux)('no OS credential store answers (a session keyring that refuses writes, as a headless CI runner)', () => {
  let emu: Emulator;
  let dir: string;
  useEmulator(['--profile', 'finance', '--http200-errors'], (suite) => ({ emu, dir } = suite));

  it('login uses the 0600 file and says so in one line; --token-store keyring and migrate-token --to keyring are exit 2, nothing changed; the token still works', async () => {
    const env = { PATH: process.env.PATH!, HOME: dir, SCPCTL_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' };
    const [fallback, chosen, migrate, view] = await inKeyring([
      { run: scpctl('login', '--base-url', emu.url, '--with-token'), input: `${TOKEN}\n` },
      { run: scpctl('--context', 'other', 'login', '--base-url', emu.url, '--with-token', '--token-store', 'keyring'), input: `${TOKEN}\n` },
      { run: scpctl('config', 'migrate-token', '--to', 'keyring') },
      { run: scpctl('buckets', 'view', 'finance') },
    ], env, { denyWrites: true });
    expect(fallback.code, fallback.stderr).toBe(0);
    const lines = fallback.stderr.split('\n');
    expect(lines[1]).toBe('warning: no OS credential store answered (AccessDenied); the token is in the config file (mode 0600)');
    expect(lines.length).toBe(3);
    expect(chosen.code, chosen.stderr).toBe(2);
    expect(chosen.stderr).toContain('scpctl: --token-store keyring: no OS credential store answered (AccessDenied); nothing was stored');
    expect(migrate.code, migrate.stderr).toBe(2);
    expect(migrate.stderr).toContain('nothing was changed');
    expect(view.code, view.stderr).toBe(0);
    const contexts = JSON.parse(readFileSync(join(dir, 'config', 'config.json'), 'utf8')).contexts;
    expect(contexts).toEqual({ default: { baseUrl: emu.url, token: TOKEN } });
  });
});
