// `buckets sync`: the desired list from files, then the change pipeline (change-pipeline.ts); --verify is its own.
import { UsageError, VerificationError } from '../../errors.js';
import { countNames, isInSync, planSync, type SyncPlan } from '../../core/diff.js';
import { DEFAULT_WAIT_SECONDS } from '../../core/wait.js';
import { checkListSize } from '../../core/wire.js';
import type { CommandContext } from '../context.js';
import type { ScpClient } from '../../api/client.js';
import type { NameSet } from '../../core/name-set.js';
import { checkProfileName } from '../../library/buckets.js';
import { refuseEmptyList } from '../../library/guard.js';
import { parseWait, withWait, type BucketOptions } from './common.js';
import { collectNames } from './input.js';
import { runSingleChange } from '../change-pipeline.js';

export interface SyncOptions extends BucketOptions {
  verify?: boolean;
}

/** `buckets sync`: view, diff against the file, and apply the difference with one modify request. */
export async function sync(ctx: CommandContext, profile: string, options: SyncOptions): Promise<void> {
  checkProfileName(profile, ctx.knownTokens());
  const wait = parseWait(options.wait);
  const files = options.file ?? [];
  if (files.length === 0) throw new UsageError('sync needs the desired list: -f FILE (or -f - for standard input)');
  const format = ctx.outputFormat('change');
  const { names: desired } = await collectNames(ctx, { args: [], files, stdinFallback: false }, options.validate !== false);
  refuseEmptyList(desired.size === 0, options.allowEmpty, `the desired list is empty: syncing would remove every bucket of ${profile}`);
  // A desired list no list can hold is refused before the diff makes a string of each of its names.
  checkListSize(desired.byteLength, desired.size, 'list');
  const client = await ctx.client();
  const current = await withWait(ctx, profile, wait, async () => (await client.viewList(profile)).live(), `viewBucketList ${profile}`);
  await runSingleChange(ctx, client, profile, current, desired, {
    operation: 'sync',
    format,
    dryRun: options.dryRun,
    say: {
      inSync: () => {
        const count = countNames(current);
        return `${profile} is in sync (${count} bucket${count === 1 ? '' : 's'}): nothing to change`;
      },
      dryRun: (plan) => `dry run: ${plan.add.length} to add, ${plan.delete.length} to delete in ${profile}; nothing sent`,
      applied: (plan) => `modifyBucketList ${profile}: ${plan.add.length} added, ${plan.delete.length} deleted`,
    },
    send: (action) => withWait(ctx, profile, wait, action, `modifyBucketList ${profile}`),
    yes: options.yes,
    exitCode: options.exitCode,
    afterApplied: options.verify ? () => verify(ctx, client, profile, desired, wait) : undefined,
  });
}

/** `--verify`: the list read again after the change holds exactly the desired names. */
async function verify(ctx: CommandContext, client: ScpClient, profile: string, desired: NameSet, wait: number | undefined): Promise<void> {
  const after = await withWait(ctx, profile, wait ?? DEFAULT_WAIT_SECONDS, async () => (await client.viewList(profile)).live());
  const drift = planSync(after, desired);
  if (!isInSync(drift)) {
    throw new VerificationError(
      `verify: ${profile} does not match after the sync: ${describeDrift(drift)}`,
      { hint: 'Someone else may have changed the list at the same time; run the sync again.' },
    );
  }
  ctx.term.success(`verified: ${profile} holds exactly the ${desired.size} names of the file`);
}

function describeDrift(drift: SyncPlan): string {
  const parts: string[] = [];
  const sample = (names: string[]): string => names.slice(0, 5).join(', ') + (names.length > 5 ? `, … (${names.length} in all)` : '');
  if (drift.add.length > 0) parts.push(`missing ${sample(drift.add)}`);
  if (drift.delete.length > 0) parts.push(`unexpected ${sample(drift.delete)}`);
  return parts.join('; ');
}
