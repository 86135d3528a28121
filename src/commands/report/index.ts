// `report`: check the flags, send one request (or page through with --all: library/report.ts), print the records.
//
// - `--chart` draws bars under the table. Without -o it means the table, even when piped; with -o json,
//   ndjson or csv it is a usage error, since the chart is for reading and those formats are for programs.
// - With `--all`, json, ndjson, csv and tables stream page by page, a slice of records at a time; csv and
//   tables take their columns from the first page. A table on a terminal is kept for the pager up to
//   output/report-output.ts's bound, then streams. Only `--chart` keeps records (for its bars).
// - When a page fails after its retries, or on Ctrl-C, the output so far is closed on a whole record (the JSON
//   array gets its `]`) and stderr says how many records were written and how to resume the same window.
import { ReportOutput } from '../../output/report-output.js';
import { ScpctlError, UsageError } from '../../errors.js';
import { reportSlices } from '../../library/report.js';
import type { ReportPage, ScpClient } from '../../api/client.js';
import { MAX_LIMIT, buildReportQuery, requestParams, type ReportQuery } from '../../core/report-query.js';
import { isoSeconds } from '../../core/time.js';
import type { RecordWriter, ReportRecord } from '../../output/records.js';
import { needsWholeFirstPage, recordWriter, type RecordsHow } from '../../output/records-writer.js';
import { whileSlow } from '../../output/slow-spinner.js';
import { SECRET_NAME_REASON, holdsSecret } from '../../core/secret-names.js';
import type { FormatOf } from '../../output/formats.js';
import type { CommandContext } from '../context.js';
import type { CheckpointFlags } from './checkpoint.js';

export interface ReportOptions extends CheckpointFlags {
  chart?: boolean;
  rawTime?: boolean;
  csvRaw?: boolean;
}

type ReportFormat = FormatOf<'records'>;

export async function report(ctx: CommandContext, options: ReportOptions): Promise<void> {
  const chart = Boolean(options.chart);
  const now = Math.floor(ctx.clock.now() / 1000);
  if (options.lag !== undefined && options.checkpoint === undefined) throw new UsageError('--lag goes with --checkpoint FILE');
  refuseSecretFilters(options, ctx.knownTokens());
  const checkpoint = options.checkpoint === undefined ? undefined : await import('./checkpoint.js');
  const plan = checkpoint ? await checkpoint.planCheckpointRun(options, now, await ctx.tenant()) : undefined;
  const format = reportFormat(ctx, chart);
  if (options.csvRaw && format !== 'csv') throw new UsageError('--csv-raw goes with -o csv');
  // --raw-time, or not a terminal: tables keep Unix seconds as they came.
  const shape: Shape = { format, chart, isoTimes: !options.rawTime && ctx.term.stdoutIsTTY, csvRaw: Boolean(options.csvRaw) };
  if (typeof plan === 'string') return ctx.term.info(plan);
  // A checkpoint's window goes as --start and --end.
  const flags = plan ? { ...options, start: String(plan.start), end: String(plan.end), period: undefined } : options;
  const query = buildReportQuery(flags, now, { fixWindow: Boolean(options.all) });
  const client = await ctx.client();
  if (plan) {
    ctx.term.info(plan.note);
    checkpoint!.beginCheckpointRun(plan);
  } else for (const note of query.notes) ctx.term.info(note);
  if (!options.all) return reportOnce(ctx, client, query, shape);

  if (query.window) {
    const { start, end } = query.window;
    ctx.term.debug(`window fixed for every page: starttime=${start} (${isoSeconds(start)}) endtime=${end} (${isoSeconds(end)})`);
  }
  const result = await reportAll(ctx, client, query, shape, Boolean(plan));
  if (plan) await checkpoint!.completeCheckpointRun(ctx, plan, result.written);
}

/** How the records are shown: the format, a chart under the table, ISO times in tables, --csv-raw. */
interface Shape extends Pick<RecordsHow, 'isoTimes' | 'csvRaw'> {
  format: ReportFormat;
  chart: boolean;
}

/** Where services of this kind cap a page, below any --limit (contract section 7). */
const USUAL_PAGE_CAP = 5000;

async function reportOnce(ctx: CommandContext, client: ScpClient, query: ReportQuery, shape: Shape): Promise<void> {
  const records = await whileSlow(ctx.term, 'report', ctx.clock, () => client.report(requestParams(query)));
  if (shape.format === 'table' && records.length === 0) ctx.term.info('no records match');
  else {
    const writer = await shapeWriter(ctx, shape);
    const text = writer.page(records) + writer.end();
    if (shape.format === 'table') await ctx.term.page(text);
    else ctx.term.out(text);
  }
  // A page as full as --limit, or as the 5,000 the service usually caps a page at, may not be all there is.
  if (records.length > 0 && (records.length === (query.limit ?? MAX_LIMIT) || records.length === USUAL_PAGE_CAP)) {
    ctx.term.info(`${records.length} records: more records may exist; --all pages through all of them (or --skip ${(query.skip ?? 0) + records.length} for the next page)`);
  }
}

/** The format asked for; `--chart` alone means the table. */
function reportFormat(ctx: CommandContext, chart: boolean): ReportFormat {
  const format = ctx.outputFormat('records', chart ? 'table' : undefined);
  if (chart && format !== 'table') {
    throw new UsageError(`--chart draws under the table and cannot go with -o ${format}`, {
      hint: 'Drop -o (or use -o table) to see the chart, or drop --chart.',
    });
  }
  return format;
}

