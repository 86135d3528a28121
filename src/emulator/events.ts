// Synthetic events for the emulator's report endpoint, and the report logic over them.
// Everything here is pure: the same (count, seed, now) always gives the same events, so tests
// and benchmarks can rely on exact numbers.

export const EVENT_TYPES = ['application', 'connection', 'alert', 'network'] as const;
export const GROUP_BYS = ['application', 'user', 'device', 'activity'] as const;
export const TIME_PERIODS = [3600, 86400, 604800, 2592000] as const;
export const ALERT_TYPES = ['policy', 'dlp', 'quarantine', 'watchlist'] as const;
export const ACTIVITIES = ['Upload', 'Download', 'Share', 'Login', 'Delete', 'Edit'] as const;
export const MAX_LIMIT = 9999;

export type EventType = (typeof EVENT_TYPES)[number];
export type GroupBy = (typeof GROUP_BYS)[number];
export type AlertType = (typeof ALERT_TYPES)[number];

export interface EmuEvent {
  timestamp: number;
  insertion_time: number;
  type: EventType;
  application: string;
  user: string;
  device: string;
  activity: string;
  alert_type?: AlertType;
  bytes: number;
  /**
   * A 19-digit ID, as the service sends (beyond 2^53: JSON.parse would lose digits). Held as its digits and
   * written into the JSON as a bare number (see `reportJson`).
   */
  request_id?: string;
}

export type GroupRecord = { [field: string]: string | number };

export const APPLICATIONS: readonly string[] = [
  'Dropbox', 'Box', 'Google Drive', 'OneDrive', 'Slack', 'Salesforce', 'GitHub', 'Microsoft Teams',
  'Zoom', 'Jira', 'Confluence', 'Trello', 'Asana', 'Notion', 'Evernote', 'WeTransfer', 'iCloud',
  'Amazon S3', 'Gmail', 'Outlook', 'SharePoint', 'Workday', 'ServiceNow', 'Zendesk', 'HubSpot',
  'DocuSign', 'Adobe Creative Cloud', 'Figma', 'Canva', 'Miro', 'Monday.com', 'Smartsheet',
  'Airtable', 'Bitbucket', 'GitLab', 'Webex', 'WhatsApp', 'LinkedIn', 'YouTube', 'ChatGPT',
];

const FIRST_NAMES = [
  'alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory',
  'niaj', 'olivia', 'peggy', 'rupert', 'sybil', 'trent', 'victor', 'walter', 'yolanda', 'zoe',
  'aaron', 'bianca', 'chen', 'diego', 'elena', 'farah', 'gustav', 'hana', 'igor', 'jamal', 'kenji',
  'lena', 'marco', 'nora', 'omar', 'priya', 'quinn', 'rosa', 'sanjay', 'tomas', 'uma', 'vera',
  'wei', 'ximena', 'yusuf', 'zara', 'leo', 'mia', 'noah',
];

const DEVICE_KINDS = ['LAPTOP', 'DESKTOP', 'MACBOOK'];
const MOBILE_KINDS = ['IPHONE', 'ANDROID'];
const THIRTY_DAYS = 2592000;

/** mulberry32: tiny, fast and good enough to make synthetic data look random. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function userName(i: number): string {
  const base = FIRST_NAMES[i % FIRST_NAMES.length];
  const round = Math.floor(i / FIRST_NAMES.length);
  return `${base}${round === 0 ? '' : round + 1}@example.com`;
}

function pad4(n: number): string {
  return String(n).padStart(4, '0');
}

function pickType(r: number): EventType {
  if (r < 0.6) return 'application';
  if (r < 0.75) return 'connection';
  if (r < 0.9) return 'alert';
  return 'network';
}

/**
 * Events over the 30 days before `now` (Unix seconds), newest first.
 * Popularity is skewed (a product of two uniforms) so that grouped reports have a clear top and a long tail.
 */
