// `scpctl apply`: make many profiles equal to a manifest. View every profile (paced by the client-side rate
// limit), diff each, print the plan, then one modifyBucketList per differing profile. A saved plan
// (`--save-plan`, `--plan`) carries each live list's fingerprint, so a reviewed plan is never applied over
// someone else's edit. One failing profile never hides the others.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { DifferencesFound, PendingError, ProfilesFailed, UsageError } from '../../errors.js';
import { retryWhilePending } from '../../core/wait.js';
import type { CommandContext } from '../context.js';
import { parseWait } from '../buckets/common.js';
import { applyWork, firstFailure, planProfiles, type Ride } from '../../library/plan.js';
import { confirmRemoval } from '../confirm-removal.js';
import { loadManifest } from '../../library/manifest-file.js';
import { printPlanText, report, type PlanFormat } from './report.js';
import { MARKDOWN_NAMES, firstNames, outlineOf, type ProfileOutline } from '../../core/plan.js';
import { applySaved, planSaved } from './saved-run.js';
import { openSavedPlan, type PlanRun, type SavedPlanFile } from './saved-plan-file.js';
import { savePlan } from './save-plan.js';
import { REPLAN } from '../../core/saved-plan.js';
import type { ApplyOptions } from './export.js';

export async function apply(ctx: CommandContext, options: ApplyOptions): Promise<void> {
  const { plan, savePlan, file, out, files } = options;
  for (const [flag, value] of Object.entries({ '--plan': plan, '--save-plan': savePlan, '-f': file, '--out': out, '--files': files })) {
    if (value !== undefined && value.trim() === '') throw new UsageError(`${flag}: the value is empty`);
  }
  if (options.export !== undefined || options.out !== undefined || options.files !== undefined) {
    const { exportManifest } = await import('./export.js');
    return exportManifest(ctx, options, (wait) => riding(ctx, wait));
  }
  const format = checkOptions(ctx, options);
  const wait = parseWait(options.wait);
  const run = (): PlanRun => ({ context: ctx.settings().context.value, tokens: ctx.knownTokens(), identity: () => ctx.tenant() });
  const saved = options.plan !== undefined ? await openSavedPlan(options.plan, run()) : undefined;
  try {
    await (saved ? applyPlan(ctx, options, { format, wait, saved }) : applyManifest(ctx, options, { format, wait }));
  } finally {
    await saved?.close();
  }
}

interface How {
  format: PlanFormat;
  wait?: number;
}

/** `apply --plan`: the saved plan's profiles, their names read again from the file for each step. */
async function applyPlan(ctx: CommandContext, options: ApplyOptions, how: How & { saved: SavedPlanFile }): Promise<void> {
  const { saved } = how;
  const client = await ctx.session().pacedClient();
  const ride = riding(ctx, how.wait);
  const work = await withProgress(ctx, 'checking the plan of', saved.profiles.length, (tick) => planSaved(ctx, client, saved, ride, tick));
  if (how.format === 'text') printPlanText(ctx, work);
  await applyAndFinish(ctx, options, how, () => work, () => applySaved(ctx.session(), client, work, saved, ride));
}

/** `apply -f MANIFEST`: the library's plan and apply, the plan printed (and saved) between them. */
async function applyManifest(ctx: CommandContext, options: ApplyOptions, how: How): Promise<void> {
  const manifest = await loadManifest({ path: options.file!, stdin: ctx.term.stdin }, ctx.knownTokens(), { allowOutsideFiles: options.allowOutsideFiles });
  if (manifest.duplicates > 0) ctx.term.info(`dropped ${manifest.duplicates} duplicate name${manifest.duplicates === 1 ? '' : 's'}`);
  const tenant = await ctx.tenant();
  // The plan's key (one scrypt, tens of milliseconds) is made while the profiles are read, not after.
  const key = options.savePlan !== undefined ? tenant.make() : undefined;
  key?.catch(() => undefined);
  const client = await ctx.session().pacedClient();
  const ride = riding(ctx, how.wait);
  const work = await withProgress(ctx, 'planning', manifest.profiles.length, (tick) => planProfiles(client, manifest.profiles, ride, tick));
  if (how.format === 'text') printPlanText(ctx, work.map(outlineOf));
  if (key !== undefined) {
    const made = await key;
    await savePlan(ctx, options.savePlan!, work, { tenant: made, sealer: (await tenant.sealer(made))!, manifest: manifest.path });
  }
  await applyAndFinish(ctx, options, how, () => work.map(outlineOf), () => applyWork(ctx.session(), client, work, ride));
}

