import type { CommandContext } from '../context.js';
import { safeJson, visibleLineBytes, visibleLines } from '../../core/service-text.js';
import { checkProfileName, parseWait, withWait } from './common.js';

const NEWLINE = Buffer.from('\n');

/** `buckets view`: a table on a terminal, one name a line when piped, or a JSON object. */
export async function view(ctx: CommandContext, profile: string, options: { wait?: boolean | string }): Promise<void> {
  checkProfileName(profile, ctx.knownTokens());
  const wait = parseWait(options.wait);
  const format = ctx.outputFormat('bucketList');
  const client = await ctx.client();
  if (format === 'text') {
    // One name a line straight from the answer: the usual list never becomes 400,000 strings. Names from
    // the service are shown, never obeyed: a control character in one is written as an escape.
    const lines = await withWait(ctx, profile, wait, () => client.viewBucketLines(profile), `viewBucketList ${profile}`);
    const text = Buffer.isBuffer(lines) ? visibleLineBytes(lines) : Buffer.from(visibleLines(lines));
    if (lines.length > 0) ctx.term.out(Buffer.concat([text, NEWLINE]));
    return;
  }
  if (format === 'json') {
    const buckets = await withWait(ctx, profile, wait, () => client.viewBuckets(profile), `viewBucketList ${profile}`);
    ctx.term.out(safeJson({ profile, count: buckets.length, buckets }) + '\n');
  } else {
    // The table is drawn from the answer's bytes too where the names are plain (output/bucket-table.ts).
    const lines = await withWait(ctx, profile, wait, () => client.viewBucketLines(profile), `viewBucketList ${profile}`);
    const { renderBucketTable } = await import('../../output/bucket-table.js');
    await ctx.term.page(await renderBucketTable(profile, lines, ctx.term.tableWidth, ctx.term.paint, ctx.term.mask));
  }
}