export function generateEvents(count: number, seed: number, now: number): EmuEvent[] {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`event count must be an integer >= 0`);
  const rand = mulberry32(seed);
  const apps = [...APPLICATIONS];
  // A seeded shuffle so that different seeds have different "top" applications.
  for (let i = apps.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [apps[i], apps[j]] = [apps[j], apps[i]];
  }
  const userCount = Math.max(1, Math.round(count / 20));
  const users = Array.from({ length: userCount }, (_, i) => userName(i));
  const laptops = users.map((_, u) => `${DEVICE_KINDS[u % DEVICE_KINDS.length]}-${pad4(u + 1)}`);
  const phones = users.map((_, u) => `${MOBILE_KINDS[u % MOBILE_KINDS.length]}-${pad4(u + 1)}`);

  // Ages are drawn first and sorted (a typed-array sort, no comparator) so that events come out
  // newest first without sorting objects.
  const ages = new Uint32Array(count);
  for (let i = 0; i < count; i++) ages[i] = Math.floor(rand() * THIRTY_DAYS);
  ages.sort();

  const events: EmuEvent[] = new Array(count);
  // IDs come from a stream of their own, so the events stay what they were before IDs were added.
  const idRand = mulberry32(seed ^ 0x1d5eed);
  const nineDigits = (): string => String(Math.floor(idRand() * 1e9)).padStart(9, '0');
  for (let i = 0; i < count; i++) {
    const request_id = `7${nineDigits()}${nineDigits()}`;
    const timestamp = now - ages[i];
    const type = pickType(rand());
    const u = Math.floor(rand() * rand() * userCount);
    const device = rand() < 0.2 ? phones[u] : laptops[u];
    const insertion_time = timestamp + Math.floor(rand() * 301);
    const application = apps[Math.floor(rand() * rand() * apps.length)];
    const activity = ACTIVITIES[Math.floor(rand() * ACTIVITIES.length)];
    const bytes = Math.floor(200 * Math.pow(10, rand() * 5));
    const user = users[u];
    // Two literals rather than a spread: key order stays natural (bytes last) and it is fast.
    events[i] =
      type === 'alert'
        ? {
            timestamp, insertion_time, type, application, user, device, activity,
            alert_type: ALERT_TYPES[Math.floor(rand() * ALERT_TYPES.length)],
            bytes, request_id,
          }
        : { timestamp, insertion_time, type, application, user, device, activity, bytes, request_id };
  }
  return events;
}

// ---------------------------------------------------------------------------------------------
// Query language: `field eq value [and field eq value]...`

export class QueryError extends Error {}

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

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const c = query[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      let text = '';
      let j = i + 1;
      for (;;) {
        if (j >= query.length) throw new QueryError(`unterminated ${c} quote at position ${i + 1}`);
        const d = query[j];
        // Backslash escapes only the quote and itself, so Windows-ish paths stay literal.
        if (d === '\\' && (query[j + 1] === c || query[j + 1] === '\\')) {
          text += query[j + 1];
          j += 2;
        } else if (d === c) {
          break;
        } else {
          text += d;
          j++;
        }
      }
      tokens.push({ text, quoted: true });
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < query.length && !/\s/.test(query[j])) j++;
    tokens.push({ text: query.slice(i, j), quoted: false });
    i = j;
  }
  return tokens;
}

/** Parses a query; an empty or blank query means "no condition". Throws QueryError. */
export function parseQuery(query: string): QueryCondition[] {
  const tokens = tokenize(query);
  const conditions: QueryCondition[] = [];
  let i = 0;
  while (i < tokens.length) {
    if (conditions.length > 0) {
      const joiner = tokens[i];
      if (joiner.quoted || joiner.text.toLowerCase() !== 'and') {
        throw new QueryError(`expected 'and' between conditions, got '${joiner.text}'`);
      }
      i++;
      if (i >= tokens.length) throw new QueryError(`expected a condition after 'and'`);
    }
    const fieldTok = tokens[i];
    const key = fieldTok.text.toLowerCase();
    if (fieldTok.quoted || !Object.hasOwn(QUERY_FIELDS, key)) {
      throw new QueryError(
        `unknown field '${fieldTok.text}' (fields: ${Object.keys(QUERY_FIELDS).join(', ')})`,
      );
    }
    const field = QUERY_FIELDS[key];
    const opTok = tokens[i + 1];
    if (!opTok) throw new QueryError(`expected 'eq' after '${fieldTok.text}'`);
    if (opTok.quoted || opTok.text.toLowerCase() !== 'eq') {
      throw new QueryError(`unsupported operator '${opTok.text}' after '${fieldTok.text}'; only 'eq' is supported`);
    }
    const valueTok = tokens[i + 2];
    if (!valueTok) throw new QueryError(`expected a value after '${fieldTok.text} ${opTok.text}'`);
    conditions.push({ field, value: valueTok.text.toLowerCase() });
    i += 3;
  }
  return conditions;
}

