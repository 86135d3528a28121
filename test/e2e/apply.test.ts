// `scpctl apply` end to end against the emulator: the manifest, the plan in its three forms, saved plans
// guarded by fingerprints, per-profile failures, --wait, and GitHub's step summary.
import { beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOKEN, scpctl, spawnScpctl, type Emulator, useEmulator, until, inTerminal, stripEscapes, has } from './harness.js';

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
useEmulator(['--profile', 'finance', '--profile', 'legal', '--profile', 'ops'], (suite) => ({ emu, dir, env } = suite));

let work: string;
beforeEach(async () => {
  await emu.setProfile('finance', ['alpha-data', 'old-bucket']);
  await emu.setProfile('legal', ['legal-one']);
  await emu.setProfile('ops', ['ops-a', 'ops-b']);
  await emu.setPending('finance', 0);
  await emu.clearFaults();
  await emu.clearRequests();
  work = join(dir, `work-${Math.random().toString(36).slice(2)}`);
  mkdirSync(join(work, 'gitops', 'lists'), { recursive: true });
  writeFileSync(join(work, 'gitops', 'lists', 'legal.txt'), '# legal hold buckets\nlegal-one\nlegal-two  # added in PR 12\n');
  writeFileSync(
    join(work, 'gitops', 'scpctl.yaml'),
    [
      'profiles:',
      '  finance:',
      '    buckets: [alpha-data, bravo-logs]   # inline names',
      '  legal:',
      '    files: [lists/legal.txt]            # relative to this file',
      '  ops:',
      '    buckets: ops-a, ops-b',
      '',
    ].join('\n'),
  );
});

const run = (args: string[], extra: Parameters<typeof scpctl>[1] = {}) => scpctl(args, { env, cwd: work, ...extra });
const MANIFEST = 'gitops/scpctl.yaml';

