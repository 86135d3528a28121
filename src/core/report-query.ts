// From `report`'s flags to the report endpoint's query parameters (contract sections 4 and 8). Every check
// happens here, before anything is sent: a bad flag is a usage error (exit 2) and no request goes out.
//
// `--where F=V` becomes `F eq V`. A value that holds whitespace, is empty, or starts with a quote is put in
// single quotes, with `\` before each embedded `'` and `\`: `--where "application=Bob's Drive"` becomes
// `application eq 'Bob\'s Drive'`. Other values go as they are (`user eq o'neil@example.com`). The service's
// full grammar is not documented; this is the usual convention and the one the emulator reads.
import { UsageError } from '../errors.js';
import { isoSeconds, parsePeriod, parseTime, periodName } from './time.js';
import { optionalInteger } from './whole-number.js';

export const REPORT_TYPES = ['application', 'connection', 'alert', 'network'] as const;
export const REPORT_GROUPBYS = ['application', 'user', 'device', 'activity'] as const;
export const MAX_LIMIT = 9999;
export const DEFAULT_PERIOD = 86_400;

/** The flags of `report` as commander hands them over (every value a string). */
export interface ReportFlags {
  type?: string;
  groupby?: string;
  period?: string;
  start?: string;
  end?: string;
  insertionStart?: string;
  insertionEnd?: string;
  query?: string;
  where?: string[];
  alertType?: string;
  limit?: string;
  skip?: string;
  chart?: boolean;
}

export interface ReportQuery {
  /** In the order of the contract, without limit and skip. */
  filters: Array<[string, string]>;
  limit?: number;
  skip?: number;
  /** What the user should know about choices made for them (said on stderr unless --quiet). */
  notes: string[];
  /** The absolute window (Unix seconds), when the query has one: what a resumed run must send again. */
  window?: { start: number; end: number };
}

/**
 * Checks the flags and builds the query; `now` is Unix seconds. Throws UsageError. `fixWindow` turns a
 * relative window (a period, the 24h default) into starttime/endtime fixed at `now`, so that every page of
 * `--all` reads the same window: with timeperiod it would slide between pages (contract section 7).
 */
export function buildReportQuery(flags: ReportFlags, now: number, { fixWindow = false } = {}): ReportQuery {
  const filters: Array<[string, string]> = [];
  const notes: string[] = [];

  const type = flags.type === undefined ? undefined : oneOf('--type', flags.type, REPORT_TYPES);
  const groupby = flags.groupby === undefined ? undefined : oneOf('--groupby', flags.groupby, REPORT_GROUPBYS);
  if (groupby === 'activity' && type !== 'application' && type !== 'alert') {
    throw new UsageError('--groupby activity needs --type application or --type alert', {
      hint: 'For example: scpctl report --type application --groupby activity',
    });
  }
  if (flags.chart && groupby === undefined) {
    // Ungrouped events have no count to draw: charting their timestamps helps nobody.
    throw new UsageError('--chart needs --groupby: it draws the count of each group', {
      hint: 'For example: scpctl report --type alert --groupby user --chart',
    });
  }
  if (type !== undefined) filters.push(['type', type]);
  if (groupby !== undefined) filters.push(['groupby', groupby]);

  const window = timeWindow(flags, now);
  const insertionStart = optionalInteger('--insertion-start', flags.insertionStart, 0);
  const insertionEnd = optionalInteger('--insertion-end', flags.insertionEnd, 0);
  if (insertionStart !== undefined && insertionEnd !== undefined && insertionStart >= insertionEnd) {
    throw new UsageError(`--insertion-start (${insertionStart}) must be before --insertion-end (${insertionEnd})`);
  }
  const noWindow = window.timeperiod === undefined && window.starttime === undefined;
  if (noWindow && insertionStart === undefined && insertionEnd === undefined) {
    window.timeperiod = DEFAULT_PERIOD;
    notes.push(`no time window given: using the last ${periodName(DEFAULT_PERIOD)} (--period ${periodName(DEFAULT_PERIOD)})`);
  }
  if (fixWindow && window.timeperiod !== undefined) {
    window.starttime = now - window.timeperiod;
    window.endtime = now;
    window.timeperiod = undefined;
  }
  const times = { timeperiod: window.timeperiod, starttime: window.starttime, endtime: window.endtime, insertionstarttime: insertionStart, insertionendtime: insertionEnd };
  for (const [key, value] of Object.entries(times)) if (value !== undefined) filters.push([key, String(value)]);

  const query = eventQuery(flags);
  if (query !== undefined) filters.push(['query', query]);
  if (flags.alertType !== undefined && type !== undefined && type !== 'alert') {
    notes.push(`--alert-type filters alerts; with --type ${type} it is unlikely to match anything`);
  }

  return {
    filters,
    limit: optionalInteger('--limit', flags.limit, 1, MAX_LIMIT),
    skip: optionalInteger('--skip', flags.skip, 0),
    notes,
    ...(window.starttime !== undefined && window.endtime !== undefined && { window: { start: window.starttime, end: window.endtime } }),
  };
}