export function matchesQuery(ev: EmuEvent, conditions: readonly QueryCondition[]): boolean {
  for (const c of conditions) {
    const v = ev[c.field];
    if (v === undefined || String(v).toLowerCase() !== c.value) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Report parameters, filtering and grouping.

export class ReportParamError extends Error {}

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

function parseInteger(raw: string, name: string): number {
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new ReportParamError(`${name} must be an integer, got '${raw}'`);
  }
  return Number(raw);
}

/** Validates the report endpoint's query parameters (absent ones are undefined). */
export function parseReportParams(q: Readonly<Record<string, string | undefined>>): ReportParams {
  const params: ReportParams = { query: [], limit: MAX_LIMIT, skip: 0 };

  if (q.type !== undefined) {
    if (!(EVENT_TYPES as readonly string[]).includes(q.type)) {
      throw new ReportParamError(`Invalid type '${q.type}': expected one of ${EVENT_TYPES.join(', ')}`);
    }
    params.type = q.type as EventType;
  }
  if (q.groupby !== undefined) {
    if (!(GROUP_BYS as readonly string[]).includes(q.groupby)) {
      throw new ReportParamError(`Invalid groupby '${q.groupby}': expected one of ${GROUP_BYS.join(', ')}`);
    }
    params.groupby = q.groupby as GroupBy;
    if (params.groupby === 'activity' && params.type !== 'application' && params.type !== 'alert') {
      throw new ReportParamError('groupby activity is only available with type application or alert');
    }
  }
  if (q.timeperiod !== undefined) {
    const tp = Number(q.timeperiod);
    if (!/^\d+$/.test(q.timeperiod) || !(TIME_PERIODS as readonly number[]).includes(tp)) {
      throw new ReportParamError(
        `Invalid timeperiod '${q.timeperiod}': expected one of ${TIME_PERIODS.join(', ')}`,
      );
    }
    params.timeperiod = tp;
  }
  for (const name of ['starttime', 'endtime', 'insertionstarttime', 'insertionendtime'] as const) {
    const raw = q[name];
    if (raw !== undefined) params[name] = parseInteger(raw, name);
  }
  if ((params.starttime === undefined) !== (params.endtime === undefined)) {
    throw new ReportParamError('starttime and endtime must be given together');
  }
  if (params.starttime !== undefined && params.endtime !== undefined && params.starttime >= params.endtime) {
    throw new ReportParamError('starttime must be less than endtime');
  }
  if (
    params.insertionstarttime !== undefined &&
    params.insertionendtime !== undefined &&
    params.insertionstarttime >= params.insertionendtime
  ) {
    throw new ReportParamError('insertionstarttime must be less than insertionendtime');
  }
  if (
    params.timeperiod === undefined &&
    params.starttime === undefined &&
    params.insertionstarttime === undefined &&
    params.insertionendtime === undefined
  ) {
    throw new ReportParamError(
      'A time window is required: timeperiod, starttime and endtime, or insertionstarttime/insertionendtime',
    );
  }
  if (q.limit !== undefined) {
    if (!/^\d+$/.test(q.limit) || Number(q.limit) < 1) {
      throw new ReportParamError(`limit must be a positive integer, got '${q.limit}'`);
    }
    if (Number(q.limit) > MAX_LIMIT) throw new ReportParamError('limit must be less than 10000');
    params.limit = Number(q.limit);
  }
  if (q.skip !== undefined) {
    if (!/^\d+$/.test(q.skip) || !Number.isSafeInteger(Number(q.skip))) {
      throw new ReportParamError(`skip must be an integer of 0 or more, got '${q.skip}'`);
    }
    params.skip = Number(q.skip);
  }
  if (q.query !== undefined) {
    try {
      params.query = parseQuery(q.query);
    } catch (err) {
      if (err instanceof QueryError) throw new ReportParamError(`Invalid query: ${err.message}`);
      throw err;
    }
  }
  return params;
}

/** The events the report covers, in their original (newest first) order. */
export function filterEvents(events: readonly EmuEvent[], p: ReportParams, now: number): EmuEvent[] {
  const since = p.timeperiod !== undefined ? now - p.timeperiod : -Infinity;
  const start = p.starttime ?? -Infinity;
  const end = p.endtime ?? Infinity;
  const insStart = p.insertionstarttime ?? -Infinity;
  const insEnd = p.insertionendtime ?? Infinity;
  const out: EmuEvent[] = [];
  for (const ev of events) {
    if (p.type !== undefined && ev.type !== p.type) continue;
    const t = ev.timestamp;
    if (t <= since || t <= start || t > end) continue;
    if (ev.insertion_time <= insStart || ev.insertion_time > insEnd) continue;
    if (p.query.length > 0 && !matchesQuery(ev, p.query)) continue;
    out.push(ev);
  }
  return out;
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
