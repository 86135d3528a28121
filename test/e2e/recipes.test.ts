// The CI recipes of docs/recipes.md, run as written (docs/recipes/*), with `scpctl` on PATH pointing at the built binary
// and the emulator standing in for the service. docs/recipes.md must hold each recipe verbatim.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { parse } from 'yaml';
import { ROOT, TOKEN, envFor, removeDir, startEmulator, tempDir, type Emulator, scpctlOnPath } from './harness.js';

let emu: Emulator;
let work: string;
let env: Record<string, string>;

const recipe = (name: string) => readFileSync(join(ROOT, 'docs/recipes', name), 'utf8');

beforeAll(async () => {
  emu = await startEmulator(['--profile', 'finance']);
  work = tempDir();
  const shims = scpctlOnPath(join(work, 'bin'));
  env = { ...(envFor(emu, work) as Record<string, string>), PATH: `${shims}:${process.env.PATH}` };
});
afterAll(async () => {
  await emu?.stop();
  removeDir(work);
});
beforeEach(async () => {
  await emu.setProfile('finance', ['approved-one', 'stale-bucket']);
  await emu.clearRequests();
});

function sh(script: string, extraEnv: Record<string, string> = {}) {
  return execa('sh', ['-c', script], { cwd: work, env: { ...env, ...extraEnv }, extendEnv: false, reject: false, stripFinalNewline: false });
}

/** The `run:` commands of a GitHub Actions step, by step name. */
function workflowStep(yaml: string, name: string): string {
  const lines = yaml.split('\n');
  const start = lines.findIndex((l) => l.trim() === `- name: ${name}`);
  expect(start, `step ${name}`).toBeGreaterThan(-1);
  const out: string[] = [];
  for (let i = start + 1; i < lines.length && !lines[i]!.trim().startsWith('- '); i++) {
    const line = lines[i]!;
    const inline = /^\s+run: (?!\|)(.+)$/.exec(line);
    if (inline) out.push(inline[1]!);
    else if (/^\s+run: \|$/.test(line)) {
      for (i++; i < lines.length && /^\s{10}/.test(lines[i]!); i++) out.push(lines[i]!.trim());
      i--;
    }
  }
  return out.join('\n');
}

