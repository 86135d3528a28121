// `report`: check the flags, send one request (or page through with --all), print the records.
//
// Formats: a table on a terminal, a JSON array when piped, or -o table|json|ndjson|csv.
// - `--chart` draws bars under the table. Without -o it means the table, even when piped; with -o json,
//   ndjson or csv it is a usage error, since the chart is for reading and those formats are for programs.
// - `--all` streams json, ndjson and csv page by page, holding one page at a time. A table needs every record
//   to size its columns, so `--all` with the table collects all pages first and prints at the end (use
//   -o ndjson or -o csv for big exports).
// - When a page fails after its retries, or on Ctrl-C, the output so far is closed on a whole record (the JSON
//   array gets its `]`) and stderr says how many records were written and the --skip to resume from.
import { onInterruptCleanup } from '../interrupt.js';
import { ResponseError, ScpctlError, UsageError } from '../errors.js';
import type { ScpClient } from '../api/client.js';
import { MAX_LIMIT, buildReportQuery, requestParams, type ReportFlags, type ReportQuery } from '../core/report-query.js';
import { CsvWriter } from '../output/csv.js';
import { JsonArrayWriter, NdjsonWriter, columnsOf, type RecordWriter, type ReportRecord } from '../output/records.js';
import { releasePageMemory } from '../output/page-memory.js';
import type { CommandContext } from './context.js';

export interface ReportOptions extends ReportFlags {
  all?: boolean;
  chart?: boolean;
}

const FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
type ReportFormat = (typeof FORMATS)[number];

export async function report(ctx: CommandContext, options: ReportOptions): Promise<void> {
  const chart = Boolean(options.chart);
  const query = buildReportQuery(options, Math.floor(Date.now() / 1000));
  const format = reportFormat(ctx, chart);
  const client = await ctx.client();
  for (const note of query.notes) ctx.term.info(note);
  if (options.all) return reportAll(ctx, client, query, format, chart);

  const records = await client.report(requestParams(query));
  if (format === 'table') await printTable(ctx, records, chart);
  else ctx.term.out(writeAll(writerFor(ctx, format), records));
  if (query.limit === undefined && records.length >= MAX_LIMIT) {
    ctx.term.info(`${records.length} records, the most one request returns; for the rest add --all, or --skip ${(query.skip ?? 0) + records.length}`);
  }
}

/** The format asked for; `--chart` alone means the table. */
function reportFormat(ctx: CommandContext, chart: boolean): ReportFormat {
  if (chart && !ctx.options.json && ctx.options.output === undefined) return 'table';
  const format = ctx.outputFormat(FORMATS, 'table', 'json');
  if (chart && format !== 'table') {
    throw new UsageError(`--chart draws under the table and cannot go with -o ${format}`, {
      hint: 'Drop -o (or use -o table) to see the chart, or drop --chart.',
    });
  }
  return format;
}

/** Pages through every record, streaming each page as it comes (or collecting them for a table). */
async function reportAll(ctx: CommandContext, client: ScpClient, query: ReportQuery, format: ReportFormat, chart: boolean): Promise<void> {
  const pageSize = query.limit ?? MAX_LIMIT;
  const firstSkip = query.skip ?? 0;
  const collected: ReportRecord[] | undefined = format === 'table' ? [] : undefined;
  const writer = format === 'table' ? undefined : writerFor(ctx, format);
  // A spinner beside records streaming to the same terminal would garble both.
  const spinner = ctx.term.stdoutIsTTY && !collected ? undefined : ctx.term.spinner('fetching records');
  let written = 0;
  let pages = 0;
  const resume = (): string => `wrote ${written} records; resume with --skip ${firstSkip + written}`;
  const forgetCleanup = onInterruptCleanup(() => {
    spinner?.stop();
    if (!writer) return;
    ctx.term.out(writer.end());
    if (written > 0) ctx.term.error(resume());
  });

  try {
    for await (const page of reportPages(client, query, pageSize, firstSkip)) {
      pages++;
      if (collected) for (const record of page) collected.push(record);
      else ctx.term.out(writer!.page(page));
      written += page.length;
      if (writer) releasePageMemory();
      spinner?.update(`${written} records so far (page ${pages})`);
    }
  } catch (error) {
    spinner?.stop();
    forgetCleanup();
    if (writer) ctx.term.out(writer.end());
    if (collected && collected.length > 0) await printTable(ctx, collected, chart);
    if (written > 0) addResumeHint(ctx, error, resume());
    throw error;
  }
  forgetCleanup();
  if (writer) ctx.term.out(writer.end());
  // The spinner is done before a table is drawn, so that it cannot redraw over it.
  const summary = `${written} record${written === 1 ? '' : 's'} in ${pages} page${pages === 1 ? '' : 's'}`;
  if (spinner) spinner.succeed(summary);
  else ctx.term.info(`✔ ${summary}`);
  if (collected) await printTable(ctx, collected, chart);
}

