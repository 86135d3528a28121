import type { CommandContext } from '../context.js';
import { safeJson, visibleLines } from '../../core/service-text.js';
import { checkProfileName, parseWait, withWait } from './common.js';
import { OUTPUT_FORMATS } from '../output-formats.js';

/** `buckets view`: a table on a terminal, one name a line when piped, or a JSON object. */
export async function view(ctx: CommandContext, profile: string, options: { wait?: boolean | string }): Promise<void> {
  checkProfileName(profile);
  const wait = parseWait(options.wait);
  const format = ctx.outputFormat(OUTPUT_FORMATS['buckets view'], 'table', 'text');
  const client = await ctx.client();
  const buckets = await withWait(ctx, profile, wait, () => client.viewBuckets(profile), `viewBucketList ${profile}`);
  if (format === 'json') {
    ctx.term.out(safeJson({ profile, count: buckets.length, buckets }) + '\n');
  } else if (format === 'text') {
    if (buckets.length > 0) ctx.term.out(visibleLines(buckets) + '\n');
  } else {
    const { renderBucketTable } = await import('../../output/bucket-table.js');
    ctx.term.out(await renderBucketTable(profile, buckets, ctx.term.columns));
  }
}