describe('recipes', () => {
  it('every recipe stands verbatim in docs/recipes.md', () => {
    const readme = readFileSync(join(ROOT, 'docs', 'recipes.md'), 'utf8');
    for (const name of ['sync-allowlist.yml', 'drift-check.sh', 'append-pipeline.sh']) {
      expect(readme.includes(recipe(name).trim()), `${name} in docs/recipes.md`).toBe(true);
    }
  });

  it('GitHub Actions: the pull-request plan passes and shows the plan; the push sync applies and verifies', async () => {
    writeFileSync(join(work, 'allowlist.txt'), '# finance allowlist\napproved-one\napproved-two\n');
    const yaml = recipe('sync-allowlist.yml');
    const ciEnv = { PROFILE: 'finance', SCPCTL_TOKEN: TOKEN };

    const plan = await sh(workflowStep(yaml, 'Plan'), ciEnv);
    expect(plan.exitCode).toBe(0);
    expect(plan.stdout).toContain('+ approved-two\n- stale-bucket\n');
    expect(plan.stdout).toContain('::notice::merging this changes the bucket list of finance');
    expect((await emu.requests()).every((r) => r.query.op === 'viewBucketList')).toBe(true);

    const sync = await sh(workflowStep(yaml, 'Sync'), ciEnv);
    expect(sync.exitCode).toBe(0);
    expect(sync.stderr).toContain('✔ verified');
    expect((await emu.profile('finance')).buckets.sort()).toEqual(['approved-one', 'approved-two']);

    const again = await sh(workflowStep(yaml, 'Plan'), ciEnv);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).not.toContain('::notice::');
  });

  it('GitHub Actions: a bad token fails the plan step with exit 3', async () => {
    writeFileSync(join(work, 'allowlist.txt'), 'approved-one\n');
    const plan = await sh(workflowStep(recipe('sync-allowlist.yml'), 'Plan'), { PROFILE: 'finance', SCPCTL_TOKEN: 'revoked' });
    expect(plan.exitCode).toBe(3);
  });

  it('drift check: exit 0 in sync, exit 8 with the differences when drifted', async () => {
    writeFileSync(join(work, 'allowlist.txt'), 'approved-one\nstale-bucket\n');
    const script = join(work, 'drift-check.sh');
    writeFileSync(script, recipe('drift-check.sh'));
    const clean = await execa('sh', [script], { cwd: work, env, extendEnv: false, reject: false });
    expect(clean.exitCode).toBe(0);
    expect(clean.stdout).toBe('');

    writeFileSync(join(work, 'allowlist.txt'), 'approved-one\nmissing-one\n');
    const drift = await execa('sh', [script], { cwd: work, env, extendEnv: false, reject: false });
    expect(drift.exitCode).toBe(8);
    expect(drift.stdout).toBe('drift on finance: 1 missing, 1 unexpected\n+ missing-one\n- stale-bucket');
    expect((await emu.requests()).every((r) => r.query.op === 'viewBucketList')).toBe(true);
  });

  it('report export (cron, systemd timer): appends once per window, a failed run moves nothing', async () => {
    expect(readFileSync(join(ROOT, 'docs/recipes/report-export-cron.md'), 'utf8')).toContain(recipe('report-export.sh').trim());
    const script = join(work, 'report-export.sh');
    writeFileSync(script, recipe('report-export.sh'));
    const vars = { TYPE: 'application', STATE: join(work, 'state'), OUT: join(work, 'log', 'application.ndjson') };
    const exportRun = (lag: number) =>
      execa('sh', [script], { cwd: work, env: { ...env, ...vars, LAG: String(lag) }, extendEnv: false, reject: false });
    // A first run up to 12 hours ago, then runs up to now − 300 s: each has events to fetch.
    const first = await exportRun(43_200);
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toBe('');
    const lines = readFileSync(vars.OUT, 'utf8').split('\n').filter(Boolean);
    const checkpoint = JSON.parse(readFileSync(join(vars.STATE, 'application.checkpoint'), 'utf8'));
    expect(lines.length).toBeGreaterThan(10);
    expect(checkpoint.records).toBe(lines.length);

    await emu.faults([{ kind: 'status', status: 503, endpoint: 'report', count: 10 }]);
    const failed = await exportRun(300);
    await emu.clearFaults();
    expect(failed.exitCode).toBe(6);
    expect(failed.stderr).toMatch(/^scpctl: report: HTTP 503/);
    expect(JSON.parse(readFileSync(join(vars.STATE, 'application.checkpoint'), 'utf8'))).toEqual(checkpoint);
    expect(readFileSync(vars.OUT, 'utf8').split('\n').filter(Boolean)).toEqual(lines);

    expect((await exportRun(300)).exitCode).toBe(0);
    const after = JSON.parse(readFileSync(join(vars.STATE, 'application.checkpoint'), 'utf8'));
    expect(after.start).toBe(checkpoint.end);
    expect(after.records).toBeGreaterThan(0);
    expect(readFileSync(vars.OUT, 'utf8').split('\n').filter(Boolean)).toHaveLength(lines.length + after.records);
  });

  it('shell pipeline: grep and sort into one append', async () => {
    mkdirSync(join(work, 'approved'), { recursive: true });
    writeFileSync(join(work, 'approved', 'a.txt'), '# team a\nteam-a-logs\nshared-bucket\nscratch-test\n');
    writeFileSync(join(work, 'approved', 'b.txt'), 'shared-bucket\nteam-b-data\n');
    const r = await sh(recipe('append-pipeline.sh'));
    expect(r.exitCode).toBe(0);
    const appends = (await emu.requests()).filter((q) => q.query.op === 'appendToBucketList');
    expect(appends).toHaveLength(1);
    expect(JSON.parse(appends[0]!.body)).toEqual({ list: 'shared-bucket,team-a-logs,team-b-data' });
  });
});

/** Every place in a parsed workflow where a string names a secret, as a path (`jobs.plan.steps.1.with.token`). */
function secretPaths(value: unknown, path: string[] = []): string[] {
  if (typeof value === 'string') return /\bsecrets\./.test(value) ? [path.join('.')] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => secretPaths(inner, [...path, key]));
}