/**
 * Unless a dry run, one question at a terminal for every name the plan removes (the first names of each
 * profile shown), then `send`; then the report and the exit code. `outlines` is asked for after the send,
 * which writes each profile's outcome.
 */
async function applyAndFinish(ctx: CommandContext, options: ApplyOptions, how: How, outlines: () => readonly ProfileOutline[], send: () => Promise<void>): Promise<void> {
  if (!options.dryRun) {
    const removals = outlines().filter((w) => w.status === 'planned').map((w) => ({ profile: w.profile, names: firstNames(w.names(), MARKDOWN_NAMES).delete, count: w.deleted }));
    await confirmRemoval(ctx, removals, { yes: options.yes, json: how.format === 'json' });
    await send();
  }
  const work = outlines();
  await report(ctx, work, how.format, Boolean(options.dryRun));
  const failure = firstFailure(work);
  if (failure) {
    throw new ProfilesFailed(failure.message, failure.exitCode, failure.exitCode === 9 ? REPLAN : undefined);
  }
  if (options.exitCode && work.some((w) => w.added > 0 || w.deleted > 0)) throw new DifferencesFound(options.dryRun ? 'differences found' : 'differences applied');
}

/**
 * `work`, told to `tick` as each profile is read: `planning 12/60 profiles` at a terminal, redrawn at each
 * (a long apply is never one still line); where no spinner shows (Terminal.spinner), the one line it always
 * was, so logs and scripts see what they saw.
 */
async function withProgress<T>(ctx: CommandContext, doing: string, count: number, work: (tick: () => void) => Promise<T>): Promise<T> {
  const profiles = `profile${count === 1 ? '' : 's'}`;
  if (!ctx.term.animate || ctx.term.verbose) ctx.term.info(`${doing} ${count} ${profiles}…`);
  let done = 0;
  const spinner = ctx.term.spinner(`${doing} 0/${count} ${profiles}`);
  try {
    return await work(() => spinner.update(`${doing} ${++done}/${count} ${profiles}`));
  } finally {
    spinner.stop();
  }
}

/** Flags that cannot go together are usage errors before anything is read; returns the output format. */
function checkOptions(ctx: CommandContext, options: ApplyOptions): How['format'] {
  if (options.plan !== undefined && options.file !== undefined) {
    throw new UsageError('--plan applies a saved plan: give it without -f (the plan holds the changes)');
  }
  if (options.plan === undefined && options.file === undefined) {
    throw new UsageError('apply needs a manifest (-f scpctl.yaml, or -f - for standard input) or a saved plan (--plan FILE)');
  }
  if (options.savePlan !== undefined && !options.dryRun) {
    throw new UsageError('--save-plan needs --dry-run: a saved plan is for reviewing first and applying later with --plan');
  }
  if (options.savePlan !== undefined && options.plan !== undefined) throw new UsageError('--save-plan and --plan cannot be given together');
  if (options.savePlan !== undefined && options.file !== undefined && options.file !== '-' && sameFile(options.savePlan, options.file)) {
    throw new UsageError(`--save-plan ${options.savePlan} is the manifest itself: saving the plan would overwrite it`);
  }
  if (options.markdown && (ctx.options.json || (ctx.options.output ?? 'markdown') !== 'markdown')) {
    throw new UsageError('--markdown and --json (or -o) cannot be given together');
  }
  // The plan's text is its table too (-o table is accepted as it always was).
  const format = ctx.outputFormat('plan', options.markdown ? 'markdown' : undefined);
  return format === 'table' ? 'text' : format;
}

/**
 * How apply rides out a pending change, for the library's plan and apply steps: `--wait` for many profiles
 * at once, so no spinner (they would fight over one line), a line when waiting starts.
 */
function riding(ctx: CommandContext, wait: number | undefined): Ride {
  return (profile, action) => retryWhilePending(action, {
    seconds: wait,
    signal: ctx.signal,
    clock: ctx.clock,
    onPending: ({ attempt, elapsedMs, delayMs, error }) => {
      if (attempt === 1) ctx.term.info(`${profile}: a change is pending; waiting up to ${wait} s`);
      const own = (error as PendingError).mayBeOwnChange ? ' (it may be our own first attempt)' : '';
      ctx.term.debug(`${profile}: change pending${own}; attempt ${attempt}, waited ${Math.round(elapsedMs / 1000)} s, next try in ${(delayMs / 1000).toFixed(1)} s`);
    },
  });
}

/** Whether two paths name the same file (the second may not exist yet). */
function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}
