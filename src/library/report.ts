// `scp.report(query)`: the records of a report as an async iterator (contract sections 7, 8 and 14), and the
// paging under `report --all` (reportPages): no more than two pages are held (the client reads them into two
// buffers in turn).
import { ResponseError } from '../errors.js';
import type { ReportPage, ScpClient } from '../api/client.js';
import type { JsonObject } from '../api/response.js';
import { stringifyExactJson } from '../core/exact-json.js';
import { MAX_LIMIT, buildReportQuery, requestParams, type ReportFlags, type ReportQuery } from '../core/report-query.js';
import type { Clock } from '../core/clock.js';
import type { ReportOptions } from './public.js';

const RECORDS_A_SLICE = 250;

/** The query checked as the CLI checks its flags (a usage error before anything is sent), its window fixed now under `all`. */
export function reportQuery(options: ReportOptions, clock: Clock): ReportQuery {
  const text = (value: string | number | Date | undefined): string | undefined =>
    value === undefined ? undefined : value instanceof Date ? String(Math.floor(value.getTime() / 1000)) : String(value);
  const where = options.where === undefined || Array.isArray(options.where) ? options.where : Object.entries(options.where).map(([field, value]) => `${field}=${value}`);
  const flags: ReportFlags = { type: options.type, groupby: options.groupby, query: options.query, where, alertType: options.alertType };
  for (const key of ['period', 'start', 'end', 'insertionStart', 'insertionEnd', 'limit', 'skip'] as const) flags[key] = text(options[key]);
  return buildReportQuery(flags, Math.floor(clock.now() / 1000), { fixWindow: Boolean(options.all) });
}

export async function* reportRecords(client: ScpClient, query: ReportQuery, all: boolean): AsyncGenerator<JsonObject> {
  if (!all) {
    yield* await client.report(requestParams(query));
    return;
  }
  for await (const { page, from, to } of reportSlices(client, query)) yield* page.records(from, to);
}

/**
 * Every page's records a slice at a time, so that no page's records are all alive at once (flat memory,
 * page after page); the first page whole under `wholeFirst` (its records set a header's columns and widths).
 * The last slice of a page has `to === page.length`.
 */
export async function* reportSlices(
  client: ScpClient,
  query: ReportQuery,
  wholeFirst = false,
): AsyncGenerator<{ page: ReportPage; from: number; to: number }> {
  let slice = wholeFirst ? Number.POSITIVE_INFINITY : RECORDS_A_SLICE;
  for await (const page of reportPages(client, query)) {
    for (let from = 0; from < page.length; from += slice) yield { page, from, to: Math.min(page.length, from + slice) };
    slice = RECORDS_A_SLICE;
  }
}

/**
 * The pages from --skip on, each asked at the same window, until one comes back empty. A page shorter
 * than asked is not the end: services cap pages (often at 5000) whatever `limit` says. The next page is
 * asked for as soon as a page is in, and read while this one is written: the service prepares a page in
 * about the time a page takes to write (docs/performance.md). The same requests in the same order as one
 * at a time; a failure of the next page is reported after this page is written.
 */
async function* reportPages(client: ScpClient, query: ReportQuery): AsyncGenerator<ReportPage> {
  const pageSize = query.limit ?? MAX_LIMIT;
  let previous: string | undefined;
  let skip = query.skip ?? 0;
  let next = client.reportPage(requestParams(query, { limit: pageSize, skip }));
  for (;;) {
    const page = await next;
    if (page.length === 0) return;
    previous = checkPage(page, pageSize, skip, previous);
    skip += page.length;
    next = client.reportPage(requestParams(query, { limit: pageSize, skip }));
    // Awaited at the next turn; a run that stops before (Ctrl-C, a closed pipe) must not see it as unhandled.
    next.catch(() => undefined);
    // One turn of the event loop, so that the request is on its way before this page is written (which
    // takes the loop until it is done).
    await new Promise((resolve) => setImmediate(resolve));
    yield page;
  }
}

/**
 * Refuses a page that would make paging go wrong: more records than asked for, or the same page again
 * (a service that ignores skip would otherwise be paged forever). Returns the page's fingerprint.
 */
function checkPage(page: ReportPage, pageSize: number, skip: number, previous: string | undefined): string {
  if (page.length > pageSize) {
    throw new ResponseError(`the service sent ${page.length} records for limit ${pageSize} (at --skip ${skip}); it may not support paging`);
  }
  const [first] = page.records(0, 1);
  const [last] = page.records(page.length - 1, page.length);
  const fingerprint = `${page.length}:${stringifyExactJson(first)}:${stringifyExactJson(last)}`;
  if (fingerprint === previous) {
    throw new ResponseError(`the service sent the same page again at --skip ${skip}; it may ignore skip`);
  }
  return fingerprint;
}

