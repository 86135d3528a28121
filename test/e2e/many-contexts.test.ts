// --contexts (contract section 16) against three emulators, in both error styles: alpha healthy, bravo with a
// pending change on its profile, charlie refusing the token its context holds; delta a second healthy tenant
// on alpha's service. Every format labelled, the order fixed whatever --parallel, --fail-fast, the exit-code
// rule, patterns that match nothing, exclusions, a token from the environment refused, and no context's token
// in another's requests or in any output.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { codeBlocks } from './markdown-blocks.js';
import { connectAll } from '../../src/library/index.js';
import { join } from 'node:path';
import { ERROR_STYLES, ROOT, envFor, loginContexts, has, spawnScpctl, until, inTerminal, ndjson, removeDir, scpctl, startEmulator, tempDir, typeInTerminal, type Emulator } from './harness.js';

const TOKENS = { alpha: 'tok_Alpha+/=9fK2mQ7wLx', bravo: 'tok_Bravo+/=4hR8nV1sPz', charlie: 'tok_Charlie+/=6tY3bJ5cQd', delta: 'tok_Alpha+/=9fK2mQ7wLx' };
/** What charlie's context holds: not the token its service takes. */
const WRONG = 'tok_Wrong+/=2gH7kL0pXs';
const ALL_TOKENS = [TOKENS.alpha, TOKENS.bravo, TOKENS.charlie, WRONG];

interface Tenants {
  alpha: Emulator;
  bravo: Emulator;
  charlie: Emulator;
  env: Record<string, string | undefined>;
  dir: string;
}

/** Three services and four contexts; returns what the tests need. */
async function tenants(style: readonly string[]): Promise<Tenants> {
  const start = (token: string, profile: string) => startEmulator([...style, '--token', token, '--profile', profile]);
  const [alpha, bravo, charlie] = await Promise.all([
    start(TOKENS.alpha, 'finance=alpha-one,alpha-two'),
    start(TOKENS.bravo, 'finance=bravo-one'),
    start(TOKENS.charlie, 'finance=charlie-one'),
  ]);
  const dir = tempDir('scpctl-many-');
  const env = envFor(undefined, dir);
  await loginContexts(env, [['alpha', alpha.url, TOKENS.alpha], ['bravo', bravo.url, TOKENS.bravo], ['charlie', charlie.url, WRONG], ['delta', alpha.url, TOKENS.delta]]);
  return { alpha, bravo, charlie, env, dir };
}

/** A run that must show no token of any context, on stdout or stderr. */
async function run(t: Tenants, args: string[], more: { input?: string; env?: Record<string, string> } = {}) {
  const r = await scpctl(args, { env: { ...t.env, ...more.env }, input: more.input });
  for (const token of ALL_TOKENS) {
    expect(r.stdout + r.stderr, `a token in the output of ${args.join(' ')}`).not.toContain(token);
    expect(r.stdout + r.stderr).not.toContain(encodeURIComponent(token));
  }
  return r;
}

/** No service has seen another context's token (each logs its own masked; any other would show). */
async function eachSawOnlyItsOwn(t: Tenants): Promise<void> {
  const seen: Array<[Emulator, string[]]> = [
    [t.alpha, [TOKENS.bravo, TOKENS.charlie, WRONG]],
    [t.bravo, [TOKENS.alpha, TOKENS.charlie, WRONG]],
    [t.charlie, [TOKENS.alpha, TOKENS.bravo]],
  ];
  for (const [emu, others] of seen) {
    const log = JSON.stringify(await emu.requests());
    for (const token of others) {
      expect(log).not.toContain(token);
      expect(log).not.toContain(encodeURIComponent(token));
    }
  }
}

const summary = (stderr: string) => stderr.split('\n').filter((line) => /^(alpha|bravo|charlie|delta): (ok|exit|not started)/.test(line));

