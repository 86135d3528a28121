// `scpctl apply`: make many profiles equal to a manifest. View every profile (paced by the client-side rate
// limit), diff each, print the plan, then one modifyBucketList per differing profile. A saved plan
// (`--save-plan`, `--plan`) carries each live list's fingerprint, so a reviewed plan is never applied over
// someone else's edit. One failing profile never hides the others.
import type { Sealer, Tenant } from '../../core/tenant.js';
import { holdsSecret } from '../../core/secret-names.js';
import { writeFileAtomically } from '../../files/atomic-write.js';
import { NotPlainFile, appendPlainFile } from '../../files/plain-file.js';
import { DifferencesFound, PendingError, PlanConflictError, ProfilesFailed, UsageError } from '../../errors.js';
import { isInSync } from '../../core/diff.js';
import { fingerprintList } from '../../core/fingerprint.js';
import { planMarkdown, planTextPieces, type ProfilePlan } from '../../core/plan.js';
import { planOutput, type PlanData, type StagedOutput } from '../../output/writers.js';
import type { FormatOf } from '../../output/formats.js';
import { planStyle } from '../plan-style.js';
import { mapPool } from '../../core/pool.js';
import { PLAN_FORMAT, parseSavedPlan, planSealParts, serializePlan, type SavedPlan } from '../../core/saved-plan.js';
import { retryWhilePending } from '../../core/wait.js';
import { RateLimiter, rateFromEnv } from '../../api/rate-limit.js';
import type { ScpClient } from '../../api/client.js';
import type { CommandContext } from '../context.js';
import { parseWait } from '../buckets/common.js';
import { CONCURRENCY, applyWork, firstFailure, outcome, perProfile, planProfiles, type Ride, type Work } from '../../library/plan.js';
import { confirmRemoval } from '../confirm-removal.js';
import { loadManifest, type LoadedManifest } from '../../library/manifest-file.js';
import { SMALLER_PLANS, checkPlanBinding, isPlanResult, planTooLarge, readPlanFile, sameFile } from './plan-file.js';

export interface ApplyOptions {
  file?: string;
  allowOutsideFiles?: boolean;
  dryRun?: boolean;
  exitCode?: boolean;
  markdown?: boolean;
  savePlan?: string;
  plan?: string;
  wait?: boolean | string;
  yes?: boolean;
}


export async function apply(ctx: CommandContext, options: ApplyOptions): Promise<void> {
  const format = checkOptions(ctx, options);
  const wait = parseWait(options.wait);
  const saved = options.plan !== undefined ? parseSavedPlan(await readPlanFile(options.plan), options.plan, ctx.knownTokens()) : undefined;
  const manifest = saved ? undefined : await loadManifest({ path: options.file!, stdin: ctx.term.stdin }, ctx.knownTokens(), { allowOutsideFiles: options.allowOutsideFiles });
  if (manifest && manifest.duplicates > 0) ctx.term.info(`dropped ${manifest.duplicates} duplicate name${manifest.duplicates === 1 ? '' : 's'}`);
  const tenant = await ctx.tenant();
  if (saved) await checkPlanBinding(ctx, options.plan!, saved, tenant);
  // The plan's key (one scrypt, tens of milliseconds) is made while the profiles are read, not after.
  const key = options.savePlan !== undefined ? tenant.make() : undefined;
  key?.catch(() => undefined);
  const client = await ctx.client(new RateLimiter(rateFromEnv(ctx.env), ctx.clock));

  const count = saved ? saved.profiles.length : manifest!.profiles.length;
  // 1. Read every live list and plan each profile.
  const progress = planningProgress(ctx, saved ? 'checking the plan of' : 'planning', count);
  let work: Work[];
  try {
    work = saved ? await planSaved(ctx, client, saved, wait, progress.tick) : await planProfiles(client, manifest!.profiles, riding(ctx, wait), progress.tick);
  } finally {
    progress.stop();
  }
  const output = planOutput(ctx.term, format);
  printPlanText(ctx, work, output);
  if (key !== undefined) {
    const made = await key;
    await savePlan(ctx, options.savePlan!, work, { tenant: made, sealer: (await tenant.sealer(made))!, manifest: manifest!.path });
  }
  // 2. Apply: one question at a terminal for every name the plan removes, then one modify per differing
  // profile, the list it read kept first.
  if (!options.dryRun) {
    const removals = work.filter((w) => w.status === 'planned').map((w) => ({ profile: w.profile, names: w.delete }));
    await confirmRemoval(ctx, removals, { yes: options.yes, json: output.forScripts });
    await applyWork(ctx.session(), client, work, riding(ctx, wait));
  }
  // 3. Report, and the exit code.
  await report(ctx, work, output, Boolean(options.dryRun));
  const failure = firstFailure(work);
  if (failure) {
    throw new ProfilesFailed(failure.message, failure.exitCode, failure.exitCode === 9 ? { hint: 'Make a new plan: scpctl apply -f MANIFEST --dry-run --save-plan FILE' } : undefined);
  }
  if (options.exitCode && work.some((plan) => !isInSync(plan))) throw new DifferencesFound(options.dryRun ? 'differences found' : 'differences applied');
}