/** The parameters of one request: the filters, then limit and skip when there are any. */
export function requestParams(query: ReportQuery, page: { limit?: number; skip?: number } = query): Array<[string, string]> {
  const params = [...query.filters];
  if (page.limit !== undefined) params.push(['limit', String(page.limit)]);
  if (page.skip !== undefined) params.push(['skip', String(page.skip)]);
  return params;
}

/** `--period`, or `--start` with `--end` (default now); never both. */
function timeWindow(flags: ReportFlags, now: number): { timeperiod?: number; starttime?: number; endtime?: number } {
  if (flags.period !== undefined) {
    if (flags.start !== undefined || flags.end !== undefined) {
      const other = flags.start !== undefined ? '--start' : '--end';
      throw new UsageError(`--period and ${other} cannot be used together: give a period or a start and end`);
    }
    return { timeperiod: parsePeriod(flags.period) };
  }
  if (flags.start === undefined) {
    if (flags.end !== undefined) {
      throw new UsageError('--end needs --start', { hint: 'For example: scpctl report --start 3d --end 1d' });
    }
    return {};
  }
  const starttime = parseTime(flags.start, now, '--start');
  const endtime = flags.end === undefined ? now : parseTime(flags.end, now, '--end');
  if (starttime >= endtime) {
    const end = flags.end === undefined ? 'now' : `--end (${isoSeconds(endtime)})`;
    throw new UsageError(`--start (${isoSeconds(starttime)}) must be before ${end}`);
  }
  return { starttime, endtime };
}

/** `--query`, the `--where` conditions and `--alert-type`, joined with ` and `; undefined when none. */
function eventQuery(flags: ReportFlags): string | undefined {
  const conditions: string[] = [];
  if (flags.query !== undefined && flags.query.trim() !== '') conditions.push(flags.query.trim());
  for (const where of flags.where ?? []) conditions.push(whereCondition(where));
  if (flags.alertType !== undefined) {
    if (flags.alertType.trim() === '') throw new UsageError('--alert-type: the alert type is empty');
    conditions.push(`alert_type eq ${quoteValue(flags.alertType)}`);
  }
  return conditions.length > 0 ? conditions.join(' and ') : undefined;
}

export function whereCondition(text: string): string {
  const at = text.indexOf('=');
  const field = at < 0 ? '' : text.slice(0, at).trim();
  if (!/^[A-Za-z_][\w.]*$/.test(field)) {
    throw new UsageError(`--where "${text}": expected FIELD=VALUE, e.g. --where user=alice@example.com`);
  }
  const value = text.slice(at + 1);
  if (value.trim() === '') throw new UsageError(`--where "${text}": the value is empty`);
  return `${field} eq ${quoteValue(value)}`;
}

/** A query value as is, or single-quoted (with `\'` and `\\` inside) when it could not stand alone. */
export function quoteValue(value: string): string {
  if (value !== '' && !/\s/.test(value) && !/^['"]/.test(value)) return value;
  return `'${value.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${flag}: "${value}" is not one of ${allowed.join(', ')}`);
  }
  return value as T;
}
