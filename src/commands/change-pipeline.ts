// The CLI's side of changing a list to a desired one (sync and restore; apply's is commands/apply): diff the
// live list against the desired one, check the body (wire-safe names, the 8 MiB limit) before anything is
// printed, print the plan, stop for --dry-run, ask, then the library's sendModify (keep the live list, send
// one modifyBucketList), report it (--json) and pick the exit code. Each command keeps only what is its own:
// where the desired list comes from and how it words the outcome. replace, delete and modify send their own
// request through the library's guard (library/guard.ts), with this file's notice and question (removalReview).
import { DifferencesFound } from '../errors.js';
import { isInSync, planSync, type LiveList, type SyncPlan } from '../core/diff.js';
import { sendModify, type GuardedChange } from '../library/guard.js';
import type { NameSet } from '../core/name-set.js';
import { planLinePieces } from '../core/plan.js';
import { changeOutput, type StagedOutput } from '../output/writers.js';
import type { FormatOf } from '../output/formats.js';
import { modifyBody } from '../core/wire.js';
import type { ScpClient } from '../api/client.js';
import type { CommandContext } from './context.js';
import { planStyle } from './plan-style.js';
import { asksFirst, confirmRemoval, type AskOptions } from './confirm-removal.js';

/** `+ name` / `- name` on stdout: whole when piped; coloured and cut to 50 of each on a terminal. */
export function printPlan(ctx: CommandContext, plan: SyncPlan, output: StagedOutput<() => unknown>): void {
  // The names added passed the input's token check; a token could only be among the live names deleted.
  // In pieces: the lines of 800,000 names, joined and masked whole, were three copies of them.
  output.lines(() => planLinePieces(plan, planStyle(ctx)));
}

export interface SingleChange {
  operation: 'sync' | 'restore';
  format: FormatOf<'change'>;
  dryRun?: boolean;
  exitCode?: boolean;
  /** More fields of the --json line (restore names its version). */
  json?: Record<string, unknown>;
  /** What stderr says: the list already is the desired one, a dry run's count, the change applied. */
  say: { inSync(): string; dryRun(plan: SyncPlan): string; applied(plan: SyncPlan): string };
  /** Rides out a pending change as the command waits (a spinner, or a line each try). */
  send: <T>(action: () => Promise<T>) => Promise<T>;
  /** -y and the output format: whether to ask before names are removed. */
  yes?: boolean;
  /** Runs once the change is applied, before --exit-code (sync --verify). */
  afterApplied?: () => Promise<void>;
}

/**
 * sync and restore: the diff of `live` and `desired`, checked (a name that cannot be sent, a list over
 * 8 MiB stop it here, nothing printed or sent); the plan, then nothing (in sync, --dry-run) or the change
 * (the live list kept, then the one modify); --json; --exit-code.
 */
export async function runSingleChange(
  ctx: CommandContext,
  client: ScpClient,
  profile: string,
  live: LiveList,
  desired: readonly string[] | NameSet,
  how: SingleChange,
): Promise<void> {
  const plan = planSync(live, desired);
  const body = isInSync(plan) ? null : modifyBody(plan.add, plan.delete);
  const output = changeOutput(ctx.term, how.format);
  printPlan(ctx, plan, output);
  let applied = false;
  if (body === null) ctx.term.info(how.say.inSync());
  else if (how.dryRun) ctx.term.info(how.say.dryRun(plan));
  else {
    await confirmRemoval(ctx, [{ profile, names: plan.delete }], { yes: how.yes, json: output.forScripts });
    await sendModify(ctx.session(), client, { profile, operation: how.operation, live, body }, how.send, (line) => ctx.term.debug(line));
    applied = true;
    ctx.term.success(how.say.applied(plan));
  }
  await printChangeJson(output, profile, plan, applied, how.json);
  if (applied) await how.afterApplied?.();
  if (how.exitCode && body !== null) throw new DifferencesFound(applied ? 'differences applied' : 'differences found');
}

/** The --json line of a change: `{"profile":..,"add":[..],"delete":[..],"applied":..}` (and the command's own fields). */
export function printChangeJson(output: StagedOutput<() => unknown>, profile: string, plan: SyncPlan, applied: boolean, more?: Record<string, unknown>): Promise<void> {
  return output.end(() => ({ profile, ...more, add: plan.add, delete: plan.delete, applied }));
}

/**
 * The CLI's part in the library's guarded change (library/guard.ts: read, refuse an emptied list, keep,
 * send, start over after a pending answer under --wait), on the plan of each list read: the notice of names
 * to delete the list does not hold (once), and the question at a terminal (again only when the list read
 * after a wait would lose a name not yet agreed to).
 */
export function removalReview(ctx: CommandContext, request: { profile: string; named: number; ask: AskOptions }): GuardedChange<unknown>['review'] {
  let told = false;
  let agreed: Set<string> | undefined;
  return {
    judge: asksFirst(ctx, request.ask),
    run: async ({ plan, absent }) => {
      if (!told) sayAbsent(ctx, absent, request.named);
      told = true;
      if (agreed === undefined || plan.delete.some((name) => !agreed!.has(name))) {
        await confirmRemoval(ctx, [{ profile: request.profile, names: plan.delete }], request.ask);
        agreed = new Set(plan.delete);
      }
    },
  };
}

/** `2 of 3 names were not in the list: …` on stderr: a delete of them is no change, and no error. */
export function sayAbsent(ctx: CommandContext, absent: readonly string[], named: number): void {
  if (absent.length === 0) return;
  const shown = absent.slice(0, 20).join(', ') + (absent.length > 20 ? `, … and ${absent.length - 20} more` : '');
  ctx.term.info(`${absent.length} of ${named} name${named === 1 ? '' : 's'} ${absent.length === 1 ? 'was' : 'were'} not in the list: ${shown}`);
}
