// The single executable (npm run build:binary): built here, then run where no Node is on the PATH, against
// the emulator the binary itself starts: --version, a view, a report and apply --dry-run, as the package does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa, type ResultPromise } from 'execa';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, has, kernelKeyringAvailable, removeDir, shellQuote, stripEscapes, tempDir, until } from './harness.js';

const BINARY = join(ROOT, 'dist', 'bin', 'scpctl');
let dir: string;
let emulator: ResultPromise | undefined;
let url = '';
let adminKey = '';

/** The binary with nothing of the test's environment: no Node on the PATH, a config folder of its own. */
const run = (args: string[], extra: Record<string, string> = {}) =>
  execa(BINARY, args, {
    reject: false,
    extendEnv: false,
    env: { PATH: '/nonexistent', HOME: dir, SCPCTL_CONFIG_DIR: dir, SCPCTL_BASE_URL: url, SCPCTL_TOKEN: 'emulator-token', ...extra },
    cwd: dir,
  });

beforeAll(async () => {
  dir = tempDir('scpctl-binary-');
  const built = await execa(process.execPath, [join(ROOT, 'scripts', 'build-binary.mjs')], { reject: false });
  expect(built.exitCode, built.stderr).toBe(0);
  expect(existsSync(BINARY)).toBe(true);
  emulator = execa(BINARY, ['emulator', '--port', '0', '--profile', 'finance=alpha-data,old-bucket'], { reject: false, extendEnv: false, env: { PATH: '/nonexistent' } });
  let out = '';
  emulator.stdout!.on('data', (chunk: Buffer) => (out += chunk));
  url = await until(async () => /^listening on (\S+)$/m.exec(out)?.[1], 15_000, () => `the emulator of the binary: ${out}`);
  adminKey = await until(async () => /^admin key: (\S+)$/m.exec(out)?.[1], 15_000, () => `the emulator's admin key: ${out}`);
}, 60_000);
afterAll(async () => {
  emulator?.kill('SIGTERM');
  await emulator?.catch(() => undefined);
  removeDir(dir);
});

