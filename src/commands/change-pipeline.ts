// The one way a list is changed to a desired one (sync, restore and apply, like Terraform's plan and apply):
// diff the live list against the desired one, check the body (wire-safe names, the 8 MiB limit) before
// anything is printed, print the plan, stop for --dry-run, keep the live list in the history, send one
// modifyBucketList, report it (--json) and pick the exit code. Each command keeps only what is its own:
// where the desired list comes from and how it words the outcome. replace, delete and modify send their own
// request, but read, plan, guard, ask and keep here too (sendOwnRequest).
import { DifferencesFound, PendingError, UsageError } from '../errors.js';
import { isInSync, isSeparated, planSync, type LiveList, type RequestPlan, type SyncPlan } from '../core/diff.js';
import type { NameSet } from '../core/name-set.js';
import { planLinePieces } from '../core/plan.js';
import { changeOutput, type StagedOutput } from '../output/writers.js';
import type { FormatOf } from '../output/formats.js';
import { modifyBody, type ListJson } from '../core/wire.js';
import type { ScpClient } from '../api/client.js';
import type { CommandContext } from './context.js';
import { keepBefore } from './keep-history.js';
import { planStyle } from './plan-style.js';
import { asksFirst, confirmRemoval, type AskOptions } from './confirm-removal.js';

export type ChangeOperation = 'sync' | 'restore' | 'apply';

/** A planned change of one profile: what to add and delete, and the body that does it (null: in sync). */
export interface ProfileChange {
  profile: string;
  plan: SyncPlan;
  /** The modify's body; null when the list is already the desired one. */
  body: { addList?: string; deleteList?: string } | null;
}

/** Diffs and checks a change; a name that cannot be sent, or a list over 8 MiB, stops it here (nothing printed, nothing sent). */
export function planChange(profile: string, live: LiveList, desired: readonly string[] | NameSet): ProfileChange {
  const plan = planSync(live, desired);
  return { profile, plan, body: isInSync(plan) ? null : modifyBody(plan.add, plan.delete) };
}

/**
 * A live list as the history keeps it: an array's own JSON text where the answer has it (no string a name),
 * else the names.
 */
export function liveNames(live: LiveList): readonly string[] | ListJson {
  if (!isSeparated(live)) return live;
  const { text, start, end, count, separator } = live;
  // Plain names between `","` are the inside of the answer's array (SeparatedNames): the array is the text around them.
  return separator === '","' ? { json: text.slice(start - 2, end + 2), count } : text.slice(start, end).split(separator);
}

/**
 * Keeps the live list, then sends the one modify through `send` (which rides out a pending change as the
 * command waits: a spinner for one profile, a line each for many).
 */
export async function sendChange(
  ctx: CommandContext,
  client: ScpClient,
  change: ProfileChange,
  operation: ChangeOperation,
  live: LiveList,
  send: <T>(action: () => Promise<T>) => Promise<T>,
): Promise<void> {
  if (change.body === null) return;
  const body = change.body;
  await keepBefore(ctx, change.profile, operation, liveNames(live));
  await send(() => client.bucketOp(change.profile, 'modifyBucketList', body));
}

/** `+ name` / `- name` on stdout: whole when piped; coloured and cut to 50 of each on a terminal. */
export function printPlan(ctx: CommandContext, plan: SyncPlan, output: StagedOutput<() => unknown>): void {
  // The names added passed the input's token check; a token could only be among the live names deleted.
  // In pieces: the lines of 800,000 names, joined and masked whole, were three copies of them.
  output.lines(() => planLinePieces(plan, planStyle(ctx)));
}

export interface SingleChange {
  operation: Exclude<ChangeOperation, 'apply'>;
  format: FormatOf<'change'>;
  dryRun?: boolean;
  exitCode?: boolean;
  /** More fields of the --json line (restore names its version). */
  json?: Record<string, unknown>;
  /** What stderr says: the list already is the desired one, a dry run's count, the change applied. */
  say: { inSync(): string; dryRun(plan: SyncPlan): string; applied(plan: SyncPlan): string };
  send: <T>(action: () => Promise<T>) => Promise<T>;
  /** -y and the output format: whether to ask before names are removed. */
  yes?: boolean;
}

/** sync and restore: the plan, then nothing (in sync, --dry-run) or the change; --json; --exit-code. Returns whether it was applied. */
export async function runSingleChange(ctx: CommandContext, client: ScpClient, change: ProfileChange, live: LiveList, how: SingleChange): Promise<boolean> {
  const { plan } = change;
  const output = changeOutput(ctx.term, how.format);
  printPlan(ctx, plan, output);
  let applied = false;
  if (change.body === null) ctx.term.info(how.say.inSync());
  else if (how.dryRun) ctx.term.info(how.say.dryRun(plan));
  else {
    await confirmRemoval(ctx, [{ profile: change.profile, names: plan.delete }], { yes: how.yes, json: output.forScripts });
    await sendChange(ctx, client, change, how.operation, live, how.send);
    applied = true;
    ctx.term.success(how.say.applied(plan));
  }
  await printChangeJson(output, change.profile, plan, applied, how.json);
  return applied;
}

