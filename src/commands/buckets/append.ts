import { UsageError } from '../../errors.js';
import { bodyBytes } from '../../core/wire.js';
import type { CommandContext } from '../context.js';
import { checkProfileName, guardAndKeep, mutationFormat, parseWait, sendMutation, type BucketOptions } from './common.js';
import { collectNames } from './input.js';

/**
 * `buckets append|delete`: names in, one request out; an empty list has nothing to send. `delete` reads the
 * list first (guardAndKeep): emptying it needs --allow-empty, and the list read is kept in the history.
 */
export async function appendOrDelete(
  ctx: CommandContext,
  op: 'appendToBucketList' | 'deleteFromBucketList',
  profile: string,
  args: string[],
  options: BucketOptions,
): Promise<void> {
  checkProfileName(profile);
  const wait = parseWait(options.wait);
  const format = mutationFormat(ctx, op === 'appendToBucketList' ? 'append' : 'delete');
  const { names } = await collectNames(ctx, { args, files: options.file ?? [], stdinFallback: true, literal: options.literal }, options.validate !== false);
  if (names.size === 0) throw new UsageError('no bucket names in the input: nothing to send');
  const body = bodyBytes([['list', names]]); // the 8 MiB check, before the read costs a request
  if (op === 'deleteFromBucketList') {
    await guardAndKeep(ctx, profile, 'delete', options, wait, (live) => live.every((name) => names.indexOfString(name) >= 0));
  }
  await sendMutation(ctx, profile, op, body, { list: names }, { format, wait, dryRun: options.dryRun });
}

export function append(ctx: CommandContext, profile: string, args: string[], options: BucketOptions): Promise<void> {
  return appendOrDelete(ctx, 'appendToBucketList', profile, args, options);
}