describe('apply: the plan', () => {
  it('--dry-run prints + / - lines under a heading per differing profile and sends no mutation', async () => {
    const r = await run(['apply', '-f', MANIFEST, '--dry-run']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('finance:\n+ bravo-logs\n- old-bucket\nlegal:\n+ legal-two\n');
    expect(r.stderr).toContain('dry run: 2 of 3 profiles to change (2 to add, 1 to delete); nothing sent\n');
    // The summary is lines of their own, not one line with its newlines escaped.
    expect(r.stderr).toMatch(/^ {2}unchanged\s+1\s+ops$/m);
    expect(r.stderr).not.toContain('\\n');
    const requests = await emu.requests();
    expect(requests.map((q) => q.op).sort()).toEqual(['viewBucketList', 'viewBucketList', 'viewBucketList']);
  });

  it('--exit-code: 8 when anything differs (dry run or applied), 0 when all is in sync', async () => {
    expect((await run(['apply', '-f', MANIFEST, '--dry-run', '--exit-code'])).exitCode).toBe(8);
    expect(await emu.changes()).toEqual([]);
    expect((await run(['apply', '-f', MANIFEST, '--exit-code'])).exitCode).toBe(8);
    const again = await run(['apply', '-f', MANIFEST, '--exit-code']);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toBe('');
  });

  it('applies one modifyBucketList per differing profile, deleteList and addList as sync sends them', async () => {
    const r = await run(['apply', '-f', MANIFEST]);
    expect(r.exitCode, r.stderr).toBe(0);
    const sent = await emu.changes();
    expect(sent.map((q) => [q.name, q.op, JSON.parse(q.body)]).sort()).toEqual([
      ['finance', 'modifyBucketList', { addList: 'bravo-logs', deleteList: 'old-bucket' }],
      ['legal', 'modifyBucketList', { addList: 'legal-two' }],
    ]);
    expect((await emu.profile('finance')).buckets.sort()).toEqual(['alpha-data', 'bravo-logs']);
    expect((await emu.profile('legal')).buckets).toEqual(['legal-one', 'legal-two']);
    expect(r.stderr).toContain('apply: 2 of 3 profiles changed (2 added, 1 deleted)');
    expect(r.stderr).toMatch(/applied\s+2\s+finance, legal/);
  });

  it('--json lists every profile in manifest order, unchanged ones with empty arrays', async () => {
    const dry = await run(['apply', '-f', MANIFEST, '--dry-run', '--json']);
    expect(JSON.parse(dry.stdout)).toEqual({
      profiles: [
        { profile: 'finance', add: ['bravo-logs'], delete: ['old-bucket'], applied: false, status: 'planned' },
        { profile: 'legal', add: ['legal-two'], delete: [], applied: false, status: 'planned' },
        { profile: 'ops', add: [], delete: [], applied: false, status: 'unchanged' },
      ],
    });
    const applied = JSON.parse((await run(['apply', '-f', MANIFEST, '--json'])).stdout);
    expect(applied.profiles.map((p: { profile: string; applied: boolean }) => [p.profile, p.applied])).toEqual([
      ['finance', true],
      ['legal', true],
      ['ops', false],
    ]);
  });

  it('--markdown prints a table with counts and collapsible names, and GITHUB_STEP_SUMMARY gets it appended', async () => {
    const summary = join(work, 'step-summary.md');
    writeFileSync(summary, '# earlier step\n');
    const r = await run(['apply', '-f', MANIFEST, '--dry-run', '--markdown'], { env: { ...env, GITHUB_STEP_SUMMARY: summary } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('### scpctl plan: 2 of 3 profiles to change');
    expect(r.stdout).toContain('| profile | added | removed | result |');
    expect(r.stdout).toContain('| finance | 1 | 1 | planned |');
    expect(r.stdout).toContain('| ops | 0 | 0 | unchanged |');
    expect(r.stdout).toContain('<details><summary>finance: +1 −1</summary>');
    expect(r.stdout).toContain('```diff\n+ bravo-logs\n- old-bucket\n```');
    expect(readFileSync(summary, 'utf8')).toBe(`# earlier step\n${r.stdout}\n`);
    // Without --markdown the summary still gets the Markdown plan (and stdout the text plan).
    const text = await run(['apply', '-f', MANIFEST], { env: { ...env, GITHUB_STEP_SUMMARY: summary } });
    expect(text.stdout).toContain('finance:\n+ bravo-logs');
    expect(readFileSync(summary, 'utf8')).toContain('### scpctl apply: 2 of 3 profiles changed');
  });

  it('a live name holding the token: masked in the plan as text, JSON and Markdown, and in GITHUB_STEP_SUMMARY', async () => {
    // The harness fails a run whose stdout or stderr holds the token; the summary is a file, checked here.
    await emu.setProfile('finance', ['alpha-data', `x${TOKEN}y`]);
    const summary = join(work, 'step-summary.md');
    for (const format of [[], ['--json'], ['--markdown']]) {
      const r = await run(['apply', '-f', MANIFEST, '--dry-run', ...format], { env: { ...env, GITHUB_STEP_SUMMARY: summary } });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toContain('x***y');
    }
    const written = readFileSync(summary, 'utf8');
    expect(written).toContain('x***y');
    expect(written).not.toContain(TOKEN);
  });

  it('reads a JSON manifest, and a manifest on standard input (paths then relative to the working folder)', async () => {
    writeFileSync(join(work, 'gitops', 'm.json'), JSON.stringify({ profiles: { ops: { buckets: ['ops-a'] }, legal: { files: ['lists/legal.txt'] } } }));
    const json = await run(['apply', '-f', 'gitops/m.json', '--dry-run', '--json']);
    expect(json.exitCode, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).profiles.map((p: { profile: string; delete: string[] }) => [p.profile, p.delete])).toEqual([
      ['ops', ['ops-b']],
      ['legal', []],
    ]);
    const stdin = await run(['apply', '-f', '-', '--dry-run'], { input: 'profiles:\n  legal:\n    files: [gitops/lists/legal.txt]\n' });
    expect(stdin.exitCode, stdin.stderr).toBe(0);
    expect(stdin.stdout).toBe('legal:\n+ legal-two\n');
  });
});

describe('apply: the manifest is checked whole before anything is sent', () => {
  it('reports unknown keys, empty profiles, unreadable files and every invalid name together (exit 2)', async () => {
    writeFileSync(join(work, 'gitops', 'lists', 'bad.txt'), 'fine-name\nUPPER-case\n');
    writeFileSync(
      join(work, 'gitops', 'bad.yaml'),
      [
        'profiles:',
        '  finance:',
        '    bucket: [alpha-data]',
        '  legal:',
        '    buckets: [Bad_Name, ok-name]',
        '    files: [missing.txt, lists/bad.txt]',
        '  hr: {}',
        '  ops:',
        '    buckets: []',
        'extra: 1',
        '',
      ].join('\n'),
    );
    const r = await run(['apply', '-f', 'gitops/bad.yaml']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe('scpctl: the manifest gitops/bad.yaml has 6 problems and 2 invalid bucket names; nothing was sent');
    expect(r.stderr).toContain('gitops/bad.yaml:10: unknown key "extra"');
    expect(r.stderr).toContain('gitops/bad.yaml:3: profile "finance": unknown key "bucket"');
    expect(r.stderr).toContain('gitops/bad.yaml:2: profile "finance" has neither "buckets" nor "files"');
    expect(r.stderr).toContain('gitops/bad.yaml:7: profile "hr" has neither "buckets" nor "files"');
    expect(r.stderr).toContain('gitops/bad.yaml:6: cannot read gitops/missing.txt: no such file');
    expect(r.stderr).toContain('gitops/bad.yaml:8: profile "ops": the desired list is empty');
    expect(r.stderr).toContain('gitops/bad.yaml:5: "Bad_Name": upper-case letters are not allowed');
    expect(r.stderr).toContain('gitops/lists/bad.txt:2: "UPPER-case": upper-case letters are not allowed');
    expect(await emu.requests()).toEqual([]);
  });

  it('a YAML syntax error and a duplicate profile are FILE:LINE errors (exit 2)', async () => {
    writeFileSync(join(work, 'dup.yaml'), 'profiles:\n  ops:\n    buckets: [a-b-c]\n  ops:\n    buckets: [d-e-f]\n');
    const dup = await run(['apply', '-f', 'dup.yaml']);
    expect(dup.exitCode).toBe(2);
    expect(dup.stderr).toMatch(/dup\.yaml:4: not valid YAML: .*unique/i);
    const broken = await run(['apply', '-f', '-'], { input: '{"profiles": {"ops": ' });
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toMatch(/^scpctl: the manifest stdin has 1 problem; nothing was sent\n {2}stdin:1: not valid JSON/);
    expect(await emu.requests()).toEqual([]);
  });

  it('allowEmpty: true lets a profile be emptied', async () => {
    writeFileSync(join(work, 'empty.yaml'), 'profiles:\n  ops:\n    buckets: []\n    allowEmpty: true\n');
    const r = await run(['apply', '-f', 'empty.yaml']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await emu.profile('ops')).buckets).toEqual([]);
  });

  it('usage errors: no manifest, --save-plan without --dry-run, --plan with -f, --json with --markdown', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['apply'], /apply needs a manifest/],
      [['apply', '-f', MANIFEST, '--save-plan', 'p.json'], /--save-plan needs --dry-run/],
      [['apply', '-f', MANIFEST, '--plan', 'p.json'], /--plan applies a saved plan: give it without -f/],
      [['apply', '-f', MANIFEST, '--json', '--markdown'], /--markdown and --json/],
      [['apply', '-f', 'nope.yaml'], /cannot read nope\.yaml: no such file/],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(await emu.requests()).toEqual([]);
  });

  it('SCPCTL_RATE that is not a rate is a usage error', async () => {
    const r = await run(['apply', '-f', MANIFEST, '--dry-run'], { env: { ...env, SCPCTL_RATE: 'fast' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('SCPCTL_RATE: "fast" is not a rate');
  });
});

describe('apply: saved plans', () => {
  it('--plan applies exactly the saved changes, even after the manifest moved on', async () => {
    const saved = await run(['apply', '-f', MANIFEST, '--dry-run', '--save-plan', 'plan.json']);
    expect(saved.exitCode, saved.stderr).toBe(0);
    expect(saved.stderr).toContain('plan saved to plan.json');
    const plan = JSON.parse(readFileSync(join(work, 'plan.json'), 'utf8'));
    expect(plan).toMatchObject({ format: 'scpctl-plan/3', baseUrl: emu.url, context: 'default', tenant: { baseUrl: emu.url }, validated: true, manifest: MANIFEST });
    expect(plan.profiles.map((p: { profile: string }) => p.profile)).toEqual(['finance', 'legal', 'ops']);
    expect(plan.profiles[0].fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(JSON.stringify(plan)).not.toContain(emu.token);
    expect(await emu.changes()).toEqual([]);

    writeFileSync(join(work, 'gitops', 'scpctl.yaml'), 'profiles:\n  finance:\n    buckets: [something-else]\n');
    const applied = await run(['apply', '--plan', 'plan.json']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect((await emu.profile('finance')).buckets.sort()).toEqual(['alpha-data', 'bravo-logs']);
    expect((await emu.profile('legal')).buckets).toEqual(['legal-one', 'legal-two']);
  });

  it("plan, then someone else's edit, then apply --plan: that profile is left alone with exit 9, the others applied", async () => {
    expect((await run(['apply', '-f', MANIFEST, '--dry-run', '--save-plan', 'plan.json'])).exitCode).toBe(0);
    await emu.setProfile('finance', ['alpha-data', 'old-bucket', 'added-by-someone-else']);
    await emu.clearRequests();
    const r = await run(['apply', '--plan', 'plan.json', '--json']);
    expect(r.exitCode).toBe(9);
    const out = JSON.parse(r.stdout);
    // The planned change that was not applied is still shown.
    expect(out.profiles[0]).toMatchObject({ profile: 'finance', add: ['bravo-logs'], delete: ['old-bucket'], applied: false, status: 'failed', exitCode: 9 });
    expect(out.profiles[0].error).toContain('changed since the plan');
    expect(out.profiles[1]).toMatchObject({ profile: 'legal', applied: true });
    expect(r.stderr).toMatch(/^ {2}✖ finance: the live list of finance changed since the plan was made; left alone \(exit 9\)$/m);
    expect(r.stderr).toContain('scpctl: 1 of 3 profiles failed; the first: finance (exit 9)');
    expect((await emu.changes()).map((q) => q.name)).toEqual(['legal']);
    expect((await emu.profile('finance')).buckets).toEqual(['alpha-data', 'old-bucket', 'added-by-someone-else']);
  });

  it('the same names in another order are not a change', async () => {
    expect((await run(['apply', '-f', MANIFEST, '--dry-run', '--save-plan', 'plan.json'])).exitCode).toBe(0);
    await emu.setProfile('finance', ['old-bucket', 'alpha-data', 'old-bucket']);
    const r = await run(['apply', '--plan', 'plan.json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await emu.profile('finance')).buckets.sort()).toEqual(['alpha-data', 'bravo-logs']);
  });

  it('refuses a plan made against another service, and a file that is not a plan (exit 2)', async () => {
    expect((await run(['apply', '-f', MANIFEST, '--dry-run', '--save-plan', 'plan.json'])).exitCode).toBe(0);
    await emu.clearRequests();
    const elsewhere = await run(['apply', '--plan', 'plan.json'], { env: { ...env, SCPCTL_BASE_URL: 'http://127.0.0.1:9' } });
    expect(elsewhere.exitCode).toBe(2);
    expect(elsewhere.stderr).toContain(`the plan was made for context "default" at ${emu.url}, and this run is context "default" at http://127.0.0.1:9`);
    writeFileSync(join(work, 'not-a-plan.json'), '{"profiles": []}');
    const wrong = await run(['apply', '--plan', 'not-a-plan.json']);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain('not a plan saved by scpctl apply --save-plan');
    expect(await emu.requests()).toEqual([]);
  });

  it('no plan is saved when a profile could not be planned', async () => {
    writeFileSync(join(work, 'gone.yaml'), 'profiles:\n  ops:\n    buckets: [ops-a]\n  no-such-profile:\n    buckets: [x-y-z]\n');
    const r = await run(['apply', '-f', 'gone.yaml', '--dry-run', '--save-plan', 'gone.json']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('no plan saved to gone.json');
    expect(() => readFileSync(join(work, 'gone.json'))).toThrow();
  });
});

describe('apply: failures and pending changes', () => {
  it('one failing profile does not stop the others; the exit code is the first failure in manifest order', async () => {
    writeFileSync(
      join(work, 'mixed.yaml'),
      'profiles:\n  finance:\n    buckets: [alpha-data]\n  no-such-profile:\n    buckets: [x-y-z]\n  legal:\n    buckets: [legal-one, legal-new]\n',
    );
    await emu.setPending('finance', 60_000);
    const r = await run(['apply', '-f', 'mixed.yaml']);
    expect(r.exitCode).toBe(5);
    expect((await emu.profile('legal')).buckets).toEqual(['legal-one', 'legal-new']);
    expect(r.stderr).toMatch(/applied\s+1\s+legal/);
    expect(r.stderr).toMatch(/failed\s+2\s+finance, no-such-profile/);
    expect(r.stderr).toMatch(/✖ finance: .*pending.* \(exit 5\)/);
    expect(r.stderr).toMatch(/✖ no-such-profile: .* \(exit 4\)/);
    expect(r.stderr).toContain('scpctl: 2 of 3 profiles failed; the first: finance (exit 5)');
    await emu.setPending('finance', 0);
  });

  it('Ctrl-C while waiting on a pending profile exits 130 within a few seconds, the others untouched', async () => {
    await emu.setPending('finance', 60_000);
    const child = spawnScpctl(['apply', '-f', MANIFEST, '--wait', '60'], { env, cwd: work });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await until(async () => stderr.includes('finance: a change is pending'));
    const sent = Date.now();
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(await emu.changes()).toEqual([]);
    await emu.setPending('finance', 0);
  });

  it('--wait rides out a pending change and then applies', async () => {
    await emu.setPending('finance', 1200);
    const r = await run(['apply', '-f', MANIFEST, '--wait', '20']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('finance: a change is pending; waiting up to 20 s');
    expect((await emu.profile('finance')).buckets.sort()).toEqual(['alpha-data', 'bravo-logs']);
  });
});

describe.skipIf(!has('script'))('apply on a terminal', () => {
  it('colours the plan and cuts each profile to 50 names of each kind', async () => {
    const names = Array.from({ length: 60 }, (_, i) => `new-bucket-${String(i).padStart(2, '0')}`);
    writeFileSync(join(work, 'many.yaml'), `profiles:\n  ops:\n    buckets: [${names.join(', ')}]\n`);
    const r = await inTerminal(['apply', '-f', 'many.yaml', '--dry-run'], env, { cwd: work });
    expect(r.exitCode, r.output).toBe(0);
    expect(r.output).toMatch(/\x1b\[32m\+ new-bucket-00\x1b\[39m/);
    const plain = stripEscapes(r.output);
    expect(plain).toContain('+ new-bucket-49');
    expect(plain).not.toContain('+ new-bucket-50');
    expect(plain).toContain('… and 10 more to add');
    expect(plain).toContain('- ops-a');
  });
});
