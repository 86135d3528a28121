// docs/recipes/gitops.md, run as written: its manifest, the action's apply workflow it shows, and the GitLab
// jobs' scripts, with `scpctl` on PATH pointing at the built binary and the emulator standing in for the service.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { parse } from 'yaml';
import { ROOT, TOKEN, envFor, removeDir, startEmulator, tempDir, type Emulator, scpctlOnPath } from './harness.js';

const doc = readFileSync(join(ROOT, 'docs/recipes/gitops.md'), 'utf8');

/** The fenced yaml block whose first line is `# <name>`. */
function block(name: string): string {
  const match = new RegExp('```yaml\\n(# ' + name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '[\\s\\S]*?)```').exec(doc);
  expect(match, `a yaml block starting "# ${name}" in gitops.md`).not.toBeNull();
  return match![1]!;
}

let emu: Emulator;
let work: string;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator(['--profile', 'finance', '--profile', 'legal', '--profile', 'analytics']);
  work = tempDir();
  const shims = scpctlOnPath(join(work, '.bin'));
  env = { ...(envFor(emu, work) as Record<string, string>), PATH: `${shims}:${process.env.PATH}`, SCPCTL_TOKEN: TOKEN };
  mkdirSync(join(work, 'lists'));
  writeFileSync(join(work, 'scpctl.yaml'), block('scpctl.yaml'));
  writeFileSync(join(work, 'lists', 'legal.txt'), '# legal holds\nlegal-hold-2025\nlegal-hold-2026\n');
  writeFileSync(join(work, 'lists', 'analytics-extra.txt'), 'analytics-scratch\n');
});
afterAll(async () => {
  await emu?.stop();
  removeDir(work);
});
beforeEach(async () => {
  await emu.setProfile('finance', ['finance-reports', 'finance-old']);
  await emu.setProfile('legal', ['legal-hold-2025']);
  await emu.setProfile('analytics', ['analytics-raw', 'analytics-curated', 'analytics-scratch']);
  await emu.clearRequests();
});

function sh(script: string, extra: Record<string, string> = {}) {
  return execa('sh', ['-ec', script], { cwd: work, env: { ...env, ...extra }, extendEnv: false, reject: false, stripFinalNewline: false });
}

describe('docs/recipes/gitops.md', () => {
  it('the manifest is one the schema and the reader accept', async () => {
    const r = await sh('scpctl apply -f scpctl.yaml --dry-run');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('finance:\n+ finance-archive\n- finance-old\nlegal:\n+ legal-hold-2026\n');
  });

  it('GitHub Actions: the guide shows the action\'s apply workflow, verbatim (test/e2e/action.test.ts runs the action)', () => {
    const workflow = readFileSync(join(ROOT, 'docs/recipes/scpctl-apply.yml'), 'utf8');
    expect(block('.github/workflows/scpctl-apply.yml')).toBe(workflow);
    expect(parse(workflow).jobs.apply.steps.at(-1).with.mode).toBe('apply');
  });

  it('GitLab: the manual apply applies the saved plan; a profile changed since is left alone with exit 9', async () => {
    const pipeline = parse(block('.gitlab-ci.yml'));
    const script = (job: string): string => pipeline[job].script.join('\n');
    const variables = pipeline.variables as Record<string, string>;

    const plan = await sh(script('plan'), variables);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(readFileSync(join(work, 'plan.md'), 'utf8')).toContain('| legal | 1 | 0 | planned |');
    expect(JSON.parse(readFileSync(join(work, 'plan.json'), 'utf8')).profiles).toHaveLength(3);

    // Between the plan and the manual apply, someone changes finance in the console.
    await emu.setProfile('finance', ['finance-reports', 'finance-old', 'finance-urgent']);
    await emu.clearRequests();
    const apply = await sh(script('apply'), variables);
    expect(apply.exitCode).toBe(9);
    expect(apply.stdout).toBe('legal:\n+ legal-hold-2026\n'); // what is sent; finance's planned change is not
    expect(apply.stderr).toContain('✖ finance: the live list of finance changed since the plan was made; left alone (exit 9)');
    expect((await emu.changes()).map((q) => q.name)).toEqual(['legal']);
    expect((await emu.profile('finance')).buckets).toEqual(['finance-reports', 'finance-old', 'finance-urgent']);

    // A fresh pipeline plans over the new state and applies cleanly.
    expect((await sh(script('plan'), variables)).exitCode).toBe(0);
    const again = await sh(script('apply'), variables);
    expect(again.exitCode, again.stderr).toBe(0);
    expect((await emu.profile('finance')).buckets.sort()).toEqual(['finance-archive', 'finance-reports']);
  });

  it('the history commands at the end restore the list as it was before the apply', async () => {
    const manifest = 'scpctl apply -f scpctl.yaml';
    expect((await sh(manifest)).exitCode).toBe(0);
    const listed = await sh('scpctl buckets history finance');
    const id = listed.stdout.split('\n')[0]!.split(/\s+/)[0]!;
    expect(id).toMatch(/^[0-9a-z]{8,16}$/);
    const lines = /```sh\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf('## When something went wrong')))![1]!;
    const commands = lines.split('\n').filter((l) => l.startsWith('scpctl')).map((l) => l.replace(/\s+#.*$/, '').replace(/\bID\b/g, id));
    const outputs = [];
    for (const command of commands) {
      const r = await sh(command);
      expect(r.exitCode, `${command}: ${r.stderr}`).toBe(0);
      outputs.push(r.stdout);
    }
    expect(outputs[1]).toBe('finance-reports\nfinance-old\n');
    expect((await emu.profile('finance')).buckets.sort()).toEqual(['finance-old', 'finance-reports']);
  });
});
