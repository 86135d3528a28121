// The emulator's reports over its events, as the API page has them: the parameters' values and
// combinations (a time window, limit below 10000, activity only for application and alert), the
// `<field> eq <value>` query joined with `and`, and the filtering, grouping and paging of a report.
import { ApiError, badRequest } from './http.js';
import { MAX_LIMIT, REPORT_GROUPBYS, REPORT_TYPES } from '../core/report-query.js';
import { PERIODS } from '../core/time.js';
import type { EmuEvent, EventType, GroupBy, GroupRecord } from './events.js';

/** A query the API page does not allow: the report route's 400, as every bad parameter is. */
export class QueryError extends ApiError {
  constructor(message: string) {
    super(400, 'Invalid Request', `Invalid query: ${message}`);
  }
}

/** Query field names and the event property each one reads. */
export const QUERY_FIELDS: Readonly<Record<string, keyof EmuEvent>> = {
  application: 'application',
  app: 'application',
  user: 'user',
  device: 'device',
  activity: 'activity',
  type: 'type',
  alert_type: 'alert_type',
  bytes: 'bytes',
};

export interface QueryCondition {
  field: keyof EmuEvent;
  /** Lower-cased, because comparisons ignore case. */
  value: string;
}

interface Token {
  text: string;
  quoted: boolean;
}

/**
 * A word in single or double quotes (a backslash escapes only the quote and itself, so Windows-ish paths stay
 * literal), a quote that opens one and never closes, or a blank-separated word.
 */
