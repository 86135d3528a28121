import { UsageError } from '../../errors.js';
import { bodyBytes } from '../../core/wire.js';
import { planSync } from '../../core/diff.js';
import type { CommandContext } from '../context.js';
import { beginMutation, sendMutation, type BucketOptions, type MutationPlan } from './common.js';
import { collectNames } from './input.js';

/**
 * `buckets replace`: the whole list becomes the names given; an empty list needs --allow-empty. The list is
 * read first and kept (unless --no-history), and at a terminal what the names given leave out is asked about
 * first (`replace finance old new` read as a swap would remove every other name).
 */
export async function replace(ctx: CommandContext, profile: string, args: string[], options: BucketOptions): Promise<void> {
  const how = beginMutation(ctx, profile, options);
  const { names } = await collectNames(ctx, { args, files: options.file ?? [], stdinFallback: true, literal: options.literal }, options.validate !== false);
  if (names.size === 0 && !options.allowEmpty) {
    throw new UsageError(`refusing to replace the list of ${profile} with an empty list: that would remove every bucket`, {
      hint: 'Pass --allow-empty if that is what you want.',
    });
  }
  // The 8 MiB check, before the history read costs a request: refused input sends nothing (contract section 3),
  // which is why the read does not start while the names are read, though the service would answer meanwhile.
  const body = bodyBytes([['list', names]]);
  const planned: MutationPlan = { operation: 'replace', plan: (live) => ({ plan: planSync(live, names), absent: [], emptied: false }), refuseEmpty: false, named: 0 };
  await sendMutation(ctx, profile, 'replaceBucketList', body, { list: names }, { ...how, planned });
}
