import type { CommandContext } from '../context.js';
import { checkProfileName, parseWait, withWait } from './common.js';

/** `buckets view`: a table on a terminal, one name a line when piped, or a JSON object. */
export async function view(ctx: CommandContext, profile: string, options: { wait?: boolean | string }): Promise<void> {
  checkProfileName(profile);
  const wait = parseWait(options.wait);
  const format = ctx.outputFormat(['table', 'text', 'json'] as const, 'table', 'text');
  const client = await ctx.client();
  const buckets = await withWait(ctx, profile, wait, () => client.viewBuckets(profile));
  if (format === 'json') {
    ctx.term.out(JSON.stringify({ profile, count: buckets.length, buckets }) + '\n');
  } else if (format === 'text') {
    if (buckets.length > 0) ctx.term.out(buckets.join('\n') + '\n');
  } else {
    const { renderBucketTable } = await import('../../output/bucket-table.js');
    await ctx.term.page(await renderBucketTable(profile, buckets, ctx.term.columns));
  }
}
