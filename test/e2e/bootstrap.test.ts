// docs/recipes/bootstrap.md, run as written: its shell blocks, in order, in a git repository with `scpctl` on
// PATH (the built binary) against the emulator: the export of the live lists, the check that the manifest
// changes nothing, the commit, the count of profiles, and the export again after a change in the console.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { parse } from 'yaml';
import { ROOT, TOKEN, envFor, removeDir, scpctlOnPath, startEmulator, tempDir, type Emulator } from './harness.js';

const doc = readFileSync(join(ROOT, 'docs/recipes/bootstrap.md'), 'utf8');
/** The ```sh blocks, their indentation (a block inside a list item) taken off. */
const blocks = [...doc.matchAll(/^( *)```sh\n([\s\S]*?)^\1```$/gm)].map(([, indent, body]) => body!.replace(new RegExp(`^${indent}`, 'gm'), ''));
const PROFILES = ['finance', 'legal', 'Team Blue', 'empty-one', 'ops'];

let emu: Emulator;
let work: string;
let env: Record<string, string>;
beforeAll(async () => {
  emu = await startEmulator(PROFILES.map((p) => ['--profile', p]).flat());
  await emu.setProfile('finance', ['finance-reports', 'finance-archive']);
  await emu.setProfile('Team Blue', ['blue-data']);
  await emu.setProfile('empty-one', []);
  work = tempDir('scpctl-bootstrap-');
  const shims = scpctlOnPath(join(work, '.bin'));
  const who = { GIT_AUTHOR_NAME: 'CI', GIT_AUTHOR_EMAIL: 'ci@example.com', GIT_COMMITTER_NAME: 'CI', GIT_COMMITTER_EMAIL: 'ci@example.com' };
  env = { ...(envFor(emu, join(work, '.config'), { SCPCTL_RATE: '1000/1' }) as Record<string, string>), ...who, PATH: `${shims}:${process.env.PATH}` };
  await execa('git', ['init', '-q', '-b', 'main', 'repo'], { cwd: work });
  writeFileSync(join(work, 'repo', 'profiles.txt'), `${PROFILES.join('\n')}\n`);
  writeFileSync(join(work, 'repo', '.gitignore'), 'profiles.txt\n');
});
afterAll(async () => {
  await emu?.stop();
  removeDir(work);
});

const bash = (script: string) => execa('bash', ['-euc', script], { cwd: join(work, 'repo'), env, extendEnv: false, reject: false });

describe('docs/recipes/bootstrap.md', () => {
  it('exports the live lists, checks them, commits, counts the profiles, and exports again after a change', async () => {
    expect(blocks.length).toBe(4);
    const exported = await bash(blocks[0]!);
    expect(exported.exitCode, exported.stderr).toBe(0);
    expect(exported.stderr).toContain('wrote gitops/lists/finance.txt (2 names)');
    expect(exported.stderr).toContain('wrote gitops/scpctl.yaml (5 profiles)');
    expect(exported.stderr).toContain('dry run: 0 of 5 profiles to change');
    expect(readdirSync(join(work, 'repo', 'gitops', 'lists')).length).toBe(5);
    const committed = await bash(blocks[1]!);
    expect(committed.exitCode, committed.stderr).toBe(0);
    expect((await execa('git', ['ls-files'], { cwd: join(work, 'repo') })).stdout).toContain('gitops/scpctl.yaml');
    const counted = await bash(blocks[2]!);
    expect([counted.exitCode, counted.stdout]).toEqual([0, 'every profile is there']);
    await emu.setProfile('legal', ['legal-hold']);
    const again = await bash(blocks[3]!);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/gitops\/lists\/legal\.txt \| 1 \+/);
    expect(again.stdout + again.stderr).not.toContain(TOKEN);
  });
});

describe("docs/recipes/bootstrap.md's workflow edits", () => {
  /** GitHub's `paths` globs, enough for these: `**` any run, `*` any run without a slash. */
  const matches = (glob: string, path: string) =>
    new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\0').replace(/\*/g, '[^/]*').replace(/\0/g, '.*')}$`).test(path);
  const yamlBlocks = [...doc.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map(([, body]) => parse(body!));
  const exported = ['gitops/scpctl.yaml', 'gitops/lists/finance.txt'];

  it('the paths filter it shows covers the exported files, which the recipe as copied misses', () => {
    const paths = yamlBlocks.find((block) => block?.on)!.on.pull_request.paths as string[];
    const step = yamlBlocks.find((block) => Array.isArray(block))![0];
    expect(step.with.manifest).toBe(exported[0]);
    for (const file of exported) expect(paths.some((glob) => matches(glob, file)), file).toBe(true);
    const recipe = parse(readFileSync(join(ROOT, 'docs/recipes/scpctl-plan.yml'), 'utf8'));
    for (const file of exported) expect((recipe.on.pull_request.paths as string[]).some((glob) => matches(glob, file)), file).toBe(false);
  });
});