describe('the single executable, with no Node on the PATH', () => {
  it('--version, a view, a report and apply --dry-run against its own emulator', async () => {
    const version = await run(['--version']);
    expect(version.stdout).toBe(JSON.parse((await import('node:fs')).readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    const view = await run(['buckets', 'view', 'finance']);
    expect(view.exitCode, view.stderr).toBe(0);
    expect(view.stdout).toBe('alpha-data\nold-bucket');
    const report = await run(['report', '--type', 'application', '--limit', '3', '-o', 'ndjson']);
    expect(report.exitCode, report.stderr).toBe(0);
    expect(report.stdout.trim().split('\n')).toHaveLength(3);
    mkdirSync(join(dir, 'repo'), { recursive: true });
    writeFileSync(join(dir, 'repo', 'scpctl.yaml'), 'profiles:\n  finance:\n    buckets: [alpha-data, bravo-logs]\n');
    const plan = await run(['apply', '-f', 'repo/scpctl.yaml', '--dry-run']);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(plan.stdout).toBe('finance:\n+ bravo-logs\n- old-bucket');
    const refused = await run(['buckets', 'view', 'nope']);
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('many tenants and a tokenCommand in the executable (contract 16)', () => {
  it('--contexts runs each context with its own token: one stored by login, one printed by a tokenCommand', async () => {
    const home = join(dir, 'tenants');
    mkdirSync(home, { recursive: true });
    const env = { PATH: '/nonexistent', HOME: home, SCPCTL_CONFIG_DIR: home, SCPCTL_TOKEN_STORE: 'file' };
    const bin = (args: string[], input?: string) => execa(BINARY, args, { reject: false, extendEnv: false, env, cwd: home, input });
    expect((await bin(['login', '--base-url', url, '--with-token', '--no-verify', '--context', 'alpha'], 'emulator-token\n')).exitCode).toBe(0);
    expect((await bin(['config', 'set', 'baseUrl', url, '--context', 'bravo'])).exitCode).toBe(0);
    const printf = ['/usr/bin/printf', '%s\\n', 'emulator-token'];
    expect((await bin(['config', 'set', 'tokenCommand', JSON.stringify(printf), '--context', 'bravo'])).exitCode).toBe(0);
    const view = await bin(['buckets', 'view', 'finance', '--contexts', '*', '-o', 'text']);
    expect(view.exitCode, view.stderr).toBe(0);
    expect(view.stdout).toBe('alpha\talpha-data\nalpha\told-bucket\nbravo\talpha-data\nbravo\told-bucket');
    expect(view.stderr).toMatch(/^alpha: ok$/m);
    expect(view.stderr).toMatch(/^bravo: ok$/m);
    expect(`${view.stdout}${view.stderr}`).not.toContain('emulator-token');
  });
});

describe('--version (commander\'s, written as every output is: src/io.ts)', () => {
  it('a reader gone away: exit 0, nothing on stderr; a full disk: one line, exit 1', async () => {
    const child = execa(BINARY, ['--version'], { reject: false, extendEnv: false, env: { PATH: '/nonexistent' }, stdin: 'ignore', buffer: { stdout: false } });
    child.stdout!.destroy();
    const gone = await child;
    expect(gone.exitCode).toBe(0);
    expect(String(gone.stderr)).toBe('');
    const full = await execa('sh', ['-c', `exec ${shellQuote(BINARY)} --version > /dev/full`], { reject: false, stdin: 'ignore' });
    expect(full.exitCode).toBe(1);
    expect(full.stderr).toBe('scpctl: cannot write the output: ENOSPC');
  });
});

describe.skipIf(!kernelKeyringAvailable())('the OS credential store (contract 16): the executable carries its addon, loaded from a private file', () => {
  const helper = join(ROOT, 'test/e2e/keyring-session.py');
  const inKeyring = async (steps: object[], denyWrites = false) => {
    const done = await execa('python3', [helper, ...(denyWrites ? ['--deny-writes'] : [])], { input: JSON.stringify(steps), reject: false, extendEnv: false, env: { PATH: process.env.PATH } });
    expect(done.exitCode, done.stderr).toBe(0);
    return JSON.parse(done.stdout) as Array<{ code: number; stderr: string; stdout: string; value: string | null }>;
  };

  it('login stores the token in a real kernel keyring and a view uses it; where no store answers, the file and one line', async () => {
    const config = tempDir('scpctl-binary-store-');
    const env = { PATH: '/nonexistent', HOME: config, SCPCTL_CONFIG_DIR: config, TMPDIR: config };
    const login = (context: string) => ({ run: [BINARY, '--context', context, 'login', '--base-url', url, '--with-token'], input: 'emulator-token\n', env });
    const [stored, entry, view, logout] = await inKeyring([
      login('k'),
      { read: `keyring:k@${config}@scpctl` },
      { run: [BINARY, '--context', 'k', 'buckets', 'view', 'finance'], env },
      { run: [BINARY, '--context', 'k', 'logout'], env },
      { clear: config },
    ]);
    expect(stored.code, stored.stderr).toBe(0);
    expect(stored.stderr).toContain('saved in the OS credential store');
    expect(entry.value).toBe('emulator-token');
    expect(view.stdout, view.stderr).toContain('alpha-data');
    expect(logout.code, logout.stderr).toBe(0);
    // The addon's private folder is gone once it is loaded.
    const { readdirSync, readFileSync } = await import('node:fs');
    expect(readdirSync(config).filter((name) => name.startsWith('scpctl-addon-'))).toEqual([]);

    const [fallback] = await inKeyring([login('f'), { clear: config }], true);
    expect(fallback.code, fallback.stderr).toBe(0);
    expect(fallback.stderr.split('\n')[1]).toBe('warning: no OS credential store answered (AccessDenied); the token is in the config file (mode 0600)');
    expect(JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')).contexts.f).toEqual({ baseUrl: url, token: 'emulator-token' });
    removeDir(config);
  });
});

describe('the packages only some commands load, each an asset of the executable (sea-main.cjs)', () => {
  it('the config store (proper-lockfile), a table of wide names, and the proxy tunnel', async () => {
    const login = await execa(BINARY, ['--context', 'ci', 'login', '--base-url', 'https://tenant.example.com', '--with-token', '--no-verify', '-q'], {
      reject: false,
      extendEnv: false,
      env: { PATH: '/nonexistent', HOME: dir, SCPCTL_CONFIG_DIR: dir, SCPCTL_TOKEN_STORE: 'file' },
      input: 'stored-token\n',
    });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(JSON.parse((await import('node:fs')).readFileSync(join(dir, 'config.json'), 'utf8')).contexts.ci.baseUrl).toBe('https://tenant.example.com');
    // A name that is not plain ASCII is measured by its width in columns (string-width, in the bundle).
    const appended = await run(['buckets', 'append', 'finance', 'données-été', '--no-validate', '-q']);
    expect(appended.exitCode, appended.stderr).toBe(0);
    const table = await run(['buckets', 'view', 'finance', '-o', 'table']);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/│ +3 │ données-été +│/);
    const proxied = await run(['buckets', 'view', 'finance', '--base-url', 'https://service.example.com', '--retries', '0'], { HTTPS_PROXY: 'http://127.0.0.1:1' });
    expect(proxied.stderr).toMatch(/^scpctl: cannot reach the proxy 127\.0\.0\.1:1/);
    expect(proxied.stderr).not.toMatch(/\n\s+at /);
  });

  it.skipIf(!has('script'))('the spinner (ora) on a terminal, while an answer is slow', async () => {
    const faults = await fetch(`${url}/__emulator/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ faults: [{ kind: 'delay', ms: 1000, endpoint: 'bucket', op: 'viewBucketList' }] }),
    });
    expect(faults.status).toBe(200);
    const inTerminal = await execa('script', ['-qfec', `stty cols 80 rows 40; ${shellQuote(BINARY)} buckets view finance`, '/dev/null'], {
      reject: false,
      extendEnv: false,
      // (script and sh need a PATH; the executable loads ora from itself, never from a Node or node_modules.)
      env: { PATH: process.env.PATH, TERM: 'xterm-256color', HOME: dir, SCPCTL_CONFIG_DIR: dir, SCPCTL_BASE_URL: url, SCPCTL_TOKEN: 'emulator-token' },
      stdin: 'ignore',
    });
    expect(inTerminal.exitCode, String(inTerminal.stdout)).toBe(0);
    expect(String(inTerminal.stdout)).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    expect(stripEscapes(String(inTerminal.stdout))).toMatch(/viewBucketList finance \(\d\.\d s\)/);
  });
});