const TOKEN = /\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(["'])|(\S+))/sy;

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(query); m !== null; m = TOKEN.exec(query)) {
    if (m[3]) throw new QueryError(`unterminated ${m[3]} quote at position ${TOKEN.lastIndex}`);
    if (m[4] !== undefined) tokens.push({ text: m[4], quoted: false });
    else tokens.push({ text: m[1] !== undefined ? m[1].replace(/\\(['\\])/g, '$1') : m[2]!.replace(/\\(["\\])/g, '$1'), quoted: true });
  }
  return tokens;
}

/** Parses a query; an empty or blank query means "no condition". Throws QueryError. */
export function parseQuery(query: string): QueryCondition[] {
  const tokens = tokenize(query);
  const is = (token: Token, word: string) => !token.quoted && token.text.toLowerCase() === word;
  const conditions: QueryCondition[] = [];
  for (let i = 0; i < tokens.length; i += 3) {
    if (conditions.length > 0) {
      if (!is(tokens[i], 'and')) throw new QueryError(`expected 'and' between conditions, got '${tokens[i].text}'`);
      if (++i >= tokens.length) throw new QueryError(`expected a condition after 'and'`);
    }
    const [fieldTok, opTok, valueTok] = [tokens[i], tokens[i + 1], tokens[i + 2]];
    const key = fieldTok.text.toLowerCase();
    if (fieldTok.quoted || !Object.hasOwn(QUERY_FIELDS, key)) {
      throw new QueryError(
        `unknown field '${fieldTok.text}' (fields: ${Object.keys(QUERY_FIELDS).join(', ')})`,
      );
    }
    if (!opTok) throw new QueryError(`expected 'eq' after '${fieldTok.text}'`);
    if (!is(opTok, 'eq')) {
      throw new QueryError(`unsupported operator '${opTok.text}' after '${fieldTok.text}'; only 'eq' is supported`);
    }
    if (!valueTok) throw new QueryError(`expected a value after '${fieldTok.text} ${opTok.text}'`);
    conditions.push({ field: QUERY_FIELDS[key], value: valueTok.text.toLowerCase() });
  }
  return conditions;
}

export interface ReportParams {
  type?: EventType;
  groupby?: GroupBy;
  timeperiod?: number;
  starttime?: number;
  endtime?: number;
  insertionstarttime?: number;
  insertionendtime?: number;
  query: QueryCondition[];
  limit: number;
  skip: number;
}

type Raw = Readonly<Record<string, string | undefined>>;

/** The parameters that take one of a few values. */
const CHOICES: Record<string, readonly string[]> = { type: REPORT_TYPES, groupby: REPORT_GROUPBYS, timeperiod: Object.values(PERIODS).map(String) };
const WINDOW = ['starttime', 'endtime', 'insertionstarttime', 'insertionendtime'] as const;

/** An integer parameter of at least `min`; undefined when absent. */
function integer(q: Raw, name: string, min: number, what: string): number | undefined {
  const raw = q[name];
  if (raw !== undefined && (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)) || Number(raw) < min)) {
    throw badRequest(`${name} must be ${what}, got '${raw}'`);
  }
  return raw === undefined ? undefined : Number(raw);
}

/**
 * Validates the report endpoint's query parameters (absent ones are undefined): each choice one of its values,
 * activity grouping only for application and alert, some time window (start and end together and in order,
 * each pair), limit from 1 to 9999, skip 0 or more.
 */
export function parseReportParams(q: Raw): ReportParams {
  for (const [name, values] of Object.entries(CHOICES)) {
    const raw = q[name];
    if (raw !== undefined && !values.includes(raw)) {
      throw badRequest(`Invalid ${name} '${raw}': expected one of ${values.join(', ')}`);
    }
  }
  if (q.groupby === 'activity' && q.type !== 'application' && q.type !== 'alert') {
    throw badRequest('groupby activity is only available with type application or alert');
  }
  const [starttime, endtime, from, to] = WINDOW.map((name) => integer(q, name, -Infinity, 'an integer'));
  if ((starttime === undefined) !== (endtime === undefined)) {
    throw badRequest('starttime and endtime must be given together');
  }
  if (starttime !== undefined && starttime >= endtime!) throw badRequest('starttime must be less than endtime');
  if (from !== undefined && to !== undefined && from >= to) {
    throw badRequest('insertionstarttime must be less than insertionendtime');
  }
  if (q.timeperiod === undefined && starttime === undefined && from === undefined && to === undefined) {
    throw badRequest('A time window is required: timeperiod, starttime and endtime, or insertionstarttime/insertionendtime');
  }
  const limit = integer(q, 'limit', 1, 'a positive integer') ?? MAX_LIMIT;
  if (limit > MAX_LIMIT) throw badRequest('limit must be less than 10000');
  return {
    type: q.type as EventType | undefined,
    groupby: q.groupby as GroupBy | undefined,
    timeperiod: q.timeperiod === undefined ? undefined : Number(q.timeperiod),
    starttime,
    endtime,
    insertionstarttime: from,
    insertionendtime: to,
    query: q.query === undefined ? [] : parseQuery(q.query),
    limit,
    skip: integer(q, 'skip', 0, 'an integer of 0 or more') ?? 0,
  };
}

/** The events the report covers, in their original (newest first) order. */
export function filterEvents(events: readonly EmuEvent[], p: ReportParams, now: number): EmuEvent[] {
  const after = Math.max(p.timeperiod !== undefined ? now - p.timeperiod : -Infinity, p.starttime ?? -Infinity);
  const end = p.endtime ?? Infinity;
  const insStart = p.insertionstarttime ?? -Infinity;
  const insEnd = p.insertionendtime ?? Infinity;
  return events.filter(
    (ev) =>
      (p.type === undefined || ev.type === p.type) &&
      ev.timestamp > after &&
      ev.timestamp <= end &&
      ev.insertion_time > insStart &&
      ev.insertion_time <= insEnd &&
      p.query.every(({ field, value }) => ev[field] !== undefined && String(ev[field]).toLowerCase() === value),
  );
}

/** `{ <by>: value, count }` records, by count descending, then value ascending. */
export function groupEvents(events: readonly EmuEvent[], by: GroupBy): GroupRecord[] {
  const counts = new Map<string, number>();
  for (const ev of events) {
    const v = ev[by];
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([value, count]) => ({ [by]: value, count }));
}

/** Records as the service writes them: `request_id` as a bare 19-digit number, not a string. */
export function reportJson(records: ReadonlyArray<EmuEvent | GroupRecord>): string {
  return JSON.stringify(records).replace(/"request_id":"(\d+)"/g, '"request_id":$1');
}

/** One page of the report: filter, group if asked, then skip and limit. */
export function runReport(
  events: readonly EmuEvent[],
  p: ReportParams,
  now: number,
): Array<EmuEvent | GroupRecord> {
  const matching = filterEvents(events, p, now);
  const records: Array<EmuEvent | GroupRecord> = p.groupby ? groupEvents(matching, p.groupby) : matching;
  return records.slice(p.skip, p.skip + p.limit);
}