/** A saved plan: each profile's live list checked against the plan's fingerprint (or found already applied). */
function planSaved(ctx: CommandContext, client: ScpClient, saved: SavedPlan, wait: number | undefined, tick: () => void): Promise<Work[]> {
  return mapPool(saved.profiles, CONCURRENCY, (planned) => counted(tick,
    // A failed profile keeps its planned changes in the report: they are what was not applied.
    perProfile(planned.profile, planned, async () => {
      const live = (await retryPending(ctx, planned.profile, wait, () => client.viewList(planned.profile))).names();
      if (fingerprintList(live) !== planned.fingerprint) {
        if (!isPlanResult(live, planned)) throw new PlanConflictError(`the live list of ${planned.profile} changed since the plan was made; left alone`);
        ctx.term.info(`${planned.profile}: already applied (the live list already equals what the plan makes of it)`);
        return outcome(planned.profile, live, { add: [], delete: [] }, planned.fingerprint);
      }
      return outcome(planned.profile, live, planned, planned.fingerprint);
    })),
  );
}

/** A profile planned (or failed): one more for the progress line. */
async function counted(tick: () => void, planned: Promise<Work>): Promise<Work> {
  const work = await planned;
  tick();
  return work;
}

/**
 * `planning 12/60 profiles` at a terminal, redrawn as each profile is read (a long apply is never one still
 * line); elsewhere the one line it always was, so logs and scripts see what they saw.
 */
function planningProgress(ctx: CommandContext, doing: string, count: number): { tick(): void; stop(): void } {
  if (!ctx.term.animate || ctx.term.verbose) {
    ctx.term.info(`${doing} ${count} profile${count === 1 ? '' : 's'}…`);
    return { tick() {}, stop() {} };
  }
  let done = 0;
  const label = (): string => `${doing} ${done}/${count} profile${count === 1 ? '' : 's'}`;
  const spinner = ctx.term.spinner(label());
  return {
    tick: () => {
      done += 1;
      spinner.update(label());
    },
    stop: () => spinner.stop(),
  };
}

/** JSON or Markdown on stdout (with the outcome), the Markdown also to GitHub's step summary; the summary on stderr. */
async function report(ctx: CommandContext, work: readonly Work[], output: StagedOutput<PlanData>, dryRun: boolean): Promise<void> {
  const markdown = planMarkdown(work, { applying: !dryRun, title: dryRun ? 'scpctl plan' : 'scpctl apply' });
  await output.end({ plans: work, markdown });
  const summaryFile = ctx.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) {
    try {
      appendPlainFile(summaryFile, ctx.term.redact(markdown + '\n'));
    } catch (error) {
      ctx.term.warn(`could not append the plan to GITHUB_STEP_SUMMARY (${error instanceof NotPlainFile ? error.message : ((error as NodeJS.ErrnoException).code ?? 'error')})`);
    }
  }
  printSummary(ctx, work, dryRun);
}

/** Flags that cannot go together are usage errors before anything is read; returns the output format. */
function checkOptions(ctx: CommandContext, options: ApplyOptions): FormatOf<'plan'> {
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
  for (const [flag, value] of [['--plan', options.plan], ['--save-plan', options.savePlan], ['-f', options.file]] as const) {
    if (value !== undefined && value.trim() === '') throw new UsageError(`${flag}: the value is empty`);
  }
  const wantsJson = ctx.options.json || ctx.options.output === 'json';
  if (options.markdown && (wantsJson || (ctx.options.output !== undefined && ctx.options.output !== 'markdown'))) {
    throw new UsageError('--markdown and --json (or -o) cannot be given together');
  }
  if (options.markdown) return 'markdown';
  return ctx.outputFormat('plan');
}

/** How apply rides out a pending change, for the library's plan and apply steps. */
function riding(ctx: CommandContext, wait: number | undefined): Ride {
  return (profile, action) => retryPending(ctx, profile, wait, action);
}

