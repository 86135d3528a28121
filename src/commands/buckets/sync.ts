import { DifferencesFound, UsageError, VerificationError } from '../../errors.js';
import { countNames, isInSync, planSync, type SyncPlan } from '../../core/diff.js';
import { modifyBody } from '../../core/wire.js';
import { DEFAULT_WAIT_SECONDS } from '../../core/wait.js';
import type { CommandContext } from '../context.js';
import { safeJson } from '../../core/service-text.js';
import { planLines } from '../../core/plan.js';
import { planStyle } from '../plan-style.js';
import { checkProfileName, parseWait, withWait, type BucketOptions } from './common.js';
import { collectNames } from './input.js';
import { keepBefore } from '../keep-history.js';
import { OUTPUT_FORMATS } from '../output-formats.js';

export interface SyncOptions extends BucketOptions {
  dryRun?: boolean;
  exitCode?: boolean;
  verify?: boolean;
}

/** `buckets sync`: view, diff against the file, and apply the difference with one modify request. */
export async function sync(ctx: CommandContext, profile: string, options: SyncOptions): Promise<void> {
  checkProfileName(profile);
  const wait = parseWait(options.wait);
  const files = options.file ?? [];
  if (files.length === 0) throw new UsageError('sync needs the desired list: -f FILE (or -f - for standard input)');
  const format = ctx.outputFormat(OUTPUT_FORMATS['buckets sync'], 'table', 'text');
  const { names: desired } = await collectNames(ctx, { args: [], files, stdinFallback: false }, options.validate !== false);
  if (desired.size === 0 && !options.allowEmpty) {
    throw new UsageError(`the desired list is empty: syncing would remove every bucket of ${profile}`, {
      hint: 'Pass --allow-empty if that is what you want.',
    });
  }
  const client = await ctx.client();
  const current = await withWait(ctx, profile, wait, () => client.viewBucketLines(profile), `viewBucketList ${profile}`);
  const plan = planSync(current, desired);
  const body = isInSync(plan) ? null : modifyBody(plan.add, plan.delete); // checks the 8 MiB limit before printing

  if (format !== 'json') printPlan(ctx, plan);
  let applied = false;
  if (body === null) {
    const count = countNames(current);
    ctx.term.info(`${profile} is in sync (${count} bucket${count === 1 ? '' : 's'}): nothing to change`);
  } else if (options.dryRun) {
    ctx.term.info(`dry run: ${plan.add.length} to add, ${plan.delete.length} to delete in ${profile}; nothing sent`);
  } else {
    await keepBefore(ctx, profile, 'sync', Buffer.isBuffer(current) ? current.toString('utf8').split('\n') : current);
    await withWait(ctx, profile, wait, () => client.bucketOp(profile, 'modifyBucketList', body), `modifyBucketList ${profile}`);
    applied = true;
    ctx.term.success(`modifyBucketList ${profile}: ${plan.add.length} added, ${plan.delete.length} deleted`);
  }
  if (format === 'json') ctx.term.out(ctx.term.redact(safeJson({ profile, add: plan.add, delete: plan.delete, applied }) + '\n'));

  if (applied && options.verify) {
    const after = await withWait(ctx, profile, wait ?? DEFAULT_WAIT_SECONDS, () => client.viewBucketLines(profile));
    const drift = planSync(after, desired);
    if (!isInSync(drift)) {
      throw new VerificationError(
        `verify: ${profile} does not match after the sync: ${describeDrift(drift)}`,
        { hint: 'Someone else may have changed the list at the same time; run the sync again.' },
      );
    }
    ctx.term.success(`verified: ${profile} holds exactly the ${desired.size} names of the file`);
  }
  if (options.exitCode && body !== null) {
    throw new DifferencesFound(applied ? 'differences applied' : 'differences found');
  }
}

function describeDrift(drift: SyncPlan): string {
  const parts: string[] = [];
  const sample = (names: string[]): string => names.slice(0, 5).join(', ') + (names.length > 5 ? `, … (${names.length} in all)` : '');
  if (drift.add.length > 0) parts.push(`missing ${sample(drift.add)}`);
  if (drift.delete.length > 0) parts.push(`unexpected ${sample(drift.delete)}`);
  return parts.join('; ');
}

/** `+ name` / `- name` on stdout: whole when piped; coloured and cut to 50 of each on a terminal. */
export function printPlan(ctx: CommandContext, plan: SyncPlan): void {
  const lines = planLines(plan, planStyle(ctx));
  // The names added passed the input's token check; a token could only be among the live names deleted.
  if (lines.length > 0) ctx.term.out(ctx.term.redact(lines.join('\n') + '\n'));
}