/** Pages through every record, streaming each page as it comes. */
async function reportAll(
  ctx: CommandContext,
  client: ScpClient,
  query: ReportQuery,
  shape: Shape,
  checkpointed: boolean,
): Promise<{ written: number }> {
  const writer = await shapeWriter(ctx, shape);
  // A table for a terminal is kept for the pager (see ReportOutput), with the spinner counting meanwhile;
  // anything else streams to stdout page by page, where a spinner beside the records would garble both.
  const keep = shape.format === 'table' && ctx.term.stdoutIsTTY;
  const output = new ReportOutput(ctx.term, keep, () => {
    spinner?.stop();
    spinner = undefined;
  });
  let spinner = ctx.term.stdoutIsTTY && !keep ? undefined : ctx.term.spinner('fetching records');
  const progress = { written: 0, pages: 0 };
  const firstSkip = query.skip ?? 0;
  const resume = (): string => `wrote ${progress.written} records; ${resumeAdvice(query, firstSkip + progress.written, checkpointed)}`;
  // Whatever stops the run closes the output on a whole record.
  const close = (): void => {
    spinner?.stop();
    output.write(writer.end());
    output.flush();
  };
  const forgetCleanup = ctx.interruption.onCleanup(() => {
    close();
    if (progress.written > 0) ctx.term.error(resume());
  });

  try {
    const take = recordTaker(output, writer);
    for await (const { page, from, to } of reportSlices(client, query, needsWholeFirstPage(shape.format))) {
      progress.written += take(page, from, to);
      if (to < page.length) continue;
      progress.pages++;
      spinner?.update(`${progress.written} records so far (page ${progress.pages})`);
    }
  } catch (error) {
    forgetCleanup();
    close();
    if (progress.written > 0 || checkpointed) addResumeHint(ctx, error, resume());
    throw error;
  }
  forgetCleanup();
  output.write(writer.end());
  // The spinner is done before a table is drawn, so that it cannot redraw over it.
  const { written, pages } = progress;
  const summary = `${written} record${written === 1 ? '' : 's'} in ${pages} page${pages === 1 ? '' : 's'}`;
  if (spinner) spinner.succeed(summary);
  else ctx.term.success(summary);
  await output.finish();
  if (shape.format === 'table' && written === 0) ctx.term.info('no records match');
  return { written };
}

/** The records' writer of the shape: with --chart, the table's, and under it the bars of every record's count. */
async function shapeWriter(ctx: CommandContext, shape: Shape): Promise<RecordWriter> {
  const writer = await recordWriter(ctx.term, shape.format, recordsHow(ctx, shape));
  if (!shape.chart) return writer;
  const { renderChart } = await import('../../output/chart.js');
  const records: ReportRecord[] = [];
  return {
    page: (page) => {
      records.push(...page);
      return writer.page(page);
    },
    end: () => {
      if (records.length === 0) return writer.end();
      const drawn = renderChart(records, ctx.term.columns, undefined, ctx.term.paint, ctx.term.mask);
      if ('note' in drawn) ctx.term.warn(drawn.note);
      return writer.end() + ('text' in drawn ? '\n' + drawn.text : '');
    },
  };
}

/** What writes each slice of a page; returns how many records it took. */
function recordTaker(output: ReportOutput, writer: RecordWriter): (page: ReportPage, from: number, to: number) => number {
  // Records that came as they would be written go out as their bytes (api/canonical-json.ts).
  const asTheyCame = writer.canonicalPage?.bind(writer);
  return (page, from, to) => {
    const canonical = asTheyCame && page.canonical?.(from, to);
    if (canonical) {
      output.write(asTheyCame(canonical));
      return canonical.length;
    }
    const records = page.records(from, to);
    output.write(writer.page(records));
    return records.length;
  };
}

/** How to pick up after a failure: the same absolute window from the next record (or the checkpoint). */
function resumeAdvice(query: ReportQuery, skip: number, checkpointed: boolean): string {
  if (checkpointed) return 'the checkpoint was not moved: the next run repeats this window (records already written may come again)';
  const window = query.window ? `--start ${query.window.start} --end ${query.window.end} ` : '';
  return `resume with ${window}--skip ${skip}`;
}

function addResumeHint(ctx: CommandContext, error: unknown, resume: string): void {
  if (error instanceof ScpctlError) error.hint = error.hint ? `${resume}. ${error.hint}` : resume;
  else ctx.term.error(resume);
}

/**
 * What the records' writer needs of the run: the shape and where to say what a header left out (keys that
 * only later pages bring cannot join a header already written: said once, left out; columns past the screen).
 */
function recordsHow(ctx: CommandContext, { csvRaw, isoTimes }: Shape): RecordsHow {
  const laterColumns = (where: string) => (keys: string[]) => {
    const columns = `column${keys.length === 1 ? '' : 's'} ${keys.join(', ')}`;
    ctx.term.warn(`later records bring ${columns}, not in ${where}: left out (-o ndjson keeps every key)`);
  };
  const hiddenColumns = (hidden: string[]): void => {
    const columns = `column${hidden.length === 1 ? '' : 's'}`;
    ctx.term.info(`${hidden.length} more ${columns} not shown: ${hidden.join(', ')} (widen the terminal, or use -o json)`);
  };
  return { csvRaw, isoTimes, laterColumns, hiddenColumns };
}

/**
 * A filter holding a known token is refused before anything is sent or kept: the query goes in the report's URL
 * (where the token never goes, contract 4) and into a checkpoint file (where no token rests, contract 13).
 */
function refuseSecretFilters(options: ReportOptions, tokens: readonly string[]): void {
  const typed = [options.query, options.alertType, ...(options.where ?? [])];
  if (typed.some((text) => text !== undefined && holdsSecret(text, tokens))) {
    throw new UsageError(`a filter (--query, --where or --alert-type) holds ${SECRET_NAME_REASON}; nothing was sent`);
  }
}