/** The --json line of a change: `{"profile":..,"add":[..],"delete":[..],"applied":..}` (and the command's own fields). */
export function printChangeJson(output: StagedOutput<() => unknown>, profile: string, plan: SyncPlan, applied: boolean, more?: Record<string, unknown>): Promise<void> {
  return output.end(() => ({ profile, ...more, add: plan.add, delete: plan.delete, applied }));
}

/** `--exit-code`: 8 when anything differed (found with --dry-run, or applied). */
export function differencesExit(change: ProfileChange, applied: boolean, exitCode: boolean | undefined): void {
  if (exitCode && change.body !== null) throw new DifferencesFound(applied ? 'differences applied' : 'differences found');
}

/** A request of replace, delete or modify, planned against the list read just before it is sent. */
export interface OwnRequest<T> {
  profile: string;
  operation: 'replace' | 'delete' | 'modify';
  /** What the request does to the list read. */
  plan(live: LiveList): RequestPlan;
  /** Read first, refuse a result that would be empty (unless allowEmpty), keep the list read (unless keep is false). */
  guard: { refuseEmpty: boolean; allowEmpty?: boolean; keep: boolean } | undefined;
  ask: AskOptions;
  /**
   * The read, riding out a pending change as --wait says; `pending`: the request just met one, to be waited
   * out (with its back-off and its lines) before the list is read again.
   */
  read(pending?: PendingError): Promise<LiveList>;
  /**
   * The one request. `ride`: wait out a pending change here (nothing was read first); otherwise a pending
   * answer is ridden out by reading again (when `waiting`).
   */
  send(ride: boolean): Promise<T>;
  waiting: boolean;
  /** How many names the request deletes (for the notice of those the list does not hold). */
  named: number;
}

/**
 * Reads the list (when a guard or a question needs it), plans, refuses an emptied list, says which names to
 * delete the list does not hold, asks at a terminal, keeps the list read, and sends. A pending answer to the
 * request under --wait starts over from the read: the guard, the question and the version kept are always
 * those of the list read after the wait, just before the change (contract section 13).
 */
export async function sendOwnRequest<T>(ctx: CommandContext, request: OwnRequest<T>): Promise<T> {
  const asks = asksFirst(ctx, request.ask);
  if (request.guard === undefined && !asks) return request.send(true);
  const agreed: { names?: Set<string>; told?: boolean } = {};
  let pending: PendingError | undefined;
  for (;;) {
    const live = await request.read(pending);
    // replace plans only to ask: a list read only to be kept is not diffed.
    if (request.guard?.refuseEmpty || asks) await judge(ctx, request, live, agreed);
    if (request.guard?.keep) await keepBefore(ctx, request.profile, request.operation, liveNames(live));
    try {
      return await request.send(false);
    } catch (error) {
      if (!(error instanceof PendingError) || !request.waiting) throw error;
      pending = error;
    }
  }
}

/** The guard, the notice of names not in the list (once) and the question, on the plan of the list read. */
async function judge<T>(ctx: CommandContext, request: OwnRequest<T>, live: LiveList, agreed: { names?: Set<string>; told?: boolean }): Promise<void> {
  const { profile, guard } = request;
  const { plan, absent, emptied } = request.plan(live);
  if (guard?.refuseEmpty) refuseEmptied(request.operation, profile, emptied, guard.allowEmpty);
  if (!agreed.told) sayAbsent(ctx, absent, request.named);
  agreed.told = true;
  // Asked again only when the list read after a wait would lose a name not yet agreed to.
  if (agreed.names === undefined || plan.delete.some((name) => !agreed.names!.has(name))) {
    await confirmRemoval(ctx, [{ profile, names: plan.delete }], request.ask);
    agreed.names = new Set(plan.delete);
  }
}

/** A delete or modify that would leave the list empty: exit 2 unless --allow-empty (a rehearsal too). */
export function refuseEmptied(operation: string, profile: string, emptied: boolean, allowEmpty: boolean | undefined): void {
  if (!emptied || allowEmpty) return;
  throw new UsageError(`refusing to ${operation} every bucket of ${profile}: the list would be empty; nothing was sent`, {
    hint: 'Pass --allow-empty if that is what you want.',
  });
}

/** `2 of 3 names were not in the list: …` on stderr: a delete of them is no change, and no error. */
export function sayAbsent(ctx: CommandContext, absent: readonly string[], named: number): void {
  if (absent.length === 0) return;
  const shown = absent.slice(0, 20).join(', ') + (absent.length > 20 ? `, … and ${absent.length - 20} more` : '');
  ctx.term.info(`${absent.length} of ${named} name${named === 1 ? '' : 's'} ${absent.length === 1 ? 'was' : 'were'} not in the list: ${shown}`);
}
