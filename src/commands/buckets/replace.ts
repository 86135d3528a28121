import { UsageError } from '../../errors.js';
import { bodyBytes } from '../../core/wire.js';
import type { CommandContext } from '../context.js';
import { checkProfileName, mutationFormat, parseWait, sendMutation, withWait, type BucketOptions } from './common.js';
import { collectNames } from './input.js';
import { historyWanted, keepBefore } from '../keep-history.js';

/** `buckets replace`: the whole list becomes the names given; an empty list needs --allow-empty. */
export async function replace(ctx: CommandContext, profile: string, args: string[], options: BucketOptions & { history?: boolean }): Promise<void> {
  checkProfileName(profile);
  const wait = parseWait(options.wait);
  const format = mutationFormat(ctx, 'replace');
  const { names } = await collectNames(ctx, { args, files: options.file ?? [], stdinFallback: true, literal: options.literal }, options.validate !== false);
  if (names.size === 0 && !options.allowEmpty) {
    throw new UsageError(`refusing to replace the list of ${profile} with an empty list: that would remove every bucket`, {
      hint: 'Pass --allow-empty if that is what you want.',
    });
  }
  const body = bodyBytes([['list', names]]); // the 8 MiB check, before the history read costs a request
  if (!options.dryRun && options.history !== false && historyWanted(ctx)) {
    const client = await ctx.client();
    await keepBefore(ctx, profile, 'replace', await withWait(ctx, profile, wait, () => client.viewBuckets(profile)));
  }
  await sendMutation(ctx, profile, 'replaceBucketList', body, { list: names }, { format, wait, dryRun: options.dryRun });
}
