// The GitHub Action (contract section 15) run as the runner runs it: `node action/dist/index.cjs`, the committed
// bundle, with its inputs as INPUT_* variables, a recorded event payload at GITHUB_EVENT_PATH, GITHUB_OUTPUT and
// GITHUB_STEP_SUMMARY files, against the emulator and a local fake of the GitHub REST API that records every call.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { copyFileSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execa } from 'execa';
import { createProxy } from 'proxy';
import { ROOT, TOKEN, envFor, removeDir, scpctl, privateCa, startEmulator, tempDir, type Emulator } from './harness.js';
import { BOT, FakeGitHub } from '../fake-github.js';
import { secretForms } from '../../src/core/secrets.js';

const FIXTURES = join(ROOT, 'test/fixtures');
const GH_TOKEN = 'ghs_FakeInstallationToken0123456789';
const HEAD = '4f3c2b1a09e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4';
const MERGE = '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a291807';
const MANIFEST = 'profiles:\n  finance:\n    buckets: [alpha-data, bravo-data]\n  legal:\n    buckets: [legal-hold]\n';

let gh: FakeGitHub;
let work: string;
/** The committed bundle, copied where no node_modules can be found from it: as GitHub runs it, from a bare checkout. */
let BUNDLE: string;
/** Every text a run produced (log lines, output files, summaries): none may hold the token. */
const seen: string[] = [];

beforeAll(async () => {
  gh = await new FakeGitHub(GH_TOKEN).start();
  work = tempDir('scpctl-action-');
  writeFileSync(join(work, 'scpctl.yaml'), MANIFEST);
  mkdirSync(join(work, 'action', 'dist'), { recursive: true });
  BUNDLE = join(work, 'action', 'dist', 'index.cjs');
  copyFileSync(join(ROOT, 'action/dist/index.cjs'), BUNDLE);
  const fork = JSON.parse(readFileSync(join(FIXTURES, 'pull_request.json'), 'utf8'));
  fork.pull_request.head.repo = { id: 922222, name: 'allowlists', full_name: 'mallory/allowlists', fork: true };
  writeFileSync(join(work, 'fork.json'), JSON.stringify(fork));
});
afterAll(async () => {
  await gh?.stop();
  removeDir(work);
});

interface Run {
  exitCode: number;
  log: string;
  outputs: Record<string, string>;
  summary: string;
}

let runs = 0;
async function action(emu: Emulator, mode: string, options: { token?: string; allowUnreviewed?: boolean; payload?: string; env?: Record<string, string> } = {}): Promise<Run> {
  const event = mode === 'plan' ? 'pull_request' : mode === 'apply' ? 'push' : 'schedule';
  const n = ++runs;
  const [outputFile, summaryFile] = [join(work, `output-${n}`), join(work, `summary-${n}`)];
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  mkdirSync(join(work, 'runner'), { recursive: true });
  const env = {
    PATH: process.env.PATH,
    HOME: work,
    RUNNER_TEMP: join(work, 'runner'),
    INPUT_MODE: mode,
    INPUT_MANIFEST: 'scpctl.yaml',
    'INPUT_BASE-URL': emu.url,
    INPUT_TOKEN: options.token ?? TOKEN,
    'INPUT_GITHUB-TOKEN': GH_TOKEN,
    'INPUT_ALLOW-UNREVIEWED': String(options.allowUnreviewed ?? false),
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: options.payload ?? join(FIXTURES, `${event}.json`),
    GITHUB_REPOSITORY: 'acme/allowlists',
    GITHUB_SHA: event === 'push' ? MERGE : HEAD,
    GITHUB_API_URL: gh.url,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: '1',
    ...options.env,
  };
  const run = await execa('node', [BUNDLE], { cwd: work, env, extendEnv: false, reject: false, all: true });
  const outputText = readFileSync(outputFile, 'utf8');
  const outputs: Record<string, string> = {};
  for (const m of outputText.matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm)) outputs[m[1]!] = m[3]!;
  const summary = readFileSync(summaryFile, 'utf8');
  // The runner reads `::add-mask::` and prints it to no one: the secrets' own, before anything else is said.
  const log = run.all ?? '';
  expect(log.startsWith(`${env.INPUT_TOKEN ? `::add-mask::${env.INPUT_TOKEN}\n` : ''}::add-mask::${GH_TOKEN}\n`), log).toBe(true);
  seen.push(log.split('\n').filter((line) => !line.startsWith('::add-mask::')).join('\n'), outputText, summary);
  return { exitCode: run.exitCode ?? -1, log: run.all ?? '', outputs, summary };
}

/**
 * The workflow commands a runner would obey in `log`, by name, as actions/runner reads them: a line that starts
 * with `::NAME` once leading spaces are trimmed, or holds `##[NAME` anywhere; none between `::stop-commands::T`
 * and `::T::`.
 */
