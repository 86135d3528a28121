// What the bucket commands share: checking the profile name, parsing --wait, running an operation while
// riding out pending changes, and printing a mutation's result.
import { UsageError, type PendingError } from '../../errors.js';
import type { BucketOp, WireBody } from '../../core/wire.js';
import { DEFAULT_WAIT_SECONDS, retryWhilePending } from '../../core/wait.js';
import { quoteName } from '../../core/names.js';
import { profileNameProblem } from '../../core/manifest.js';
import { maskInValue } from '../../core/secrets.js';
import { slowSpinner } from '../../output/slow-spinner.js';
import { rememberProfile } from '../../settings/seen-profiles.js';
import type { CommandContext } from '../context.js';
import { historyWanted, keepBefore } from '../keep-history.js';
import { safeJson } from '../../core/service-text.js';
import { OUTPUT_FORMATS } from '../output-formats.js';

export interface BucketOptions {
  file?: string[];
  validate?: boolean;
  allowEmpty?: boolean;
  /** `--no-history` gives false: no read first, nothing kept, no guard against emptying the list. */
  history?: boolean;
  wait?: boolean | string;
  dryRun?: boolean;
  literal?: boolean;
}

/**
 * Refuses a profile name that cannot be meant: empty (`buckets view "$UNSET"` would send `name=`), with
 * whitespace around it, or with control characters. Every bucket command calls it first.
 */
export function checkProfileName(profile: string): void {
  const problem = profileNameProblem(profile);
  if (problem !== null) throw new UsageError(`the profile name ${quoteName(profile)} ${problem}`);
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
    const warning = rememberProfile(ctx.settings().context.value, profile, ctx.env);
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
 * What `delete` and `modify` (and `replace`) do before changing a list: read it, refuse a result that would
 * be empty unless --allow-empty, and keep the list read in the history. `--no-history` and `--dry-run` skip
 * the read, and with it both (the change itself is still one request). `emptied` says, from the live list,
 * whether the change would leave nothing.
 */
export async function guardAndKeep(
  ctx: CommandContext,
  profile: string,
  operation: 'delete' | 'modify',
  options: Pick<BucketOptions, 'allowEmpty' | 'history' | 'dryRun'>,
  wait: number | undefined,
  emptied: (live: readonly string[]) => boolean,
): Promise<void> {
  if (options.dryRun || options.history === false) return;
  const client = await ctx.client();
  const live = await withWait(ctx, profile, wait, () => client.viewBuckets(profile), `viewBucketList ${profile}`);
  if (live.length > 0 && emptied(live) && !options.allowEmpty) {
    throw new UsageError(`refusing to ${operation} every bucket of ${profile}: the list would be empty; nothing was sent`, {
      hint: 'Pass --allow-empty if that is what you want.',
    });
  }
  if (historyWanted(ctx)) await keepBefore(ctx, profile, operation, live);
}

/** A mutation command's -o, read before its input so that a bad one is a usage error before anything is sent. */
export function mutationFormat(ctx: CommandContext, command: 'append' | 'delete' | 'replace' | 'modify'): 'table' | 'text' | 'json' {
  return ctx.outputFormat(OUTPUT_FORMATS[`buckets ${command}`], 'table', 'text');
}

/**
 * Sends one mutation and prints its summary on stderr, or its result as JSON on stdout (`format`, from
 * mutationFormat). With `dryRun` nothing is sent and no token or address is needed: the summary says what
 * would be sent, and `--json` gives the exact wire body.
 */
export async function sendMutation(
  ctx: CommandContext,
  profile: string,
  op: Exclude<BucketOp, 'viewBucketList'>,
  body: WireBody,
  sent: Record<string, SentNames>,
  how: { format: ReturnType<typeof mutationFormat>; wait: number | undefined; dryRun?: boolean },
): Promise<void> {
  const { format, wait, dryRun = false } = how;
  if (dryRun) {
    ctx.term.info(`dry run: ${op} ${profile} would send ${countSent(sent)}: ${previewNames(sent)}; nothing sent`);
    // The exact wire body: the name reader writes it as JSON already.
    if (format === 'json') ctx.term.out(`{"profile":${JSON.stringify(profile)},"operation":${JSON.stringify(op)},"dryRun":true,"body":${body.toString()}}\n`);
    return;
  }
  const client = await ctx.client();
  const answer = await withWait(ctx, profile, wait, () => client.bucketOp(profile, op, body), `${op} ${profile}`);
  ctx.term.success(`${op} ${profile}: ${countSent(sent)} sent`);
  if (format === 'json') {
    // Data on stdout is printed as the service sent it, except that a token it echoed is masked.
    const listed = Object.fromEntries(Object.entries(sent).map(([key, list]) => [key, list.names()]));
    // A modify always shows both lists (contract section 7), an empty one as []; the wire carries only the others.
    const names = op === 'modifyBucketList' ? { addList: listed.addList ?? [], deleteList: listed.deleteList ?? [] } : listed;
    const result = { profile, operation: op, sent: names, response: maskInValue(answer.body, ctx.knownTokens()) };
    ctx.term.out(safeJson(result) + '\n');
  }
}

/** The names of a list sent: counted for the summary, decoded only for --json and a dry run's preview. */
export interface SentNames {
  readonly size: number;
  names(): string[];
}

/** The first names of each list, for a dry run's summary line. */
function previewNames(sent: Record<string, SentNames>): string {
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
function countSent(sent: Record<string, SentNames>): string {
  const counts = Object.entries(sent).map(([key, names]) => [key, names.size] as const);
  const plural = (n: number): string => `${n} name${n === 1 ? '' : 's'}`;
  if (counts.length === 1 && counts[0]![0] === 'list') return plural(counts[0]![1]);
  return counts.map(([key, n]) => `${plural(n)} in ${key}`).join(', ');
}
