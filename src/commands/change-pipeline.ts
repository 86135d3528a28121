// The one way a list is changed to a desired one (sync, restore and apply, like Terraform's plan and apply):
// diff the live list against the desired one, check the body (wire-safe names, the 8 MiB limit) before
// anything is printed, print the plan, stop for --dry-run, keep the live list in the history, send one
// modifyBucketList, report it (--json) and pick the exit code. Each command keeps only what is its own:
// where the desired list comes from and how it words the outcome.
import { DifferencesFound } from '../errors.js';
import { isInSync, isSeparated, planSync, type LiveList, type SyncPlan } from '../core/diff.js';
import type { NameSet } from '../core/name-set.js';
import { planLinePieces } from '../core/plan.js';
import { safeJson } from '../core/service-text.js';
import { modifyBody, type ListJson } from '../core/wire.js';
import type { ScpClient } from '../api/client.js';
import type { CommandContext } from './context.js';
import { keepBefore } from './keep-history.js';
import { planStyle } from './plan-style.js';

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
export function printPlan(ctx: CommandContext, plan: SyncPlan): void {
  // The names added passed the input's token check; a token could only be among the live names deleted.
  // In pieces: the lines of 800,000 names, joined and masked whole, were three copies of them.
  for (const piece of planLinePieces(plan, planStyle(ctx))) ctx.term.out(ctx.term.redact(piece));
}

export interface SingleChange {
  operation: Exclude<ChangeOperation, 'apply'>;
  format: 'table' | 'text' | 'json';
  dryRun?: boolean;
  exitCode?: boolean;
  /** More fields of the --json line (restore names its version). */
  json?: Record<string, unknown>;
  /** What stderr says: the list already is the desired one, a dry run's count, the change applied. */
  say: { inSync(): string; dryRun(plan: SyncPlan): string; applied(plan: SyncPlan): string };
  send: <T>(action: () => Promise<T>) => Promise<T>;
}

/** sync and restore: the plan, then nothing (in sync, --dry-run) or the change; --json; --exit-code. Returns whether it was applied. */
export async function runSingleChange(ctx: CommandContext, client: ScpClient, change: ProfileChange, live: LiveList, how: SingleChange): Promise<boolean> {
  const { plan } = change;
  if (how.format !== 'json') printPlan(ctx, plan);
  let applied = false;
  if (change.body === null) ctx.term.info(how.say.inSync());
  else if (how.dryRun) ctx.term.info(how.say.dryRun(plan));
  else {
    await sendChange(ctx, client, change, how.operation, live, how.send);
    applied = true;
    ctx.term.success(how.say.applied(plan));
  }
  if (how.format === 'json') {
    ctx.term.out(ctx.term.redact(safeJson({ profile: change.profile, ...how.json, add: plan.add, delete: plan.delete, applied }) + '\n'));
  }
  return applied;
}

/** `--exit-code`: 8 when anything differed (found with --dry-run, or applied). */
export function differencesExit(change: ProfileChange, applied: boolean, exitCode: boolean | undefined): void {
  if (exitCode && change.body !== null) throw new DifferencesFound(applied ? 'differences applied' : 'differences found');
}
