// The action's three modes (contract section 15). Each plans the manifest in-process with the library, then
// speaks to GitHub: plan comments on the pull request, apply applies only what was reviewed, drift keeps one
// issue. Everything written to GitHub, the log and the job summary passes the mask of the job's secrets.
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { connect, planDigest } from '../../src/library/index.js';
import type { Plan, Scpctl } from '../../src/library/public.js';
import { firstFailure } from '../../src/library/plan.js';
import { markdownPieces, outlineOf } from '../../src/core/plan.js';
import { PlanConflictError, ProfilesFailed, UsageError } from '../../src/errors.js';
import { appendPlainFile } from '../../src/files/plain-file.js';
import type { GitHub, MergedPull } from './github.js';
import type { Inputs, Runner } from './context.js';
import { isFork } from './context.js';
import { codeText, cut, markerOf, planCommentBody, reviewedIn, tenantIdentity, type Binding } from './plan-comment.js';
import { SUMMARY_BYTES, everyName, tally } from './every-name.js';

export const DRIFT_LABEL = 'scpctl-drift';

export interface Job {
  inputs: Inputs;
  runner: Runner;
  gh: GitHub;
  env: NodeJS.ProcessEnv;
  mask(text: string): string;
  info(line: string): void;
  /** Lines in a folded group of the job's log. */
  group(title: string, lines: readonly string[]): void;
  notice(line: string): void;
  /** What the outputs say so far: set as soon as it is known, so a failure still reports it. */
  out: { hasChanges: boolean; digest: string };
}

interface Planned {
  scp: Scpctl;
  plan: Plan;
  digest: string;
}

export async function runMode(job: Job): Promise<void> {
  if (job.inputs.mode === 'plan') return planMode(job);
  if (job.inputs.mode === 'apply') return applyMode(job);
  return driftMode(job);
}

async function planMode(job: Job): Promise<void> {
  const { event } = job.runner;
  const pull = event.pull_request;
  if (!pull?.number) throw new UsageError(`mode plan runs on pull_request events (this is ${job.runner.eventName || 'no event'})`);
  // pull_request_target gives a fork's pull request the secrets: with the fork's head checked out it would plan
  // its author's manifest with the token (and post the live names it would delete), with the base checked out it
  // would post the base's plan as the pull request's. Neither is a plan of this pull request to review.
  if (job.runner.eventName === 'pull_request_target') {
    throw new UsageError('mode plan does not run on pull_request_target: it would plan with the secrets what the pull request did not write, or what a fork did; run it on pull_request');
  }
  if (isFork(event) && !job.inputs.token) {
    job.notice('scpctl: a pull request from a fork gets no secrets, so there is no plan here; a maintainer can run it from a branch of this repository');
    return;
  }
  const planned = await planManifest(job);
  try {
    const markdown = markdownOf(planned.plan, 'scpctl plan', false);
    const where = summarise(job, markdown, planned.plan);
    const binding = bindingOf(job, pull.number);
    const body = await planCommentBody(tenantIdentity(planned.scp.baseUrl, job.inputs.token), binding, { digest: planned.digest, head: commitOf(pull.head?.sha) }, markdown, job.mask, where);
    const updated = await keepComment(job, pull.number, 'plan', body);
    job.info(`scpctl: the plan of ${job.inputs.manifest} ${updated ? 'updated in its comment' : 'commented'} on pull request #${pull.number} (${planned.digest})`);
    throwFailure(planned.plan);
  } finally {
    await planned.scp.close();
  }
}