function obeyed(log: string): string[] {
  const names: string[] = [];
  let resume: string | undefined;
  for (const line of log.split('\n').map((l) => l.trimStart())) {
    const name = /^::([^\s:]+)/.exec(line)?.[1] ?? /##\[([^\]\s]+)/.exec(line)?.[1];
    if (name === undefined) continue;
    if (resume !== undefined) {
      if (name === resume) resume = undefined;
      continue;
    }
    if (name === 'stop-commands') resume = line.slice('::stop-commands::'.length);
    names.push(name);
  }
  return names;
}

const planComments = () => (gh.comments.get(7) ?? []).filter((c) => c.body.startsWith('<!-- scpctl-plan manifest=scpctl.yaml '));
/** The pull request merged now, at `head`: a comment updated after this moment cannot have been reviewed before it. */
const merged = (head = HEAD) => gh.pullsOf.set(MERGE, [{ number: 7, merged_at: new Date().toISOString(), merge_commit_sha: MERGE, head: { sha: head } }]);

describe('the action, the emulator answering errors with HTTP 200', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator(['--profile', 'finance', '--profile', 'legal', '--http200-errors']);
    await emu.setProfile('finance', ['alpha-data', 'stale-one']);
    await emu.setProfile('legal', ['legal-hold']);
  });
  afterAll(() => emu?.stop());

  it('plan, then the reviewed apply; a rejected token is exit 3 in one line, the comment saying so', async () => {
    gh.reset();
    const rejected = await action(emu, 'plan', { token: 'tok_Revoked0987654321' });
    expect(rejected.exitCode, rejected.log).toBe(3);
    expect(rejected.outputs['exit-code']).toBe('3');
    expect(rejected.log.split('\n').filter((l) => l.startsWith('::error::'))).toHaveLength(1);
    // The comment says the plan failed, so that an older plan in it is never taken for the current one.
    expect(planComments()).toHaveLength(1);
    expect(planComments()[0]!.body).toContain('| finance | 0 | 0 | failed (exit 3): viewBucketList finance: Authorization Error: Invalid token |');
    expect((await action(emu, 'plan')).exitCode).toBe(0);
    expect(planComments()).toHaveLength(1);
    merged();
    const apply = await action(emu, 'apply');
    expect(apply.exitCode, apply.log).toBe(0);
    expect((await emu.profile('finance')).buckets.sort()).toEqual(['alpha-data', 'bravo-data']);
  });
});

