import type { CommandContext } from '../context.js';
import { writeBucketList } from '../../output/writers.js';
import { checkProfileName } from '../../library/buckets.js';
import { bucketsFor, parseWait } from './common.js';

/** `buckets view`: the library's read (one BucketList), shown as a table on a terminal, one name a line when piped, or a JSON object. */
export async function view(ctx: CommandContext, profile: string, options: { wait?: boolean | string }): Promise<void> {
  checkProfileName(profile, ctx.knownTokens());
  const wait = parseWait(options.wait);
  const format = ctx.outputFormat('bucketList');
  const list = await bucketsFor(ctx).view(profile, { wait });
  // One read (a BucketList); each format takes the shape it draws from: lines (bytes where the list is plain) or names.
  await writeBucketList(ctx.term, format, { profile, lines: async () => list.lineForm(), names: async () => list.names() });
}