async function applyMode(job: Job): Promise<void> {
  if (job.runner.eventName.startsWith('pull_request')) throw new UsageError(`mode apply runs on push events (this is ${job.runner.eventName}): a pull request's manifest is not merged`);
  const sha = job.runner.sha || job.runner.event.after || '';
  if (!/^[0-9a-f]{40}$/.test(sha)) throw new UsageError('mode apply runs on push events: GITHUB_SHA is not a commit');
  const pulls = await job.gh.mergedPulls(sha);
  const pull = pulls.find((p) => p.mergeSha === sha) ?? pulls[0];
  const planned = await planManifest(job);
  try {
    throwFailure(planned.plan);
    const reviewed = pull && (await reviewedPlan(job, planned.scp, pull));
    if (!reviewed && !job.inputs.allowUnreviewed) {
      const where = pull ? `pull request #${pull.number} has no plan comment of this action for ${job.inputs.manifest} written before its merge` : `commit ${sha.slice(0, 12)} was pushed without a pull request`;
      throw new PlanConflictError(`no reviewed plan: ${where}; nothing applied (set allow-unreviewed: true to apply unreviewed pushes)`);
    }
    if (reviewed && pull && (reviewed.digest !== planned.digest || reviewed.head !== pull.headSha)) {
      const why = reviewed.head !== pull.headSha ? 'the plan comment is of an older commit of the pull request' : 'the live lists or the manifest changed';
      const now = markdownOf(planned.plan, 'scpctl plan at merge', false);
      const where = summarise(job, now, planned.plan);
      const body = `${markerOf('stale', job.inputs.manifest)}-->\n**scpctl: the plan changed since review** (${why}), so nothing was applied. The plan now:\n\n${cut(now)}\n${where ? `${where}\n\n` : ''}Reviewed digest \`${reviewed.digest}\`, now \`${planned.digest}\`. Open a pull request to review the plan again.\n`;
      await keepComment(job, pull.number, 'stale', body);
      throw new PlanConflictError(`the plan changed since review (${why}); nothing applied; commented on pull request #${pull.number}`);
    }
    if (planned.plan.hasChanges) {
      const applied = await planned.scp.apply(planned.plan);
      summarise(job, markdownOf(applied, 'scpctl apply', true), applied);
    } else summarise(job, markdownOf(planned.plan, 'scpctl apply', true), planned.plan);
    job.info(`scpctl: ${reviewed ? `applied the plan reviewed on pull request #${pull!.number}` : 'applied an unreviewed plan (allow-unreviewed)'} (${planned.digest})`);
  } finally {
    await planned.scp.close();
  }
}

async function driftMode(job: Job): Promise<void> {
  const planned = await planManifest(job);
  try {
    throwFailure(planned.plan);
    const marker = markerOf('drift', job.inputs.manifest);
    const login = await job.gh.login();
    const open = (await job.gh.openIssues(DRIFT_LABEL)).filter((i) => i.login === login && i.body.startsWith(marker));
    const markdown = markdownOf(planned.plan, 'scpctl drift', false);
    const where = summarise(job, markdown, planned.plan);
    const body = job.mask(`${marker}-->\nThe tenant differs from \`${codeText(job.inputs.manifest)}\`: applying the manifest would make these changes.\n\n${cut(markdown)}\n${where ? `${where}\n\n` : ''}Plan digest \`${planned.digest}\`. This issue closes by itself when the tenant is back in sync.\n`);
    if (planned.plan.hasChanges && open[0]) {
      await job.gh.updateIssue(open[0].number, { body });
      job.info(`scpctl: drift on ${job.inputs.manifest}: issue #${open[0].number} updated`);
    } else if (planned.plan.hasChanges) {
      await job.gh.ensureLabel(DRIFT_LABEL, 'scpctl: the tenant differs from the manifest');
      const number = await job.gh.createIssue(job.mask(`scpctl: the tenant drifted from ${visibleTitle(job.inputs.manifest)}`), body, DRIFT_LABEL);
      job.info(`scpctl: drift on ${job.inputs.manifest}: issue #${number} opened`);
    } else {
      for (const issue of open) await job.gh.updateIssue(issue.number, { state: 'closed', body: job.mask(`${marker}-->\nThe tenant is back in sync with \`${codeText(job.inputs.manifest)}\`.\n`) });
      job.info(`scpctl: ${job.inputs.manifest} is in sync${open.length > 0 ? `; closed issue #${open.map((i) => i.number).join(', #')}` : ''}`);
    }
  } finally {
    await planned.scp.close();
  }
}

/**
 * One comment of each kind per manifest on a pull request, ours (the github-token's user's) and found by its
 * marker, updated in place: a re-run, or every refused apply, never piles up another. True when updated.
 */
async function keepComment(job: Job, pull: number, kind: 'plan' | 'stale', body: string): Promise<boolean> {
  const login = await job.gh.login();
  const marker = markerOf(kind, job.inputs.manifest);
  const ours = (await job.gh.comments(pull)).find((c) => c.login === login && c.body.startsWith(marker));
  if (ours) await job.gh.updateComment(ours.id, job.mask(body));
  else await job.gh.comment(pull, job.mask(body));
  return ours !== undefined;
}

async function planManifest(job: Job): Promise<Planned> {
  const scp = await connect({
    baseUrl: job.inputs.baseUrl,
    token: job.inputs.token,
    context: 'github-action',
    // The runner's environment: its proxy (HTTPS_PROXY, NO_PROXY) and the rest the CLI honours; with baseUrl
    // given, connect() would read none of it and go around a proxy the runner can only reach the service through.
    env: job.env,
    // The runner's temporary folder: kept versions go with the job, as any file of a hosted runner does.
    stateDir: join(job.env.RUNNER_TEMP || tmpdir(), 'scpctl-state'),
  });
  try {
    const plan = await scp.plan(job.inputs.manifest);
    const digest = planDigest(plan);
    job.out.hasChanges = plan.hasChanges;
    job.out.digest = digest;
    return { scp, plan, digest };
  } catch (error) {
    await scp.close();
    throw error;
  }
}

/**
 * The reviewed plan of the pull request: our user's comment with the manifest's marker and a seal that
 * verifies, last written before the merge (a plan job of the last push that posts after a quick merge shows a
 * plan no one could see before merging; a comment with no time given is not trusted either).
 */
async function reviewedPlan(job: Job, scp: Scpctl, pull: MergedPull): Promise<{ digest: string; head: string } | undefined> {
  const login = await job.gh.login();
  const marker = markerOf('plan', job.inputs.manifest);
  const identity = tenantIdentity(scp.baseUrl, job.inputs.token);
  for (const comment of await job.gh.comments(pull.number)) {
    if (comment.login !== login || !comment.body.startsWith(marker)) continue;
    if (!(Date.parse(comment.updatedAt) <= Date.parse(pull.mergedAt))) continue;
    const reviewed = await reviewedIn(comment.body, identity, bindingOf(job, pull.number));
    if (reviewed) return reviewed;
  }
  return undefined;
}

function bindingOf(job: Job, pull: number): Binding {
  return { repository: job.runner.repository, pull, manifest: job.inputs.manifest };
}

/** The Markdown plan `apply --dry-run --markdown` prints (core/plan.ts's writer). */
function markdownOf(plan: Plan, title: string, applying: boolean): string {
  return [...markdownPieces(plan.profiles.map(outlineOf), { title, applying })].join('');
}

/**
 * The job summary: the Markdown plan, then every name when a comment cannot show them all, in the 1 MiB GitHub
 * keeps; the names even that cannot hold go to the job's log. Returns what a comment should say about where
 * every name is, or '' when the comment shows each of them.
 */
function summarise(job: Job, markdown: string, plan: Plan): string {
  const count = tally(plan.profiles, markdown);
  let head = markdown;
  for (let max = SUMMARY_BYTES / 2; Buffer.byteLength(head) > SUMMARY_BYTES / 2; max = Math.floor(max * 0.8)) head = cut(markdown, max);
  const listing = count.whole ? undefined : everyName(plan.profiles, job.runner.summaryFile ? SUMMARY_BYTES - Buffer.byteLength(head) : 0);
  if (job.runner.summaryFile) appendPlainFile(job.runner.summaryFile, job.mask(`${head}\n${listing?.markdown ?? ''}`));
  for (const group of listing?.spilled ?? []) job.group(group.title, group.lines);
  if (count.whole) return '';
  const shown = (cut(markdown).match(/^[+-] /gm) ?? []).length;
  const run = job.runner.runUrl ? `[this run](${job.runner.runUrl})` : 'this workflow run';
  const log = listing?.spilledCount ? ', and those it cannot hold in the job log' : '';
  return `_This plan adds ${count.added} and deletes ${count.deleted} name${count.deleted === 1 ? '' : 's'}, ${shown} of them shown here. Every name is in the job summary of ${run}${log}._`;
}

function throwFailure(plan: Plan): void {
  const failure = firstFailure(plan.profiles);
  if (failure) throw Object.assign(new ProfilesFailed(failure.message, failure.exitCode), { profiles: plan.profiles });
}

const visibleTitle = (s: string): string => codeText(s).slice(0, 200);

/** A commit as the sealed line holds it: anything but 40 hex digits is no commit. */
const commitOf = (sha: string | undefined): string => (sha !== undefined && /^[0-9a-f]{40}$/.test(sha) ? sha : 'none');
