import type { CommandContext } from '../context.js';
import { writeBucketList } from '../../output/writers.js';
import { checkProfileName, parseWait, withWait } from './common.js';

/** `buckets view`: a table on a terminal, one name a line when piped, or a JSON object. */
export async function view(ctx: CommandContext, profile: string, options: { wait?: boolean | string }): Promise<void> {
  checkProfileName(profile, ctx.knownTokens());
  const wait = parseWait(options.wait);
  const format = ctx.outputFormat('bucketList');
  const client = await ctx.client();
  await writeBucketList(ctx.term, format, {
    profile,
    lines: () => withWait(ctx, profile, wait, () => client.viewBucketLines(profile), `viewBucketList ${profile}`),
    names: () => withWait(ctx, profile, wait, () => client.viewBuckets(profile), `viewBucketList ${profile}`),
  });
}
