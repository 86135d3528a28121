import type { CommandContext } from '../context.js';
import { safeJson, visibleLineBytes, visibleLines } from '../../core/service-text.js';
import { bucketsFor, checkProfileName, parseWait } from './common.js';
import { OUTPUT_FORMATS } from '../output-formats.js';

const NEWLINE = Buffer.from('\n');

/** `buckets view`: the library's read (one BucketList), shown as a table on a terminal, one name a line when piped, or a JSON object. */
export async function view(ctx: CommandContext, profile: string, options: { wait?: boolean | string }): Promise<void> {
  checkProfileName(profile, ctx.knownTokens());
  const wait = parseWait(options.wait);
  const format = ctx.outputFormat(OUTPUT_FORMATS['buckets view'], 'table', 'text');
  const list = await bucketsFor(ctx).view(profile, { wait });
  if (format === 'json') {
    const names = list.names();
    ctx.term.out(safeJson({ profile, count: names.length, buckets: names }) + '\n');
    return;
  }
  // One name a line straight from the answer where the list is plain: the usual list never becomes 400,000
  // strings. Names from the service are shown, never obeyed: a control character in one is written as an escape.
  const lines = list.lineForm();
  if (format === 'text') {
    const text = Buffer.isBuffer(lines) ? visibleLineBytes(lines) : Buffer.from(visibleLines(lines));
    if (lines.length > 0) ctx.term.out(Buffer.concat([text, NEWLINE]));
    return;
  }
  // The table is drawn from the answer's bytes too where the names are plain (output/bucket-table.ts).
  const { renderBucketTable } = await import('../../output/bucket-table.js');
  await ctx.term.page(await renderBucketTable(profile, lines, ctx.term.tableWidth, ctx.term.paint, ctx.term.mask));
}