for (const style of ERROR_STYLES) {
  describe(`--contexts, three services, ${style.name}`, () => {
    let t: Tenants;
    beforeAll(async () => {
      t = await tenants(style.args);
      await t.bravo.setPending('finance', 3_600_000);
    });
    afterAll(async () => {
      await Promise.all([t.alpha.stop(), t.bravo.stop(), t.charlie.stop()]);
      removeDir(t.dir);
    });

    it("view: text lines are CONTEXT<TAB>name, in name order; the first failing context's code (bravo's 5); one summary line each", async () => {
      const r = await run(t, ['buckets', 'view', 'finance', '--contexts', '*', '-o', 'text']);
      expect(r.exitCode, r.stderr).toBe(5);
      expect(r.stdout).toBe('alpha\talpha-one\nalpha\talpha-two\ndelta\talpha-one\ndelta\talpha-two\n');
      expect(summary(r.stderr)).toEqual([
        'alpha: ok',
        expect.stringMatching(/^bravo: exit 5 \(.*pending.*\)$/),
        expect.stringMatching(/^charlie: exit 3 \(.*(token|Authorization).*\)$/),
        'delta: ok',
      ]);
      expect(r.stderr).toMatch(/^bravo: scpctl: /m);
      expect(r.stderr).toMatch(/^charlie: hint: /m);
      // --quiet: no summary; each failing context's error still prints.
      const quiet = await run(t, ['buckets', 'view', 'finance', '--contexts', '*', '-o', 'text', '-q']);
      expect(quiet.exitCode).toBe(5);
      expect(summary(quiet.stderr)).toEqual([]);
      expect(quiet.stderr.split('\n').filter((line) => /^\w+: scpctl: /.test(line)).map((line) => line.split(':')[0])).toEqual(['bravo', 'charlie']);
      await eachSawOnlyItsOwn(t);
    });

    it('view: json is one array of {context, profile, count, buckets}; table lines behind a column of names', async () => {
      const json = await run(t, ['buckets', 'view', 'finance', '--contexts', '*', '--json']);
      expect(json.exitCode).toBe(5);
      expect(JSON.parse(json.stdout)).toEqual([
        { context: 'alpha', profile: 'finance', count: 2, buckets: ['alpha-one', 'alpha-two'] },
        { context: 'delta', profile: 'finance', count: 2, buckets: ['alpha-one', 'alpha-two'] },
      ]);
      const table = await run(t, ['buckets', 'view', 'finance', '--contexts', 'alpha,delta', '-o', 'table']);
      expect(table.exitCode).toBe(0);
      const lines = table.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe('alpha  finance: 2 buckets');
      expect(lines.every((line) => /^(alpha|delta)  /.test(line))).toBe(true);
      expect(lines.filter((line) => line.includes('alpha-two'))).toHaveLength(2);
    });

    it('report: json, ndjson and csv records carry context first; csv has one header', async () => {
      const args = ['report', '--contexts', '*', '--limit', '3'];
      const json = await run(t, [...args, '-o', 'json']);
      expect(json.exitCode).toBe(3); // charlie's: bravo's pending is a bucket matter
      const records = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
      expect(records.map((record) => record.context)).toEqual(['alpha', 'alpha', 'alpha', 'bravo', 'bravo', 'bravo', 'delta', 'delta', 'delta']);
      expect(Object.keys(records[0]!)[0]).toBe('context');
      const lines = ndjson((await run(t, [...args, '-o', 'ndjson'])).stdout);
      expect(lines.map((line) => line.context)).toEqual(records.map((record) => record.context));
      expect(lines.every((line) => Object.keys(line)[0] === 'context')).toBe(true);
      const csv = (await run(t, [...args, '-o', 'csv'])).stdout.trimEnd().split('\r\n');
      expect(csv[0]).toMatch(/^context,/);
      expect(csv).toHaveLength(10);
      expect(csv.slice(1).map((row) => row.split(',')[0])).toEqual(records.map((record) => record.context));
      const table = await run(t, [...args, '-o', 'table']);
      expect(table.stdout.split('\n').filter(Boolean).every((line) => /^(alpha|bravo|delta) {1,3}/.test(line))).toBe(true);
      await eachSawOnlyItsOwn(t);
    });

    it('the same output whatever --parallel; --fail-fast starts no context after a failure', async () => {
      const one = await run(t, ['report', '--contexts', '*', '--limit', '2', '-o', 'json', '--parallel', '1']);
      const four = await run(t, ['report', '--contexts', '*', '--limit', '2', '-o', 'json', '--parallel', '4']);
      expect(four.stdout).toBe(one.stdout);
      expect(summary(four.stderr)).toEqual(summary(one.stderr));
      await t.charlie.clearRequests();
      const fast = await run(t, ['buckets', 'view', 'finance', '--contexts', '*', '--parallel', '1', '--fail-fast', '--json']);
      expect(fast.exitCode).toBe(5);
      expect(summary(fast.stderr)).toEqual(['alpha: ok', expect.stringMatching(/^bravo: exit 5/), 'charlie: not started (--fail-fast, after a failure)', 'delta: not started (--fail-fast, after a failure)']);
      expect(await t.charlie.requests()).toEqual([]);
      expect(JSON.parse(fast.stdout)).toHaveLength(1);
    });

    it('the exit-code rule: 8 when a context differed and none failed, 0 when none did, the failure first', async () => {
      const file = join(t.dir, 'same.txt');
      writeFileSync(file, 'alpha-one\nalpha-two\n');
      const same = await run(t, ['buckets', 'sync', 'finance', '-f', file, '--dry-run', '--exit-code', '--contexts', 'alpha,delta']);
      expect(same.exitCode, same.stderr).toBe(0);
      writeFileSync(file, 'alpha-one\nalpha-three\n');
      const differs = await run(t, ['buckets', 'sync', 'finance', '-f', file, '--dry-run', '--exit-code', '--contexts', 'alpha,delta']);
      expect(differs.exitCode).toBe(8);
      expect(differs.stdout).toContain('alpha\t+ alpha-three\n');
      expect(differs.stdout).toContain('delta\t- alpha-two\n');
      expect(summary(differs.stderr)).toEqual(['alpha: exit 8 (differences)', 'delta: exit 8 (differences)']);
      const failing = await run(t, ['buckets', 'sync', 'finance', '-f', file, '--dry-run', '--exit-code', '--contexts', '*']);
      expect(failing.exitCode).toBe(5);
    });

    it('patterns: one that matches nothing is exit 2 naming the contexts, nothing sent; ! excludes', async () => {
      await Promise.all([t.alpha.clearRequests(), t.bravo.clearRequests()]);
      const none = await run(t, ['buckets', 'view', 'finance', '--contexts', 'alpha,!prod-*']);
      expect(none.exitCode).toBe(2);
      expect(none.stderr).toBe('scpctl: --contexts: "!prod-*" matches no context; the contexts are alpha, bravo, charlie, delta\n');
      expect(await t.alpha.requests()).toEqual([]);
      const some = await run(t, ['buckets', 'view', 'finance', '--contexts', '*,!b*,!charlie', '--json']);
      expect(some.exitCode).toBe(0);
      expect((JSON.parse(some.stdout) as Array<{ context: string }>).map((each) => each.context)).toEqual(['alpha', 'delta']);
      expect(await t.bravo.requests()).toEqual([]);
      const odd = await run(t, ['buckets', 'view', 'finance', '--contexts', 'a[lp]ha']);
      expect(odd.exitCode).toBe(2);
      expect((await run(t, ['buckets', 'view', 'finance', '--contexts', '*', '--parallel', '33'])).exitCode).toBe(2);
    });

    it('a token or base URL for all (environment or flag) and --context are refused: exit 2 naming it, nothing sent', async () => {
      await t.alpha.clearRequests();
      const cases: Array<[string[], Record<string, string>, string]> = [
        [[], { SCPCTL_TOKEN: TOKENS.alpha }, 'SCPCTL_TOKEN'],
        [[], { SCPCTL_TOKEN_FILE: join(t.dir, 'token') }, 'SCPCTL_TOKEN_FILE'],
        [[], { SCPCTL_BASE_URL: t.alpha.url }, 'SCPCTL_BASE_URL'],
        [['--base-url', t.alpha.url], {}, '--base-url'],
        [['--token-file', join(t.dir, 'token')], {}, '--token-file'],
        [['--context', 'alpha'], {}, '--context'],
        // One tenant's certificate authority trusted for every other's (each context has its own caCert).
        [['--ca-cert', join(t.dir, 'token')], {}, '--ca-cert'],
        [[], { SCPCTL_CA_CERT: join(t.dir, 'token') }, 'SCPCTL_CA_CERT'],
      ];
      for (const [flags, env, named] of cases) {
        const r = await run(t, ['buckets', 'append', 'finance', 'new-name', '--contexts', '*', ...flags], { env });
        expect(r.exitCode, named).toBe(2);
        expect(r.stderr).toContain(`--contexts cannot go with ${named}`);
      }
      // A file of one tenant's (a checkpoint, a saved plan) is not every tenant's.
      const files: Array<[string[], string]> = [[['report', '--all', '--checkpoint', join(t.dir, 'cp.json')], '--checkpoint'], [['apply', '--plan', join(t.dir, 'p.json')], '--plan']];
      for (const [line, named] of files) {
        const r = await run(t, [...line, '--contexts', '*']);
        expect(r.exitCode, named).toBe(2);
        expect(r.stderr).toContain(`--contexts cannot go with ${named}: it names one file for one tenant`);
      }
      expect(await t.alpha.requests()).toEqual([]);
    });

    it('a change reads standard input once for every context; apply --json is one array of plans', async () => {
      const r = await run(t, ['buckets', 'append', 'finance', '--contexts', 'alpha,delta'], { input: 'echo-one\n' });
      expect(r.exitCode, r.stderr).toBe(0);
      const appends = (await t.alpha.requests()).filter((request) => request.op === 'appendToBucketList');
      expect(appends.map((request) => request.body)).toEqual(['{"list":"echo-one"}', '{"list":"echo-one"}']);
      const manifest = join(t.dir, 'm.yaml');
      writeFileSync(manifest, 'profiles:\n  finance:\n    buckets: [alpha-one]\n');
      const plan = await run(t, ['apply', '-f', manifest, '--dry-run', '--json', '--contexts', 'alpha,charlie']);
      expect(plan.exitCode).toBe(3);
      const plans = JSON.parse(plan.stdout) as Array<{ context: string; profiles: Array<{ status: string }> }>;
      expect(plans.map((each) => [each.context, each.profiles[0]!.status])).toEqual([['alpha', 'planned'], ['charlie', 'failed']]);
      // The format a flag implies is the command's, and its labels follow: Markdown under a heading per context.
      const markdown = await run(t, ['apply', '-f', manifest, '--dry-run', '--markdown', '--contexts', 'alpha,delta']);
      expect(markdown.exitCode, markdown.stderr).toBe(0);
      expect(markdown.stdout).toMatch(/^## alpha\n\n### scpctl plan[^]*\n## delta\n\n### scpctl plan/);
      expect(markdown.stdout).not.toContain('\t');
      await eachSawOnlyItsOwn(t);
    });

    it.skipIf(style.args.length > 0)("apply's client-side rate is each context's own: two contexts on one service together send past one budget, each within its own", async () => {
      const profiles = ['rate-1', 'rate-2', 'rate-3'];
      for (const profile of profiles) await t.alpha.setProfile(profile, [`${profile}-old`]);
      const manifest = join(t.dir, 'rate.yaml');
      writeFileSync(manifest, `profiles:\n${profiles.map((p) => `  ${p}:\n    buckets: [${p}-new]\n`).join('')}`);
      await t.alpha.clearRequests();
      // 2 requests a second for each: alpha and delta are two tenants (two contexts) on alpha's service.
      const r = await run(t, ['apply', '-f', manifest, '--yes', '--contexts', 'alpha,delta', '--retries', '0'], { env: { SCPCTL_RATE: '2/1' } });
      expect(r.exitCode, r.stderr).toBe(0);
      const times = (await t.alpha.requests()).map((request) => request.time).sort((a, b) => a - b);
      expect(times).toHaveLength(12);
      // A shared budget would never let 3 requests into one second; two budgets never let 5.
      expect(times.some((time, i) => i >= 2 && time - times[i - 2]! < 1000)).toBe(true);
      for (let i = 4; i < times.length; i++) expect(times[i]! - times[i - 4]!).toBeGreaterThanOrEqual(1000);
    });

    it.skipIf(style.args.length > 0)('Ctrl-C while a context is at work: stdout ends as one whole JSON array of what was written', async () => {
      // bravo's service holds its answers; alpha's output is all out by then.
      await t.bravo.faults([{ kind: 'delay', ms: 20_000, endpoint: 'report', count: 5 }]);
      const child = spawnScpctl(['report', '--contexts', 'alpha,bravo', '--limit', '4', '-o', 'json'], { env: t.env });
      let stdout = '';
      child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      await until(async () => stdout.includes('"context":"alpha"') && (await t.bravo.requests()).some((request) => request.path.endsWith('/report')));
      child.kill('SIGINT');
      const r = await child;
      await t.bravo.clearFaults();
      expect(r.exitCode).toBe(130);
      expect((JSON.parse(String(r.stdout)) as Array<{ context: string }>).map((record) => record.context)).toEqual(['alpha', 'alpha', 'alpha', 'alpha']);
      expect(String(r.stderr)).toContain('scpctl: interrupted');
    });

    it.skipIf(style.args.length > 0)('--ca-cert (one tenant\'s certificate authority for all) is refused, nothing sent', async () => {
      await t.alpha.clearRequests();
      const pem = join(t.dir, 'ca.pem');
      writeFileSync(pem, 'not a certificate\n');
      const r = await run(t, ['buckets', 'view', 'finance', '--contexts', 'alpha,delta', '--ca-cert', pem, '-o', 'text']);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain('--contexts cannot go with --ca-cert');
      expect(await t.alpha.requests()).toEqual([]);
    });

    it.skipIf(style.args.length > 0)("a tenant's service cannot forge another tenant's line, nor show another tenant's token", async () => {
      // alpha's service answers names holding a newline and bravo's label, and bravo's token.
      await t.alpha.setProfile('forged', ['plain-one', 'evil\nbravo\tforged-name', TOKENS.bravo]);
      const r = await run(t, ['buckets', 'view', 'forged', '--contexts', 'alpha,delta', '-o', 'text']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout.split('\n').filter(Boolean).every((line) => /^(alpha|delta)\t/.test(line))).toBe(true);
      expect(r.stdout).toContain('alpha\tevil\\nbravo\\tforged-name\n');
      const json = await run(t, ['buckets', 'view', 'forged', '--contexts', 'alpha,delta', '--json']);
      expect((JSON.parse(json.stdout) as Array<{ context: string }>).map((each) => each.context)).toEqual(['alpha', 'delta']);
    });

    it.skipIf(style.args.length > 0)("the library: docs/library.md's connectAll example, run as written against the built package", async () => {
      const [example] = codeBlocks(readFileSync(join(ROOT, 'docs/library.md'), 'utf8'), 'js many-tenants');
      const work = join(t.dir, 'library');
      mkdirSync(join(work, 'node_modules'), { recursive: true });
      symlinkSync(ROOT, join(work, 'node_modules', 'scpctl'), 'dir');
      writeFileSync(join(work, 'example.mjs'), example!);
      const env = envFor(undefined, join(work, 'config'));
      await loginContexts(env, [['prod-eu', t.bravo.url, TOKENS.bravo], ['prod-us', t.alpha.url, TOKENS.alpha], ['staging', t.charlie.url, WRONG]]);
      await t.charlie.clearRequests();
      await t.alpha.setProfile('finance', ['alpha-one', 'alpha-two']);
      const r = await execa('node', ['example.mjs'], { cwd: work, env, extendEnv: false, reject: false });
      expect(r.stdout, r.stderr).toBe('prod-eu: exit 5 (pending)\nprod-us: 2 names');
      expect(r.exitCode, r.stderr).toBe(5);
      expect(await t.charlie.requests()).toEqual([]);
      // In this process: one token for all is refused before anything is sent, as with --contexts.
      await expect(connectAll('*', { env: { ...env, SCPCTL_TOKEN: TOKENS.alpha } })).rejects.toMatchObject({ kind: 'usage', message: expect.stringMatching(/^connectAll\(\) cannot go with SCPCTL_TOKEN/) });
      await expect(connectAll('nope', { env })).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('the contexts are prod-eu, prod-us, staging') });
      await eachSawOnlyItsOwn(t);
    });

    it.skipIf(style.args.length > 0 || !has('script'))('at a terminal a change to several contexts asks once, naming them; no is exit 1 with nothing sent', async () => {
      await t.alpha.clearRequests();
      const line = ['buckets', 'append', 'finance', 'asked-one', '--contexts', 'alpha,delta'];
      const no = await typeInTerminal(line, t.env, [{ when: /\? \[y\/N\] $/, keys: 'n\r' }]);
      expect(no.exitCode, no.screen).toBe(1);
      expect(no.screen).toContain('Change 2 contexts (alpha, delta)? [y/N] n');
      expect(no.screen).toContain('scpctl: nothing changed');
      expect(await t.alpha.requests()).toEqual([]);
      const yes = await typeInTerminal(line, t.env, [{ when: /\? \[y\/N\] $/, keys: 'y\r' }]);
      expect(yes.exitCode, yes.screen).toBe(0);
      expect(yes.screen.match(/\[y\/N\]/g)).toHaveLength(1);
      expect((await t.alpha.requests()).filter((request) => request.op === 'appendToBucketList')).toHaveLength(2);
      // --yes answers.
      const answered = await inTerminal([...line, '--yes'], t.env);
      expect(answered.exitCode, answered.output).toBe(0);
      expect(answered.output).not.toContain('[y/N]');
      for (const token of ALL_TOKENS) expect(no.screen + yes.screen + answered.output).not.toContain(token);
    });
  });
}
