// What the bucket commands share: checking the profile name, parsing --wait, running an operation while
// riding out pending changes, and printing a mutation's result.
import { DifferencesFound, UsageError, type PendingError } from '../../errors.js';
import { DEFAULT_WAIT_SECONDS, retryWhilePending } from '../../core/wait.js';
import { Buckets, changeResult, checkProfileName, type ChangeRequest, type PlannedRequest } from '../../library/buckets.js';
import type { ChangeOptions } from '../../library/public.js';
import { slowSpinner } from '../../output/slow-spinner.js';
import { rememberProfile } from '../../settings/seen-profiles.js';
import type { CommandContext } from '../context.js';
import { isInSync } from '../../core/diff.js';
import { printChangeJson, printPlan, removalReview, sayAbsent } from '../change-pipeline.js';
import { refuseEmptied } from '../../library/guard.js';
import { changeOutput, writeDryRunBody } from '../../output/writers.js';
import type { FormatOf } from '../../output/formats.js';
import type { NameSet } from '../../core/name-set.js';

/** The bucket commands' flags: the library's options of a change (validate, allowEmpty, history), and the CLI's own. */
export interface BucketOptions extends Omit<ChangeOptions, 'wait'> {
  file?: string[];
  wait?: boolean | string;
  dryRun?: boolean;
  literal?: boolean;
  /** `-y, --yes`: no question before names are removed. */
  yes?: boolean;
  /** With --dry-run: read the list and print the plan as sync does. */
  diff?: boolean;
  exitCode?: boolean;
}

/** `--wait` alone means 120 s; `--wait N` means N seconds; absent means do not wait. */
export function parseWait(value: boolean | string | undefined): number | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return DEFAULT_WAIT_SECONDS;
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(seconds >= 0) || seconds > 86_400) {
    throw new UsageError(`--wait: "${value}" is not a number of seconds (0 to 86400)`);
  }
  return seconds;
}

/** The runs already told that profiles-seen is not a plain file: once a run, however many profiles it touches. */
const warnedOfSeenFile = new WeakSet<CommandContext>();

/**
 * Runs `action`, retrying while the profile has a pending change if --wait was given. On a terminal a
 * spinner naming `what` and the time so far shows once it takes longer than a glance.
 */
export async function withWait<T>(ctx: CommandContext, profile: string, wait: number | undefined, action: () => Promise<T>, what = profile): Promise<T> {
  const spinner = slowSpinner(ctx.term, what, ctx.clock);
  // A profile the service answered for is worth suggesting in completion next time.
  const remembered = async (): Promise<T> => {
    const result = await action();
    const warning = rememberProfile(ctx.settings().context.value, profile, ctx.env, ctx.knownTokens());
    if (warning && !warnedOfSeenFile.has(ctx)) ctx.term.warn(warning);
    if (warning) warnedOfSeenFile.add(ctx);
    return result;
  };
  try {
    if (wait === undefined) return await remembered();
    return await retryWhilePending(remembered, {
      seconds: wait,
      signal: ctx.signal,
      clock: ctx.clock,
      onPending: ({ attempt, elapsedMs, delayMs, error }) => {
        const own = (error as PendingError).mayBeOwnChange ? ' (it may be our own first attempt, whose answer was lost)' : '';
        const line = `${profile}: change pending${own}; attempt ${attempt}, waited ${Math.round(elapsedMs / 1000)} s of ${wait} s, next try in ${(delayMs / 1000).toFixed(1)} s`;
        // On a terminal the spinner says it; in a log (CI) each try is a line, so a wait is never silent.
        if (ctx.term.animate && !ctx.term.verbose) spinner.update(line);
        else ctx.term.info(line);
      },
    });
  } finally {
    spinner.stop();
  }
}

/**
 * What append, delete, replace and modify check before their input is read, so that a bad line is a usage
 * error before anything is read or sent: the profile name, --wait, -o, and `--diff` and `--exit-code`, which
 * are for a dry run that reads the list.
 */
export function beginMutation(ctx: CommandContext, profile: string, options: BucketOptions): MutationHow {
  checkProfileName(profile, ctx.knownTokens());
  const wait = parseWait(options.wait);
  const format = ctx.outputFormat('change');
  if (options.diff && !options.dryRun) throw new UsageError('--diff goes with --dry-run: it reads the list and prints the plan, sending nothing');
  if (options.exitCode && !options.diff) throw new UsageError('--exit-code goes with --dry-run --diff (exit 8 when anything would change)');
  return { format, wait, options };
}