/** `--wait` for many profiles at once: no spinner (they would fight over one line), a line when waiting starts. */
function retryPending<T>(ctx: CommandContext, profile: string, wait: number | undefined, action: () => Promise<T>): Promise<T> {
  return retryWhilePending(action, {
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

function printPlanText(ctx: CommandContext, work: readonly Work[], output: StagedOutput<PlanData>): void {
  // What will be sent: a profile that already failed (changed since the plan, unreadable) sends nothing.
  // In pieces, so that the text of every name of a large plan is never held at once.
  output.lines(() => planTextPieces(work.filter((w) => w.status !== 'failed'), planStyle(ctx)));
}

async function savePlan(ctx: CommandContext, path: string, work: readonly Work[], about: { tenant: Tenant; sealer: Sealer; manifest: string }): Promise<void> {
  const failed = work.filter((w) => w.status === 'failed');
  if (failed.length > 0) {
    // A plan must cover the whole manifest: one that silently left a profile out would be applied as complete.
    ctx.term.warn(`no plan saved to ${path}: ${failed.length} profile${failed.length === 1 ? '' : 's'} could not be planned`);
    return;
  }
  refuseSecretPlan(ctx, path, work);
  const plan: SavedPlan = {
    format: PLAN_FORMAT,
    createdAt: new Date(ctx.clock.now()).toISOString(),
    baseUrl: about.tenant.baseUrl,
    context: ctx.settings().context.value,
    tenant: about.tenant,
    validated: true,
    manifest: about.manifest,
    profiles: work.map((w) => ({ profile: w.profile, fingerprint: w.fingerprint!, add: w.add, delete: w.delete })),
  };
  const text = ctx.term.redact(serializePlan({ ...plan, seal: about.sealer.seal(planSealParts(plan)) }));
  // A plan apply --plan would refuse as too large to hold is not saved.
  const tooLarge = planTooLarge(Buffer.byteLength(text), work.reduce((n, w) => n + w.add.length + w.delete.length, 0));
  if (tooLarge) throw new UsageError(`--save-plan ${path}: the plan would be ${tooLarge}; no plan was saved`, { hint: SMALLER_PLANS });
  try {
    writeFileAtomically(path, text, 0o644);
  } catch (error) {
    const why = error instanceof NotPlainFile ? `it is ${error.kind}, not a regular file` : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
    throw new UsageError(`cannot write the plan ${path}: ${why}`);
  }
  ctx.term.info(`plan saved to ${path}; apply it with: scpctl apply --plan ${path}`);
}

/**
 * A plan that would have to name a token-holding name (one the service returned, to delete) is not saved:
 * written as it is it would rest the token on disk, written masked it would delete the stand-in and report
 * success while the real name stays. Applying straight from the manifest needs no file.
 */
function refuseSecretPlan(ctx: CommandContext, path: string, work: readonly Work[]): void {
  const tokens = ctx.knownTokens();
  const holding = work.filter((w) => w.add.some((name) => holdsSecret(name, tokens)) || w.delete.some((name) => holdsSecret(name, tokens)));
  if (holding.length === 0) return;
  throw new UsageError(`--save-plan ${path}: the plan would have to name a name that looks like the API token (not shown) in ${holding.map((w) => w.profile).join(', ')}; no plan saved`, {
    hint: 'Apply it directly from the manifest: scpctl apply -f MANIFEST (a saved plan never holds a token).',
  });
}

/** The closing table on stderr: applied, unchanged, failed (each failure with its reason and exit code). */
function printSummary(ctx: CommandContext, work: readonly Work[], dryRun: boolean): void {
  const names = (status: ProfilePlan['status']): string[] => work.filter((w) => w.status === status).map((w) => w.profile);
  const list = (items: string[]): string => (items.length > 10 ? `${items.slice(0, 10).join(', ')}, … (${items.length - 10} more)` : items.join(', '));
  const rows: Array<[string, string[]]> = dryRun
    ? [['to change', names('planned')], ['unchanged', names('unchanged')], ['failed', names('failed')]]
    : [['applied', names('applied')], ['unchanged', names('unchanged')], ['failed', names('failed')]];
  const lines = rows.map(([label, items]) => `  ${label.padEnd(9)} ${String(items.length).padStart(4)}${items.length > 0 ? `  ${list(items)}` : ''}`);
  const changes = work.filter((w) => w.status === 'planned' || w.status === 'applied');
  const added = changes.reduce((n, w) => n + w.add.length, 0);
  const deleted = changes.reduce((n, w) => n + w.delete.length, 0);
  const head = dryRun
    ? `dry run: ${changes.length} of ${work.length} profiles to change (${added} to add, ${deleted} to delete); nothing sent`
    : `apply: ${changes.length} of ${work.length} profiles changed (${added} added, ${deleted} deleted)`;
  // One line each: a message is one line, and what the service said in a failure is shown, not obeyed.
  for (const line of [head, ...lines]) ctx.term.info(line);
  for (const w of work) if (w.status === 'failed') ctx.term.failure(`${w.profile}: ${w.error!.message} (exit ${w.error!.exitCode})`, '  ');
}
