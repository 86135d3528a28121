// Found by the red-team review of issue 34's change, each tried as an attacker (or a hurried user) would:
// every test here failed before its fix (the commit that added it says how).
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOKEN, type Emulator, ndjson, removeDir, scpctl, tempDir, useEmulator } from './harness.js';

const dir = tempDir();
afterAll(() => removeDir(dir));
const env = { PATH: process.env.PATH, HOME: dir, SCPCTL_CONFIG_DIR: dir, SCPCTL_TOKEN: TOKEN };

describe('a line commander refuses is reported as every other error: masked and made visible', () => {
  it('`--token=VALUE` (there is no --token flag) never echoes the token, nor another context\'s stored one', async () => {
    const other = 'other-ctx-Zq9XyW7vU5tR';
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ contexts: { other: { token: other } } }));
    const r = await scpctl([`--token=${TOKEN}`, 'buckets', 'view', 'finance'], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("scpctl: unknown option '--token=***'\n");
    const stored = await scpctl(['buckets', 'view', 'finance', `--tokn=${other}`], { env });
    expect(stored.exitCode).toBe(2);
    expect(stored.stderr).not.toContain(other);
    expect(stored.stderr).toContain("unknown option '--tokn=***'");
  });

  it('an escape sequence in a refused word reaches the terminal as an escape, never as a control character', async () => {
    const r = await scpctl(['buckets', 'view', 'finance', '--\x1b]0;owned\x07\x1b[2J'], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toMatch(/[\x00-\x09\x0b-\x1f]/);
    expect(r.stderr).toContain("unknown option '--\\x1b]0;owned\\x07\\x1b[2J'");
  });

  it('a suggestion and the list of commands stay as they were', async () => {
    const close = await scpctl(['bukets', 'view', 'finance'], { env });
    expect(close.exitCode).toBe(2);
    expect(close.stderr).toContain("scpctl: unknown command 'bukets'");
    expect(close.stderr).toContain('hint: Did you mean buckets?');
    const far = await scpctl(['nosuch'], { env });
    expect(far.exitCode).toBe(2);
    expect(far.stderr).toMatch(/^scpctl: unknown command 'nosuch'\nhint: the commands of scpctl are buckets, apply, /);
  });
});

describe('`help` only shows help', () => {
  it('`help -- config rename-context work` shows help and renames nothing (the words after -- were run, "--help" their last)', async () => {
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ contexts: { work: { baseUrl: 'https://work.example' } } }));
    const r = await scpctl(['help', '--', 'config', 'rename-context', 'work'], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^Usage: scpctl /);
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ contexts: { work: { baseUrl: 'https://work.example' } } });
    const deeper = await scpctl(['help', 'buckets', '--', 'delete', 'finance', 'old-bucket'], { env });
    expect(deeper.exitCode).toBe(0);
    expect(deeper.stdout).toMatch(/^Usage: scpctl buckets /);
  });
});

// At once: each test has its own profile and files, and counts only its own requests.
describe('a plan or checkpoint file handed between jobs cannot be forged from an older one', { concurrent: true }, () => {
  let emu: Emulator;
  let work: string;
  let emuEnv: Record<string, string | undefined>;
  useEmulator(['--events', '200'], (suite) => ({ emu, dir: work, env: emuEnv } = suite));
  const run = (args: string[]) => scpctl(args, { env: emuEnv });
  const at = (name: string): string => join(work, name);

  it('apply --plan refuses a plan whose changes were edited, though its tenant key (copied from a real plan) matches', async () => {
    await emu.setProfile('forged', ['alpha-data', 'bravo-logs']);
    writeFileSync(at('m.yaml'), 'profiles:\n  forged:\n    buckets: [alpha-data, bravo-logs]\n');
    // A real plan that changes nothing: what an attacker finds in an old artifact.
    expect((await run(['apply', '-f', at('m.yaml'), '--dry-run', '--save-plan', at('plan.json')])).exitCode).toBe(0);
    const plan = JSON.parse(readFileSync(at('plan.json'), 'utf8'));
    // The live list is unchanged, so its fingerprint still holds: only the changes are the attacker's.
    plan.profiles[0].add = ['attacker-exfil'];
    plan.profiles[0].delete = ['bravo-logs'];
    writeFileSync(at('plan.json'), JSON.stringify(plan, null, 1));
    const r = await run(['apply', '--plan', at('plan.json')]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('plan.json: the plan was changed after it was saved');
    expect((await emu.requests()).filter((q) => q.name === 'forged' && q.op === 'modifyBucketList')).toEqual([]);
    expect((await emu.profile('forged')).buckets).toEqual(['alpha-data', 'bravo-logs']);
  });

  it('GITHUB_STEP_SUMMARY naming a FIFO no one reads: a warning and exit 0, never a run that SIGINT and SIGTERM cannot end', async () => {
    await emu.setProfile('summary', ['alpha-data']);
    writeFileSync(at('one.yaml'), 'profiles:\n  summary:\n    buckets: [alpha-data]\n');
    const fifo = at('summary.fifo');
    execFileSync('mkfifo', [fifo]);
    // Before: the append's open waited in Node's thread pool for a reader, and exit waits for the pool.
    const r = await scpctl(['apply', '-f', at('one.yaml'), '--dry-run'], { env: { ...emuEnv, GITHUB_STEP_SUMMARY: fifo }, timeout: 8000 });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`warning: could not append the plan to GITHUB_STEP_SUMMARY (${fifo} is a FIFO, not a regular file)`);
  });

  it('a checkpoint whose end was moved forward (a window skipped, its events never exported) is refused', async () => {
    const file = at('cp.json');
    const base = ['report', '--type', 'application', '--all', '-o', 'ndjson', '--retries', '0', '--checkpoint', file];
    // The last complete run ended two hours ago; the attacker's events lie in the hour after it.
    expect((await run([...base, '--start', '3h', '--lag', '7200'])).exitCode).toBe(0);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...saved, end: saved.end + 3600 }));
    const reports = async () => (await emu.requests()).filter((q) => q.path.endsWith('/report')).length;
    const before = await reports();
    const r = await run(base);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('cp.json: the checkpoint was changed after it was written');
    expect(ndjson(r.stdout)).toEqual([]);
    expect(await reports()).toBe(before);
  });
});