describe('the action, against one emulator', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator(['--profile', 'finance', '--profile', 'legal']);
  });
  afterAll(() => emu?.stop());
  beforeEach(async () => {
    gh.reset();
    await emu.setProfile('finance', ['alpha-data', 'stale-one']);
    await emu.setProfile('legal', ['legal-hold']);
    await emu.clearRequests();
  });

  it('plan: one comment created, then updated in place; the merge applies the reviewed plan exactly', async () => {
    const first = await action(emu, 'plan');
    expect(first.exitCode, first.log).toBe(0);
    expect(first.outputs['has-changes']).toBe('true');
    expect(first.outputs['exit-code']).toBe('0');
    expect(first.outputs['plan-digest']).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(first.summary).toContain('| finance | 1 | 1 | planned |');
    expect(planComments()).toHaveLength(1);
    expect(planComments()[0]!.body).toContain(first.outputs['plan-digest']);
    expect(planComments()[0]!.body).toContain('+ bravo-data');
    // The plan as `apply --dry-run --markdown` prints it, in the comment and the summary alike.
    const cli = await scpctl(['apply', '-f', 'scpctl.yaml', '--dry-run', '--markdown'], { cwd: work, env: envFor(emu, join(work, 'cli')) });
    expect(cli.exitCode, cli.stderr).toBe(0);
    expect(planComments()[0]!.body).toContain(cli.stdout.trimEnd());
    expect(first.summary).toBe(`${cli.stdout}\n`);
    const again = await action(emu, 'plan');
    expect(again.exitCode, again.log).toBe(0);
    expect(gh.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(gh.calls.filter((c) => c.method === 'PATCH')).toHaveLength(1);
    expect(planComments()).toHaveLength(1);
    expect(await emu.changes()).toEqual([]);

    merged();
    const apply = await action(emu, 'apply');
    expect(apply.exitCode, apply.log).toBe(0);
    expect(apply.outputs['plan-digest']).toBe(first.outputs['plan-digest']);
    expect(apply.summary).toContain('| finance | 1 | 1 | applied |');
    expect((await emu.profile('finance')).buckets.sort()).toEqual(['alpha-data', 'bravo-data']);
    expect((await emu.profile('legal')).buckets).toEqual(['legal-hold']);
    expect((await emu.changes()).map((r) => r.op)).toEqual(['modifyBucketList']);
  });

  it('apply: a plan that changed since review is refused with a comment and exit 9, nothing sent', async () => {
    expect((await action(emu, 'plan')).exitCode).toBe(0);
    // A push to the pull request after its plan ran (the plan job still queued, or failed): not reviewed.
    merged('f'.repeat(40));
    const unplanned = await action(emu, 'apply');
    expect(unplanned.exitCode, unplanned.log).toBe(9);
    expect(unplanned.log).toContain('the plan comment is of an older commit of the pull request');
    gh.comments.set(7, planComments());
    await emu.setProfile('finance', ['alpha-data', 'stale-one', 'console-added']);
    await emu.clearRequests();
    merged();
    const apply = await action(emu, 'apply');
    expect(apply.exitCode, apply.log).toBe(9);
    expect(apply.outputs['exit-code']).toBe('9');
    expect(apply.log).toContain('::error::scpctl: the plan changed since review');
    expect(await emu.changes()).toEqual([]);
    const stale = () => (gh.comments.get(7) ?? []).filter((c) => c.body.includes('the plan changed since review'));
    expect(stale()).toHaveLength(1);
    expect(stale()[0]!.body).toContain('- console-added');
    expect(planComments()).toHaveLength(1);
    // The run re-run, after one more console change: the same refusal comment, updated in place, not a second one.
    await emu.setProfile('finance', ['alpha-data', 'stale-one', 'console-added', 'console-two']);
    gh.calls = [];
    const rerun = await action(emu, 'apply');
    expect(rerun.exitCode, rerun.log).toBe(9);
    expect(stale()).toHaveLength(1);
    expect(stale()[0]!.body).toContain('- console-two');
    expect(gh.calls.filter((c) => c.method === 'POST')).toEqual([]);
    expect(gh.calls.filter((c) => c.method === 'PATCH')).toHaveLength(1);
    // mallory's look-alike of the refusal is not ours to update: ours is still the one updated.
    const lookalike = gh.addComment(7, stale()[0]!.body, 'mallory');
    expect((await action(emu, 'apply')).exitCode).toBe(9);
    expect(stale().filter((c) => c.user.login === BOT)).toHaveLength(1);
    expect(lookalike.body).toContain('- console-two');
    expect(planComments()).toHaveLength(1);
    expect(await emu.changes()).toEqual([]);
  });

  it('apply: a push with no reviewed plan is refused (exit 9) unless allow-unreviewed', async () => {
    const refused = await action(emu, 'apply');
    expect(refused.exitCode, refused.log).toBe(9);
    expect(refused.log).toContain('no reviewed plan: commit 9e8d7c6b5a4f was pushed without a pull request');
    expect(await emu.changes()).toEqual([]);
    const allowed = await action(emu, 'apply', { allowUnreviewed: true });
    expect(allowed.exitCode, allowed.log).toBe(0);
    expect((await emu.profile('finance')).buckets.sort()).toEqual(['alpha-data', 'bravo-data']);
  });

  it('a plan comment forged by another user, or the bot comment edited, is not a reviewed plan', async () => {
    // mallory copies a genuine plan comment, sealed line and all, onto the pull request.
    expect((await action(emu, 'plan')).exitCode).toBe(0);
    const genuine = planComments()[0]!.body;
    gh.reset();
    gh.addComment(7, genuine, 'mallory');
    const plan = await action(emu, 'plan');
    expect(plan.exitCode).toBe(0);
    expect(gh.comments.get(7)!.map((c) => c.user.login)).toEqual(['mallory', BOT]);
    expect(gh.comments.get(7)![0]!.body).toBe(genuine);

    gh.comments.set(7, [gh.comments.get(7)![0]!]);
    merged();
    const forged = await action(emu, 'apply');
    expect(forged.exitCode, forged.log).toBe(9);
    expect(forged.log).toContain('pull request #7 has no plan comment of this action');
    // Someone with write access changes a list in the console, then edits the bot's own comment to the digest
    // the merge will now plan: the seal no longer verifies, and nothing is applied.
    await emu.setProfile('finance', ['alpha-data', 'stale-one', 'console-added']);
    const now = (await action(emu, 'drift')).outputs['plan-digest']!;
    expect(now).toMatch(/^sha256:/);
    gh.comments.set(7, [{ id: 1, body: genuine.replace(/digest=sha256:[0-9a-f]{64}/, `digest=${now}`), user: { login: BOT, type: 'Bot' } }]);
    await emu.clearRequests();
    const edited = await action(emu, 'apply');
    expect(edited.exitCode, edited.log).toBe(9);
    expect(edited.log).toContain('pull request #7 has no plan comment of this action');
    // Or its sealed line kept and the plan people read rewritten: the deletion of stale-one hidden.
    expect(genuine).toContain('- stale-one\n');
    gh.comments.set(7, [{ id: 1, body: genuine.replace('- stale-one\n', '').replace('| finance | 1 | 1 |', '| finance | 1 | 0 |'), user: { login: BOT, type: 'Bot' }, updated_at: '2000-01-01T00:00:00Z' }]);
    await emu.setProfile('finance', ['alpha-data', 'stale-one']);
    const hidden = await action(emu, 'apply');
    expect(hidden.exitCode, hidden.log).toBe(9);
    expect(hidden.log).toContain('pull request #7 has no plan comment of this action');
    expect(await emu.changes()).toEqual([]);
  });

  it('a plan comment written after the merge (a late plan job of the last push) is not a reviewed plan', async () => {
    // A push, then the merge at once, while that push's plan job still runs: it posts its plan after the merge.
    const late = 'a'.repeat(40);
    merged(late);
    const payload = JSON.parse(readFileSync(join(FIXTURES, 'pull_request.json'), 'utf8'));
    payload.pull_request.head.sha = late;
    writeFileSync(join(work, 'late.json'), JSON.stringify(payload));
    await new Promise((resolve) => setTimeout(resolve, 5)); // the clock's millisecond moves past the merge's
    expect((await action(emu, 'plan', { payload: join(work, 'late.json') })).exitCode).toBe(0);
    expect(planComments()).toHaveLength(1);
    const apply = await action(emu, 'apply');
    expect(apply.exitCode, apply.log).toBe(9);
    expect(apply.log).toContain('pull request #7 has no plan comment of this action');
    expect(await emu.changes()).toEqual([]);
  });

  it('drift: one issue opened, then updated; closed when back in sync; never a failure', async () => {
    const opened = await action(emu, 'drift');
    expect(opened.exitCode, opened.log).toBe(0);
    expect(opened.outputs['has-changes']).toBe('true');
    expect(gh.issues).toHaveLength(1);
    expect(gh.issues[0]!.labels).toEqual([{ name: 'scpctl-drift' }]);
    expect(gh.labels.has('scpctl-drift')).toBe(true);
    expect(gh.issues[0]!.body).toContain('+ bravo-data');
    await emu.setProfile('finance', ['alpha-data']);
    expect((await action(emu, 'drift')).exitCode).toBe(0);
    expect(gh.issues).toHaveLength(1);
    expect(gh.issues[0]!.body).not.toContain('- stale-one');
    await emu.setProfile('finance', ['alpha-data', 'bravo-data']);
    const clean = await action(emu, 'drift');
    expect(clean.exitCode).toBe(0);
    expect(clean.outputs['has-changes']).toBe('false');
    expect(gh.issues.map((i) => i.state)).toEqual(['closed']);
    expect(await emu.changes()).toEqual([]);
  });

  it('a pull request from a fork, without secrets, gets a notice and exit 0', async () => {
    const fork = await action(emu, 'plan', { token: '', payload: join(work, 'fork.json') });
    expect(fork.exitCode, fork.log).toBe(0);
    expect(fork.log).toContain('::notice::scpctl: a pull request from a fork gets no secrets');
    expect(fork.outputs['exit-code']).toBe('0');
    expect(gh.calls).toEqual([]);
    expect(await emu.requests()).toEqual([]);
  });

  it('pull_request_target (a fork\'s pull request run with the secrets) is refused: nothing planned, nothing posted', async () => {
    // A workflow on pull_request_target that checks out the fork's head would plan mallory's manifest with the
    // token and post the live lists it would delete; one that checks out the base would post the base's plan as
    // the pull request's. Either way it is not a plan of this pull request that anyone should review.
    for (const payload of [join(work, 'fork.json'), join(FIXTURES, 'pull_request.json')]) {
      const run = await action(emu, 'plan', { payload, env: { GITHUB_EVENT_NAME: 'pull_request_target' } });
      expect(run.exitCode, run.log).toBe(2);
      expect(run.log).toContain('::error::scpctl: mode plan does not run on pull_request_target');
      expect(gh.calls).toEqual([]);
      expect(await emu.requests()).toEqual([]);
    }
    // Nor does apply run on a pull request's events, allow-unreviewed or not: what it would apply is not merged.
    for (const event of ['pull_request', 'pull_request_target']) {
      const run = await action(emu, 'apply', { allowUnreviewed: true, payload: join(FIXTURES, 'pull_request.json'), env: { GITHUB_EVENT_NAME: event } });
      expect(run.exitCode, run.log).toBe(2);
      expect(run.log).toContain(`::error::scpctl: mode apply runs on push events (this is ${event})`);
      expect(gh.calls).toEqual([]);
      expect(await emu.requests()).toEqual([]);
    }
  });

  it("a proxy's page in place of GitHub's answer is one line that quotes none of it, and a passing one is waited out", async () => {
    const page = '<html><body>\u001b]0;owned\u0007::warning::forged</body></html>';
    gh.failures.push({ method: 'GET', status: 200, html: page });
    const run = await action(emu, 'plan');
    expect(run.exitCode, run.log).toBe(1);
    expect(run.log).toContain("::error::scpctl: GitHub API answered 200: an answer that is not JSON (a proxy's page?)");
    expect(run.log).not.toContain('forged');
    gh.reset();
    gh.failures.push({ method: 'GET', status: 502, html: page });
    const again = await action(emu, 'plan');
    expect(again.exitCode, again.log).toBe(0);
    expect(planComments()).toHaveLength(1);
  });

  it("GitHub's own error message is quoted as text: no workflow command, no escape sequence reaches the log", async () => {
    gh.failures.push({ method: 'GET', status: 404, json: { message: 'Not Found ##[add-mask]alpha-data \u001b]0;owned\u0007' } });
    const run = await action(emu, 'plan');
    expect(run.exitCode, run.log).toBe(1);
    expect(run.log).toContain('::error::scpctl: GitHub API answered 404: Not Found');
    // The two the action registers (the secrets) and none from GitHub's text.
    expect(obeyed(run.log).filter((name) => name === 'add-mask')).toHaveLength(2);
    expect(run.log).not.toContain('\u001b');
  });

  it('an answer that never ends is refused once it passes 64 MiB: one line, exit 1, no memory exhausted', async () => {
    gh.failures.push({ method: 'GET', status: 200, endless: true });
    const run = await action(emu, 'plan');
    expect(run.exitCode, run.log).toBe(1);
    expect(run.log).toContain('::error::scpctl: GitHub API answered 200: an answer over 64 MiB');
  });

  it('a JSON answer of the wrong shape (an object where a list belongs) is one line naming GitHub, exit 1', async () => {
    gh.failures.push({ method: 'GET', status: 200, json: { message: 'not a list' } });
    const run = await action(emu, 'plan');
    expect(run.exitCode, run.log).toBe(1);
    expect(run.log).toContain('::error::scpctl: GitHub API answered 200: not the list asked for');
    expect(planComments()).toEqual([]);
  });

  it("a redirect leaving GitHub's origin (another host, plain http) carries no github-token, and its answer is not trusted", async () => {
    const heard: Array<string | undefined> = [];
    const other = createServer((request, response) => {
      heard.push(request.headers.authorization);
      response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const elsewhere = `http://127.0.0.1:${(other.address() as AddressInfo).port}/repos/acme/allowlists/issues/7/comments`;
      gh.failures.push({ method: 'GET', status: 307, json: {}, headers: { location: elsewhere } });
      const run = await action(emu, 'plan');
      expect(heard.every((h) => h === undefined), String(heard)).toBe(true);
      expect(run.exitCode, run.log).toBe(1);
      expect(run.log).toContain('::error::scpctl: GitHub API answered 307: a redirect to another origin');
      expect(gh.calls.filter((c) => c.method !== 'GET')).toEqual([]);
      // A renamed repository's 301, on GitHub's own origin, is followed with the token.
      gh.reset();
      gh.failures.push({ method: 'GET', status: 301, json: {}, headers: { location: `${gh.url}/repos/acme/allowlists-renamed/issues/7/comments?per_page=100&page=1` } });
      const renamed = await action(emu, 'plan');
      expect(renamed.exitCode, renamed.log).toBe(0);
      expect(gh.calls.some((c) => c.path.startsWith('/repos/acme/allowlists-renamed/'))).toBe(true);
      expect(planComments()).toHaveLength(1);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it("an issue number in the event payload that is a path (`7/../../../user`) reaches no other path of GitHub's", async () => {
    const forged = JSON.parse(readFileSync(join(FIXTURES, 'pull_request.json'), 'utf8'));
    forged.pull_request.number = '7/../../../../orgs/acme/members';
    forged.number = forged.pull_request.number;
    writeFileSync(join(work, 'forged-number.json'), JSON.stringify(forged));
    const run = await action(emu, 'plan', { payload: join(work, 'forged-number.json') });
    expect(run.exitCode, run.log).toBe(1);
    expect(run.log).toContain('::error::scpctl: not an issue or comment number: "7/../../../../orgs/acme/members"');
    expect(gh.calls.filter((c) => c.path !== '/user' && !c.path.startsWith('/repos/acme/allowlists/'))).toEqual([]);
  });

  it('GitHub failing for a moment (a 502, a secondary rate limit) is waited out; a POST that may have landed is not sent twice', async () => {
    gh.failures.push({ method: 'GET', status: 502 }, { method: 'POST', status: 403, headers: { 'retry-after': '0' } }, { method: 'POST', status: 429, headers: { 'retry-after': '0' } });
    const run = await action(emu, 'plan');
    expect(run.exitCode, run.log).toBe(0);
    expect(planComments()).toHaveLength(1);
    expect(gh.calls.filter((c) => c.method === 'POST')).toHaveLength(3);
    gh.reset();
    // A 502 to a POST may have made the comment: sent again it could make a second one.
    gh.failures.push({ method: 'POST', status: 502 });
    const failed = await action(emu, 'plan');
    expect(failed.exitCode, failed.log).toBe(1);
    expect(failed.log).toContain('::error::scpctl: GitHub API answered 502');
    expect(gh.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('GET /user refused by a rate limit is no answer: the github-token is not taken for github-actions[bot]', async () => {
    // A personal token's user, out of requests for an hour: taken for the bot's, its own plan comment would be
    // missed (a second posted) and a reviewed plan not found. A 403 that is a rate limit fails the run instead.
    gh.user = 'deploy-bot';
    gh.failures.push({ method: 'GET', path: '/user', status: 403, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600) } });
    const run = await action(emu, 'plan');
    expect(run.exitCode, run.log).toBe(1);
    expect(run.log).toContain('::error::scpctl: GitHub API answered 403');
    expect(gh.calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('GitHub out of reach is a network error (exit 6) naming GitHub, after the reads were tried again', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const run = await action(emu, 'drift', { env: { GITHUB_API_URL: url } });
    expect(run.exitCode, run.log).toBe(6);
    expect(run.outputs['exit-code']).toBe('6');
    expect(run.log).toContain(`::error::scpctl: cannot reach the GitHub API at ${new URL(url).host}`);
    expect(run.log).not.toContain('answered 500');
  });

  it('a bucket or profile name holding the token is refused by the library (exit 2), nothing sent to GitHub', async () => {
    for (const manifest of [`profiles:\n  finance:\n    buckets: [alpha-data, "${TOKEN}"]\n`, `profiles:\n  "${TOKEN}":\n    buckets: [alpha-data]\n`]) {
      writeFileSync(join(work, 'scpctl.yaml'), manifest);
      try {
        const run = await action(emu, 'plan');
        expect(run.exitCode, run.log).toBe(2);
        expect(run.outputs['exit-code']).toBe('2');
        expect(run.log.split('\n').filter((l) => l.startsWith('::error::scpctl: '))).toHaveLength(1);
        expect(run.log).toContain('scpctl.yaml:');
        expect(run.log).toContain('a name that looks like the API token (not shown)');
        expect(gh.calls).toEqual([]);
        expect(await emu.requests()).toEqual([]);
      } finally {
        writeFileSync(join(work, 'scpctl.yaml'), MANIFEST);
      }
    }
  });

  it('a list file named with a line break prints no workflow command of its own into the log', async () => {
    // A pull request adds `lists/x<LF>::warning::...` with a bad name in it: the invalid name's FILE:LINE
    // line must stay one line, or the runner obeys what follows the break (annotations, ::set-output, ...).
    const file = 'x\n::warning title=pwned::INJECTED';
    writeFileSync(join(work, file), 'bad_Name\n');
    writeFileSync(join(work, 'scpctl.yaml'), `profiles:\n  finance:\n    files: [${JSON.stringify(file)}]\n`);
    try {
      const run = await action(emu, 'plan');
      expect(run.exitCode, run.log).toBe(2);
      expect(run.log).toContain('character "_" is not allowed');
      expect(obeyed(run.log).filter((command) => !['add-mask', 'error', 'stop-commands'].includes(command)), run.log).toEqual([]);
    } finally {
      removeDir(join(work, file));
      writeFileSync(join(work, 'scpctl.yaml'), MANIFEST);
    }
  });

  it('a list file named as a workflow command (`::warning::`, `##[add-mask]`) is obeyed by no runner: its lines are logged with commands stopped', async () => {
    // No line break needed: the runner obeys a line that starts with `::` (after spaces) and, in its older form,
    // one that holds `##[` anywhere; the FILE:LINE line of an invalid name starts with the file's name.
    const files = ['::warning title=pwned::INJECTED', 'x ##[add-mask]alpha-data'];
    for (const file of files) writeFileSync(join(work, file), 'bad_Name\n');
    writeFileSync(join(work, 'scpctl.yaml'), `profiles:\n  finance:\n    files: ${JSON.stringify(files)}\n`);
    try {
      const run = await action(emu, 'plan');
      expect(run.exitCode, run.log).toBe(2);
      expect(run.log).toContain('INJECTED:1: "bad_Name"');
      expect(obeyed(run.log).filter((command) => !['add-mask', 'error', 'stop-commands'].includes(command)), run.log).toEqual([]);
      expect(obeyed(run.log).filter((command) => command === 'add-mask')).toHaveLength(2);
    } finally {
      for (const file of files) removeDir(join(work, file));
      writeFileSync(join(work, 'scpctl.yaml'), MANIFEST);
    }
  });

  it('a profile name written to break out of the Markdown stays text: no HTML, no second marker line', async () => {
    const evil = 'evil | </summary></details><img src=x> `x` <!-- scpctl-plan manifest=scpctl.yaml -->';
    await emu.setProfile(evil, ['alpha-data']);
    writeFileSync(join(work, 'scpctl.yaml'), `profiles:\n  ${JSON.stringify(evil)}:\n    buckets: [bravo-data]\n`);
    try {
      const run = await action(emu, 'plan');
      expect(run.exitCode, run.log).toBe(0);
      const body = planComments()[0]!.body;
      expect(body).toContain('&lt;img src=x&gt;');
      expect(body).not.toMatch(/<img|<\/details><img/);
      expect(body.match(/<!-- scpctl-plan/g)).toHaveLength(1);
      expect(body.match(/<details>/g)?.length).toBe(body.match(/<\/details>/g)?.length);
    } finally {
      writeFileSync(join(work, 'scpctl.yaml'), MANIFEST);
    }
  });

  it('the token is in no recorded GitHub call, log line, output file or summary', () => {
    expect(seen.length).toBeGreaterThan(20);
    const forms = secretForms(TOKEN);
    const calls = JSON.stringify(gh.everyCall);
    expect(gh.everyCall.length).toBeGreaterThan(20);
    for (const text of [...seen, calls]) for (const form of forms) expect(text.includes(form), `${form} in ${text.slice(Math.max(0, text.indexOf(form) - 300), text.indexOf(form) + 50)}`).toBe(false);
  });
});

describe('the action, a plan too long for its comment: every name still reachable', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator(['--profile', 'finance', '--profile', 'legal']);
  });
  afterAll(() => emu?.stop());
  const name = (kind: string, i: number) => `${kind}-${String(i).padStart(5, '0')}-${'x'.repeat(40)}`;
  const RUN = 'https://github.com/acme/allowlists/actions/runs/4242/attempts/1';

  it('hides no deletion among 5,000 additions: the summary lists every name, the comment says where', async () => {
    gh.reset();
    // mallory's pull request: 5,000 additions, and among 150 deletions of names of no interest the one that
    // matters, where the comment's first 100 of each list never reach it.
    const junk = Array.from({ length: 149 }, (_, i) => name('junk', i));
    await emu.setProfile('finance', ['alpha-data', ...junk, 'zz-crown-jewels']);
    await emu.setProfile('legal', ['legal-hold']);
    const added = Array.from({ length: 5_000 }, (_, i) => name('new', i));
    writeFileSync(join(work, 'scpctl.yaml'), `profiles:\n  finance:\n    buckets: [alpha-data, ${added.join(', ')}]\n  legal:\n    buckets: [legal-hold]\n`);
    try {
      const run = await action(emu, 'plan');
      expect(run.exitCode, run.log).toBe(0);
      const body = planComments()[0]!.body;
      expect(body).toContain('# … and 4900 more to add');
      expect(body).toContain('# … and 50 more to delete');
      expect(body).not.toContain('zz-crown-jewels');
      expect(body).toContain(`This plan adds 5000 and deletes 150 names, 200 of them shown here. Every name is in the job summary of [this run](${RUN})`);
      // The comment is still the CLI's Markdown plan, byte for byte.
      const cli = await scpctl(['apply', '-f', 'scpctl.yaml', '--dry-run', '--markdown'], { cwd: work, env: envFor(emu, join(work, 'cli')) });
      expect(body).toContain(cli.stdout.trimEnd());
      expect(run.summary.startsWith(cli.stdout)).toBe(true);
      expect(Buffer.byteLength(run.summary)).toBeLessThan(1024 * 1024);
      const lines = new Set(run.summary.split('\n'));
      for (const n of [...junk, 'zz-crown-jewels']) expect(lines.has(`- ${n}`), n).toBe(true);
      for (const n of added) expect(lines.has(`+ ${n}`), n).toBe(true);
      // The deletions come first, and are not folded away.
      expect(run.summary.indexOf('- zz-crown-jewels')).toBeLessThan(run.summary.indexOf(`+ ${added[0]}`, cli.stdout.length));
    } finally {
      writeFileSync(join(work, 'scpctl.yaml'), MANIFEST);
    }
  });

  it('more names than a job summary holds (1 MiB): the rest in the job log, deletions first, none lost', async () => {
    gh.reset();
    const deleted = Array.from({ length: 300 }, (_, i) => name('old', i));
    await emu.setProfile('finance', ['alpha-data', ...deleted]);
    await emu.setProfile('legal', ['legal-hold']);
    const added = Array.from({ length: 20_000 }, (_, i) => name('new', i));
    writeFileSync(join(work, 'scpctl.yaml'), `profiles:\n  finance:\n    buckets: [alpha-data, ${added.join(', ')}]\n  legal:\n    buckets: [legal-hold]\n`);
    try {
      const run = await action(emu, 'plan');
      expect(run.exitCode, run.log).toBe(0);
      expect(Buffer.byteLength(run.summary)).toBeLessThanOrEqual(1024 * 1024);
      const inSummary = new Set(run.summary.split('\n'));
      const inLog = new Set(run.log.split('\n'));
      for (const n of deleted) expect(inSummary.has(`- ${n}`), n).toBe(true);
      const logged = added.filter((n) => !inSummary.has(`+ ${n}`));
      expect(logged.length).toBeGreaterThan(0);
      for (const n of logged) expect(inLog.has(`+ ${n}`), n).toBe(true);
      expect(run.summary).toContain(`${logged.length} names did not fit in this summary`);
      expect(planComments()[0]!.body).toContain('and those it cannot hold in the job log');
      expect(run.log).toContain('::group::');
    } finally {
      writeFileSync(join(work, 'scpctl.yaml'), MANIFEST);
    }
  });
});

describe('the action on a runner behind a proxy (HTTPS_PROXY, NO_PROXY)', () => {
  let emu: Emulator;
  let tlsGitHub: FakeGitHub;
  let proxy: Server;
  let proxyUrl: string;
  let caFile: string;
  /** Every tunnel the proxy opened, as `CONNECT host:port`, and every request it forwarded. */
  const passed: string[] = [];

  beforeAll(async () => {
    const tls = privateCa(work, { caName: 'scpctl action test CA' });
    caFile = tls.ca;
    // Its lists as the other tests start them: the harness's admin calls speak plain http, and plan changes nothing.
    emu = await startEmulator(['--profile', 'finance=alpha-data,stale-one', '--profile', 'legal=legal-hold', '--tls-cert', tls.cert, '--tls-key', tls.key]);
    tlsGitHub = await new FakeGitHub(GH_TOKEN, { cert: readFileSync(tls.cert, 'utf8'), key: readFileSync(tls.key, 'utf8') }).start();
    proxy = createProxy(createServer());
    proxy.on('request', (req) => passed.push(`${req.method} ${req.url}`));
    proxy.on('connect', (req) => passed.push(`CONNECT ${req.url}`));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    proxy?.closeAllConnections?.();
    await new Promise((resolve) => proxy?.close(resolve));
    await tlsGitHub?.stop();
    await emu?.stop();
  });
  beforeEach(() => {
    passed.length = 0;
    tlsGitHub.reset();
  });

  const behind = (extra: Record<string, string> = {}) => ({ env: { GITHUB_API_URL: tlsGitHub.url, NODE_EXTRA_CA_CERTS: caFile, HTTPS_PROXY: proxyUrl, ...extra } });
  const hostOf = (url: string) => new URL(url).host;

  it('sends both the service calls and the GitHub calls through the proxy, and nothing around it', async () => {
    const run = await action(emu, 'plan', behind());
    expect(run.exitCode, run.log).toBe(0);
    expect(tlsGitHub.comments.get(7)).toHaveLength(1);
    expect(new Set(passed)).toEqual(new Set([`CONNECT ${hostOf(emu.url)}`, `CONNECT ${hostOf(tlsGitHub.url)}`]));
  });

  it('honours NO_PROXY for either host: the one listed goes direct, the other through the proxy', async () => {
    const direct = await action(emu, 'plan', behind({ NO_PROXY: hostOf(tlsGitHub.url) }));
    expect(direct.exitCode, direct.log).toBe(0);
    expect(tlsGitHub.comments.get(7)).toHaveLength(1);
    expect(new Set(passed)).toEqual(new Set([`CONNECT ${hostOf(emu.url)}`]));
    passed.length = 0;
    const other = await action(emu, 'plan', behind({ no_proxy: `localhost, ${hostOf(emu.url)}` }));
    expect(other.exitCode, other.log).toBe(0);
    expect(new Set(passed)).toEqual(new Set([`CONNECT ${hostOf(tlsGitHub.url)}`]));
  });

  it('verifies GitHub\'s certificate whatever the runner inherits: NODE_TLS_REJECT_UNAUTHORIZED=0 sends the github-token to no unverified host', async () => {
    // The service over plain http on loopback, so that only the GitHub call meets the certificate no CA vouches for here.
    const plain = await startEmulator(['--profile', 'finance=alpha-data', '--profile', 'legal=legal-hold']);
    try {
      // Direct (the proxy's agent said it already); the reads are tried again as for any failure without an answer.
      const run = await action(plain, 'plan', { env: { GITHUB_API_URL: tlsGitHub.url, NODE_TLS_REJECT_UNAUTHORIZED: '0' } });
      expect(run.exitCode, run.log).toBe(6);
      expect(run.log).toContain(`cannot reach the GitHub API at ${hostOf(tlsGitHub.url)}`);
      expect(tlsGitHub.calls).toEqual([]);
    } finally {
      await plain.stop();
    }
  });

  it('refuses to send the github-token in clear text through a proxy (a plain-http GITHUB_API_URL), nothing sent', async () => {
    const run = await action(emu, 'plan', { env: { GITHUB_API_URL: gh.url, NODE_EXTRA_CA_CERTS: caFile, HTTP_PROXY: proxyUrl } });
    expect(run.exitCode, run.log).toBe(2);
    expect(run.log).toContain(`refusing to send the token in clear text to ${hostOf(gh.url)} through the proxy in HTTP_PROXY`);
    expect(passed).toEqual([]);
  });
});
