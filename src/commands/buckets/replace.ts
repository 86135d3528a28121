import { UsageError } from '../../errors.js';
import { bodyBytes } from '../../core/wire.js';
import type { CommandContext } from '../context.js';
import { checkProfileName, parseWait, sendMutation, type BucketOptions } from './common.js';
import { collectNames } from './input.js';

/** `buckets replace`: the whole list becomes the names given; an empty list needs --allow-empty. */
export async function replace(ctx: CommandContext, profile: string, args: string[], options: BucketOptions): Promise<void> {
  checkProfileName(profile);
  const wait = parseWait(options.wait);
  const { names } = await collectNames(ctx, { args, files: options.file ?? [], stdinFallback: true }, options.validate !== false);
  if (names.size === 0 && !options.allowEmpty) {
    throw new UsageError(`refusing to replace the list of ${profile} with an empty list: that would remove every bucket`, {
      hint: 'Pass --allow-empty if that is what you want.',
    });
  }
  await sendMutation(ctx, profile, 'replaceBucketList', bodyBytes([['list', names]]), { list: names }, wait);
}