describe('the GitHub Action workflows (docs/recipes/github-action.md)', () => {
  const WORKFLOWS = [
    { file: 'scpctl-plan.yml', job: 'plan', event: 'pull_request', permissions: { contents: 'read', 'pull-requests': 'write' } },
    { file: 'scpctl-apply.yml', job: 'apply', event: 'push', permissions: { contents: 'read', 'pull-requests': 'write' } },
    { file: 'scpctl-drift.yml', job: 'drift', event: 'schedule', permissions: { contents: 'read', issues: 'write' } },
  ];
  const action = parse(readFileSync(join(ROOT, 'action/action.yml'), 'utf8'));

  it('stand verbatim in github-action.md, and gitops.md shows the apply one', () => {
    const guide = readFileSync(join(ROOT, 'docs/recipes/github-action.md'), 'utf8');
    for (const { file } of WORKFLOWS) expect(guide.includes(`\`\`\`yaml\n${recipe(file)}\`\`\``), file).toBe(true);
  });

  it('each job has its own concurrency group (none for the workflow), minimal permissions, and the token only in the action step\'s `with`', () => {
    const groups: string[] = [];
    for (const { file, job, event, permissions } of WORKFLOWS) {
      const workflow = parse(recipe(file));
      expect(workflow.concurrency, file).toBeUndefined();
      expect(Object.keys(workflow.on), file).toContain(event);
      expect(workflow.permissions, file).toEqual(permissions);
      expect(Object.keys(workflow.jobs), file).toEqual([job]);
      const steps = workflow.jobs[job].steps as Array<{ uses?: string; with?: Record<string, string> }>;
      const at = steps.findIndex((step) => /\/scpctl\/action@/.test(step.uses ?? ''));
      expect(at, file).toBeGreaterThan(-1);
      expect(secretPaths(workflow), file).toEqual([`jobs.${job}.steps.${at}.with.token`]);
      expect(steps[at]!.with!.token).toBe('${{ secrets.SCPCTL_TOKEN }}');
      expect(steps[at]!.with!.mode).toBe(job);
      for (const input of Object.keys(steps[at]!.with!)) expect(Object.keys(action.inputs), `${file}: ${input}`).toContain(input);
      groups.push(workflow.jobs[job].concurrency.group);
    }
    expect(new Set(groups).size).toBe(groups.length);
    // An apply is never cancelled by another run of its group.
    expect(parse(recipe('scpctl-apply.yml')).jobs.apply.concurrency['cancel-in-progress']).toBe(false);
  });

  it('the CLI recipe: a plan and a sync never share a concurrency group, the token only in the two steps that use it, forks not planned', () => {
    const workflow = parse(recipe('sync-allowlist.yml'));
    expect(workflow.concurrency).toBeUndefined();
    expect(workflow.jobs.plan.concurrency.group).not.toBe(workflow.jobs.sync.concurrency.group);
    expect(workflow.jobs.sync.concurrency['cancel-in-progress']).toBe(false);
    expect(secretPaths(workflow).sort()).toEqual(['jobs.plan.steps.3.env.SCPCTL_TOKEN', 'jobs.sync.steps.3.env.SCPCTL_TOKEN']);
    expect(workflow.jobs.plan.if).toContain('github.event.pull_request.head.repo.full_name == github.repository');
  });
});


describe('docs/recipes/many-tenants.md, in CI', () => {
  const GLOBEX = 'tok_Globex+/=5dN8qW2eRt';
  let globex: Emulator;
  beforeAll(async () => {
    globex = await startEmulator(['--profile', 'finance=globex-one', '--token', GLOBEX]);
  });
  afterAll(async () => {
    await globex?.stop();
  });
  const blocks = [...readFileSync(join(ROOT, 'docs/recipes/many-tenants.md'), 'utf8').matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map(([, body]) => body!);

  it("logs each tenant in from its secret into the job's own config store, tokens in its file and not the runner's keyring; the dry run then labels both", async () => {
    const ci = blocks.find((block) => block.includes('$RUNNER_TEMP'))!;
    // Checked before it runs: a login that reached for the OS store would leave tokens in the machine's keyring.
    expect(ci.indexOf('export SCPCTL_TOKEN_STORE=file')).toBeGreaterThan(-1);
    expect(ci.indexOf('export SCPCTL_TOKEN_STORE=file')).toBeLessThan(ci.indexOf(' login '));
    const look = blocks.find((block) => block.includes('--dry-run --exit-code'))!.split('\n').find((line) => line.includes('--dry-run --exit-code'))!;
    const runnerTemp = join(work, 'runner-temp');
    mkdirSync(runnerTemp, { recursive: true });
    writeFileSync(join(work, 'allowlist.txt'), 'approved-one\n');
    const secrets = { RUNNER_TEMP: runnerTemp, ACME_PROD_TOKEN: TOKEN, ACME_PROD_URL: emu.url, GLOBEX_PROD_TOKEN: GLOBEX, GLOBEX_PROD_URL: globex.url };
    const r = await execa('bash', ['-euc', `${ci}\n${look}`], { cwd: work, env: { ...env, ...secrets }, extendEnv: false, reject: false });
    expect(r.exitCode, r.stderr).toBe(8);
    expect(r.stdout).toBe('acme-prod\t- stale-bucket\nglobex-prod\t+ approved-one\nglobex-prod\t- globex-one');
    expect(r.stderr).toMatch(/^acme-prod: exit 8 \(differences\)\nglobex-prod: exit 8 \(differences\)$/m);
    const contexts = JSON.parse(readFileSync(join(runnerTemp, 'scpctl', 'config.json'), 'utf8')).contexts;
    expect(contexts).toEqual({ 'acme-prod': { baseUrl: emu.url, token: TOKEN }, 'globex-prod': { baseUrl: globex.url, token: GLOBEX } });
  });
});
