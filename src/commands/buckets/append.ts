import { UsageError } from '../../errors.js';
import { bodyBytes } from '../../core/wire.js';
import type { CommandContext } from '../context.js';
import { planDeletion } from '../../core/diff.js';
import { beginMutation, sendMutation, type BucketOptions, type MutationPlan } from './common.js';
import { collectNames } from './input.js';

/**
 * `buckets append|delete`: names in, one request out; an empty list has nothing to send. `delete` reads the
 * list first (the change pipeline): emptying it needs --allow-empty, the list read is kept in the history,
 * and at a terminal it asks before removing.
 */
export async function appendOrDelete(
  ctx: CommandContext,
  op: 'appendToBucketList' | 'deleteFromBucketList',
  profile: string,
  args: string[],
  options: BucketOptions,
): Promise<void> {
  const how = beginMutation(ctx, profile, options);
  const { names } = await collectNames(ctx, { args, files: options.file ?? [], stdinFallback: true, literal: options.literal }, options.validate !== false);
  if (names.size === 0) throw new UsageError('no bucket names in the input: nothing to send');
  const body = bodyBytes([['list', names]]); // the 8 MiB check, before the read costs a request
  const planned: MutationPlan | undefined =
    op === 'deleteFromBucketList' ? { operation: 'delete', plan: (live) => planDeletion(live, names), refuseEmpty: true, named: names.size } : undefined;
  await sendMutation(ctx, profile, op, body, { list: names }, { ...how, planned });
}

export function append(ctx: CommandContext, profile: string, args: string[], options: BucketOptions): Promise<void> {
  return appendOrDelete(ctx, 'appendToBucketList', profile, args, options);
}
