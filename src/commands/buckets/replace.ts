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
  // The 8 MiB check, before the history read costs a request: refused input sends nothing (contract section 3),
  // which is why the read does not start while the names are read, though the service would answer meanwhile.
  const body = bodyBytes([['list', names]]);
  if (!options.dryRun && options.history !== false && historyWanted(ctx)) {
    const client = await ctx.client();
    // The answer's own JSON text of the names where it serves: kept without a string made for each name.
    await keepBefore(ctx, profile, 'replace', await withWait(ctx, profile, wait, () => client.viewBucketListJson(profile)));
  }
  await sendMutation(ctx, profile, 'replaceBucketList', body, { list: names }, { format, wait, dryRun: options.dryRun });
}