/** The pages from `firstSkip` on, until one comes back shorter than the page size. */
async function* reportPages(client: ScpClient, query: ReportQuery, pageSize: number, firstSkip: number): AsyncGenerator<ReportRecord[]> {
  let previous: string | undefined;
  for (let skip = firstSkip; ; ) {
    const page = await client.report(requestParams(query, { limit: pageSize, skip }));
    previous = checkPage(page, pageSize, skip, previous);
    yield page;
    if (page.length < pageSize) return;
    skip += page.length;
  }
}

/**
 * Refuses a page that would make paging go wrong: more records than asked for, or the same page again
 * (a service that ignores skip would otherwise be paged forever). Returns the page's fingerprint.
 */
function checkPage(page: readonly ReportRecord[], pageSize: number, skip: number, previous: string | undefined): string {
  if (page.length > pageSize) {
    throw new ResponseError(`the service sent ${page.length} records for limit ${pageSize} (at --skip ${skip}); it may not support paging`);
  }
  const fingerprint = page.length === 0 ? '' : `${page.length}:${JSON.stringify(page[0])}:${JSON.stringify(page[page.length - 1])}`;
  if (fingerprint !== '' && fingerprint === previous) {
    throw new ResponseError(`the service sent the same page again at --skip ${skip}; it may ignore skip`);
  }
  return fingerprint;
}

function addResumeHint(ctx: CommandContext, error: unknown, resume: string): void {
  if (error instanceof ScpctlError) error.hint = error.hint ? `${resume}. ${error.hint}` : resume;
  else ctx.term.error(resume);
}

function writerFor(ctx: CommandContext, format: Exclude<ReportFormat, 'table'>): RecordWriter {
  switch (format) {
    case 'json':
      return new JsonArrayWriter();
    case 'ndjson':
      return new NdjsonWriter();
    case 'csv':
      return new CsvWriter((keys) =>
        ctx.term.warn(`later records bring column${keys.length === 1 ? '' : 's'} ${keys.join(', ')}, not in the CSV header: left out (-o ndjson keeps every key)`),
      );
  }
}

function writeAll(writer: RecordWriter, records: readonly ReportRecord[]): string {
  return writer.page(records) + writer.end();
}

async function printTable(ctx: CommandContext, records: readonly ReportRecord[], chart: boolean): Promise<void> {
  if (records.length === 0) {
    ctx.term.info('no records match');
    return;
  }
  const { renderRecordsTable } = await import('../output/records-table.js');
  const table = await renderRecordsTable(records, columnsOf(records), ctx.term.columns);
  let text = table.text;
  let note: string | undefined;
  if (chart) {
    const { renderChart } = await import('../output/chart.js');
    const drawn = renderChart(records, ctx.term.columns);
    if ('text' in drawn) text += '\n' + drawn.text;
    else note = drawn.note;
  }
  await ctx.term.page(text);
  if (table.hidden.length > 0) {
    ctx.term.info(`${table.hidden.length} more column${table.hidden.length === 1 ? '' : 's'} not shown: ${table.hidden.join(', ')} (widen the terminal, or use -o json)`);
  }
  if (note) ctx.term.warn(note);
}