interface MutationHow {
  format: FormatOf<'change'>;
  wait: number | undefined;
  options: BucketOptions;
}

/**
 * Sends one mutation and prints its summary on stderr, or its result as JSON on stdout (`format`, from
 * beginMutation). With `dryRun` nothing is sent and no token or address is needed: the summary says what
 * would be sent, and `--json` gives the exact wire body; with `--diff` too, the list is read and the plan
 * printed. A `planned` mutation goes through the change pipeline's read, guard, question and history.
 */
export async function sendMutation(ctx: CommandContext, profile: string, request: ChangeRequest, how: MutationHow): Promise<void> {
  const { format, wait, options } = how;
  const { op, sent, planned } = request;
  if (options.dryRun && options.diff && planned) return showDiff(ctx, profile, planned, format, wait, options);
  if (options.dryRun) {
    ctx.term.info(`dry run: ${op} ${profile} would send ${countSent(sent)}: ${previewNames(sent)}; nothing sent`);
    // The exact wire body: the name reader writes it as JSON already.
    return writeDryRunBody(ctx.term, format, { profile, operation: op, body: request.body });
  }
  const output = changeOutput(ctx.term, format);
  const review = planned && removalReview(ctx, { profile, named: planned.named, ask: { yes: options.yes, json: output.forScripts } });
  const { allowEmpty, history } = options;
  const answer = await bucketsFor(ctx).sendRequest(profile, request, { wait, allowEmpty, history }, review);
  ctx.term.success(`${op} ${profile}: ${countSent(sent)} sent`);
  // Data on stdout is printed as the service sent it, except that a token it echoed is masked.
  await output.end(() => changeResult(profile, request, answer, ctx.knownTokens()));
}

/** The library's bucket calls as this run makes them: a pending change ridden out with withWait's spinner and lines, the version kept said under --verbose. */
export function bucketsFor(ctx: CommandContext): Buckets {
  return new Buckets(ctx.session(), {
    ride: (profile, wait, action, what) => withWait(ctx, profile, wait, action, what),
    debug: (line) => ctx.term.debug(line),
  });
}

/** `--dry-run --diff`: the list read, the plan printed as sync prints it (`--json`: sync's shape), nothing sent. */
async function showDiff(ctx: CommandContext, profile: string, planned: PlannedRequest, format: FormatOf<'change'>, wait: number | undefined, options: BucketOptions): Promise<void> {
  const { plan, absent, emptied } = planned.plan((await bucketsFor(ctx).view(profile, { wait })).live());
  // A rehearsal stops where the real run would.
  if (planned.refuseEmpty) refuseEmptied(planned.operation, profile, emptied, options.allowEmpty);
  sayAbsent(ctx, absent, planned.named);
  const output = changeOutput(ctx.term, format);
  printPlan(ctx, plan, output);
  const changes = !isInSync(plan);
  ctx.term.info(changes ? `dry run: ${planned.operation} ${profile} would add ${plan.add.length} and delete ${plan.delete.length}; nothing sent` : `${profile}: nothing would change; nothing sent`);
  await printChangeJson(output, profile, plan, false);
  if (options.exitCode && changes) throw new DifferencesFound('differences found');
}

/** The first names of each list, for a dry run's summary line. */
function previewNames(sent: Record<string, NameSet>): string {
  const shown = 5;
  return Object.entries(sent)
    .map(([key, list]) => {
      const names = list.names();
      const head = names.slice(0, shown).join(', ') + (names.length > shown ? `, … and ${names.length - shown} more` : '');
      return key === 'list' ? head : `${key} ${head}`;
    })
    .join('; ');
}
/** `3 names`, or `2 names in addList, 1 name in deleteList`. */
function countSent(sent: Record<string, NameSet>): string {
  const counts = Object.entries(sent).map(([key, names]) => [key, names.size] as const);
  const plural = (n: number): string => `${n} name${n === 1 ? '' : 's'}`;
  if (counts.length === 1 && counts[0]![0] === 'list') return plural(counts[0]![1]);
  return counts.map(([key, n]) => `${plural(n)} in ${key}`).join(', ');
}
