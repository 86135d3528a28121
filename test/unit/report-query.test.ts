import fc from 'fast-check';
import { anyText } from './arbitraries.js';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import {
  buildReportQuery,
  quoteValue,
  requestParams,
  whereCondition,
  type ReportFlags,
} from '../../src/core/report-query.js';
import { parseQuery } from '../../src/emulator/reports.js';

// 2024-05-01T12:00:00Z
const NOW = 1_714_564_800;
const DEFAULT_NOTE = 'no time window given: using the last 24h (--period 24h)';

function params(flags: ReportFlags): Array<[string, string]> {
  return requestParams(buildReportQuery(flags, NOW));
}

function usageError(flags: ReportFlags): UsageError {
  try {
    buildReportQuery(flags, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error(`no usage error for ${JSON.stringify(flags)}`);
}

describe('buildReportQuery: parameters', () => {
  it('sends only the default window when nothing is given, and says so', () => {
    const query = buildReportQuery({}, NOW);
    expect(requestParams(query)).toEqual([['timeperiod', '86400']]);
    expect(query.notes).toEqual([DEFAULT_NOTE]);
    expect(query.limit).toBeUndefined();
    expect(query.skip).toBeUndefined();
  });

  it('puts every flag in the contract order', () => {
    const query = buildReportQuery(
      {
        skip: '20',
        limit: '10',
        where: ['user=alice@example.com'],
        query: 'app eq Dropbox',
        insertionEnd: '1714560000',
        insertionStart: '1714550000',
        end: '1h',
        start: '3h',
        groupby: 'activity',
        type: 'alert',
        alertType: 'dlp',
      },
      NOW,
    );
    expect(requestParams(query)).toEqual([
      ['type', 'alert'],
      ['groupby', 'activity'],
      ['starttime', String(NOW - 3 * 3600)],
      ['endtime', String(NOW - 3600)],
      ['insertionstarttime', '1714550000'],
      ['insertionendtime', '1714560000'],
      ['query', 'app eq Dropbox and user eq alice@example.com and alert_type eq dlp'],
      ['limit', '10'],
      ['skip', '20'],
    ]);
    expect(query.notes).toEqual([]);
  });

  it.each([
    ['application', 'application'],
    ['connection', 'connection'],
    ['alert', 'alert'],
    ['network', 'network'],
  ])('--type %s', (type, sent) => {
    expect(params({ type })).toEqual([['type', sent], ['timeperiod', '86400']]);
  });

  it.each(['application', 'user', 'device'])('--groupby %s with any type or none', (groupby) => {
    expect(params({ groupby })).toEqual([['groupby', groupby], ['timeperiod', '86400']]);
    expect(params({ groupby, type: 'network' })[1]).toEqual(['groupby', groupby]);
  });

  it.each(['application', 'alert'])('--groupby activity with --type %s', (type) => {
    expect(params({ type, groupby: 'activity' })).toEqual([['type', type], ['groupby', 'activity'], ['timeperiod', '86400']]);
  });

  it.each([
    ['1h', '3600'],
    ['24h', '86400'],
    ['7d', '604800'],
    ['30d', '2592000'],
    ['3600', '3600'],
    ['2592000', '2592000'],
  ])('--period %s', (period, seconds) => {
    const query = buildReportQuery({ period }, NOW);
    expect(requestParams(query)).toEqual([['timeperiod', seconds]]);
    expect(query.notes).toEqual([]);
  });

  it('--start alone ends now', () => {
    expect(params({ start: '2h' })).toEqual([['starttime', String(NOW - 7200)], ['endtime', String(NOW)]]);
  });

  it('--start and --end in every form', () => {
    expect(params({ start: '1714557600', end: '2024-05-01T11:00:00Z' })).toEqual([
      ['starttime', '1714557600'],
      ['endtime', '1714561200'],
    ]);
    expect(params({ start: '3 days ago', end: 'now' })).toEqual([
      ['starttime', String(NOW - 259_200)],
      ['endtime', String(NOW)],
    ]);
  });

  it('an insertion window alone is a window: no default period', () => {
    const query = buildReportQuery({ insertionStart: '1714550000' }, NOW);
    expect(requestParams(query)).toEqual([['insertionstarttime', '1714550000']]);
    expect(query.notes).toEqual([]);
    expect(params({ insertionEnd: '1714550000' })).toEqual([['insertionendtime', '1714550000']]);
  });

  it('an insertion window goes with a period too', () => {
    expect(params({ period: '7d', insertionStart: '1', insertionEnd: '2' })).toEqual([
      ['timeperiod', '604800'],
      ['insertionstarttime', '1'],
      ['insertionendtime', '2'],
    ]);
  });

  it('--limit at both ends, --skip from 0', () => {
    expect(params({ limit: '1' }).at(-1)).toEqual(['limit', '1']);
    expect(params({ limit: '9999' }).at(-1)).toEqual(['limit', '9999']);
    expect(params({ skip: '0' }).at(-1)).toEqual(['skip', '0']);
    expect(params({ skip: '123456789' }).at(-1)).toEqual(['skip', '123456789']);
  });

  it('a blank --query is no query', () => {
    expect(params({ query: '  ' })).toEqual([['timeperiod', '86400']]);
    expect(params({ query: ' app eq Box ' }).at(-1)).toEqual(['query', 'app eq Box']);
  });

  it('requestParams takes the page of --all', () => {
    const query = buildReportQuery({ period: '7d', limit: '5', skip: '7' }, NOW);
    expect(requestParams(query, { limit: 100, skip: 300 })).toEqual([
      ['timeperiod', '604800'],
      ['limit', '100'],
      ['skip', '300'],
    ]);
  });

  it('notes an alert type with another event type', () => {
    const query = buildReportQuery({ type: 'application', alertType: 'dlp', period: '1h' }, NOW);
    expect(query.notes).toEqual(['--alert-type filters alerts; with --type application it is unlikely to match anything']);
    expect(buildReportQuery({ type: 'alert', alertType: 'dlp', period: '1h' }, NOW).notes).toEqual([]);
  });
});

describe('--where and --alert-type', () => {
  it('joins conditions with and, after --query', () => {
    expect(params({ where: ['user=alice', 'device=LAPTOP-0001'] }).at(-1)).toEqual([
      'query',
      'user eq alice and device eq LAPTOP-0001',
    ]);
    expect(params({ query: 'app eq Box', alertType: 'policy' }).at(-1)).toEqual(['query', 'app eq Box and alert_type eq policy']);
  });

  it('splits at the first =', () => {
    expect(whereCondition('query=a=b')).toBe('query eq a=b');
  });

  it('single-quotes a value with whitespace', () => {
    expect(whereCondition('application=Google Drive')).toBe("application eq 'Google Drive'");
    expect(whereCondition('application=a\tb')).toBe("application eq 'a\tb'");
    expect(whereCondition('application= padded')).toBe("application eq ' padded'");
    expect(params({ alertType: 'data loss' }).at(-1)).toEqual(['query', "alert_type eq 'data loss'"]);
  });

  it('escapes quotes and backslashes inside the quotes', () => {
    expect(whereCondition("application=Bob's Drive")).toBe("application eq 'Bob\\'s Drive'");
    expect(whereCondition('application=C:\\My Files')).toBe("application eq 'C:\\\\My Files'");
  });

  it('leaves a value without whitespace alone, quotes inside included', () => {
    expect(whereCondition("user=o'neil@example.com")).toBe("user eq o'neil@example.com");
    expect(whereCondition('path=C:\\x')).toBe('path eq C:\\x');
  });

  it('quotes a value that starts with a quote', () => {
    expect(quoteValue("'x")).toBe("'\\'x'");
    expect(quoteValue('"x"')).toBe(`'"x"'`);
    expect(quoteValue('')).toBe("''");
  });

  it('quoted values read back as they were (the emulator grammar)', () => {
    fc.assert(
      fc.property(anyText({ minLength: 1 }).filter((v) => v.trim() !== ''), (value) => {
        const [condition] = parseQuery(whereCondition(`user=${value}`));
        expect(condition).toEqual({ field: 'user', value: value.toLowerCase() });
      }),
    );
  });

  it.each([
    ['nothing', 'expected FIELD=VALUE'],
    ['=value', 'expected FIELD=VALUE'],
    [' =value', 'expected FIELD=VALUE'],
    ['my field=x', 'expected FIELD=VALUE'],
    ['1field=x', 'expected FIELD=VALUE'],
    ['user=', 'the value is empty'],
    ['user=  ', 'the value is empty'],
  ])('refuses --where %j', (where, message) => {
    expect(usageError({ where: [where] }).message).toContain(message);
  });

  it('refuses an empty --alert-type', () => {
    expect(usageError({ alertType: ' ' }).message).toBe('--alert-type: the alert type is empty');
  });
});

describe('buildReportQuery: usage errors', () => {
  it.each([
    [{ type: 'email' }, '--type: "email" is not one of application, connection, alert, network'],
    [{ groupby: 'host' }, '--groupby: "host" is not one of application, user, device, activity'],
    [{ groupby: 'activity' }, '--groupby activity needs --type application or --type alert'],
    [{ groupby: 'activity', type: 'network' }, '--groupby activity needs --type application or --type alert'],
    [{ groupby: 'activity', type: 'connection' }, '--groupby activity needs --type application or --type alert'],
    [{ period: '2h' }, '--period: "2h" is not a report period'],
    [{ period: '24h', start: '2h' }, '--period and --start cannot be used together'],
    [{ period: '24h', end: '2h' }, '--period and --end cannot be used together'],
    [{ period: '24h', start: '3h', end: '2h' }, '--period and --start cannot be used together'],
    [{ end: '2h' }, '--end needs --start'],
    [{ start: '1h', end: '2h' }, '--start (2024-05-01T11:00:00Z) must be before --end (2024-05-01T10:00:00Z)'],
    [{ start: '1714557600', end: '1714557600' }, 'must be before --end'],
    [{ start: '2024-06-01' }, '--start (2024-06-01T00:00:00Z) must be before now'],
    [{ start: 'yesterday' }, '--start: "yesterday" is not a time'],
    [{ start: '2h', end: 'soon' }, '--end: "soon" is not a time'],
    [{ insertionStart: '2h' }, '--insertion-start: "2h" is not a whole number 0 or more'],
    [{ insertionEnd: '-1' }, '--insertion-end: "-1" is not a whole number 0 or more'],
    [{ insertionStart: '5', insertionEnd: '5' }, '--insertion-start (5) must be before --insertion-end (5)'],
    [{ limit: '0' }, '--limit: "0" is not a whole number from 1 to 9999'],
    [{ limit: '10000' }, '--limit: "10000" is not a whole number from 1 to 9999'],
    [{ limit: '1.5' }, '--limit: "1.5" is not a whole number from 1 to 9999'],
    [{ limit: 'ten' }, '--limit: "ten" is not a whole number from 1 to 9999'],
    [{ limit: '' }, '--limit: "" is not a whole number from 1 to 9999'],
    [{ limit: '1e3' }, '--limit: "1e3" is not a whole number'],
    [{ skip: '-1' }, '--skip: "-1" is not a whole number 0 or more'],
    [{ skip: '0x10' }, '--skip: "0x10" is not a whole number 0 or more'],
    [{ skip: '99999999999999999999' }, '--skip: "99999999999999999999" is not a whole number 0 or more'],
  ] as Array<[ReportFlags, string]>)('%j', (flags, message) => {
    expect(usageError(flags).message).toContain(message);
  });

  it('checks activity grouping before anything else is read', () => {
    expect(usageError({ groupby: 'activity', limit: 'x' }).message).toContain('--groupby activity');
  });
});

describe('buildReportQuery: a window fixed once for --all (contract section 7)', () => {
  const fixed = (flags: ReportFlags) => buildReportQuery(flags, NOW, { fixWindow: true });

  it('turns a period into starttime/endtime at now, never timeperiod', () => {
    const query = fixed({ period: '7d' });
    expect(query.filters).toEqual([['starttime', String(NOW - 604_800)], ['endtime', String(NOW)]]);
    expect(query.window).toEqual({ start: NOW - 604_800, end: NOW });
  });

  it('turns the 24h default into a fixed window too, and still says so', () => {
    const query = fixed({});
    expect(query.filters).toEqual([['starttime', String(NOW - 86_400)], ['endtime', String(NOW)]]);
    expect(query.notes).toContain(DEFAULT_NOTE);
  });

  it('--start without --end ends at the start of the run', () => {
    expect(fixed({ start: '2h' }).window).toEqual({ start: NOW - 7200, end: NOW });
  });

  it('an insertion window alone has no event window to fix', () => {
    const query = fixed({ insertionStart: '1', insertionEnd: '2' });
    expect(query.window).toBeUndefined();
    expect(query.filters).toEqual([['insertionstarttime', '1'], ['insertionendtime', '2']]);
  });

  it('without fixWindow a period stays a timeperiod', () => {
    expect(buildReportQuery({ period: '1h' }, NOW).filters).toEqual([['timeperiod', '3600']]);
  });
});

describe('buildReportQuery: --chart', () => {
  it('needs --groupby: ungrouped events have no count to draw', () => {
    expect(usageError({ chart: true, period: '7d' }).message).toBe('--chart needs --groupby: it draws the count of each group');
    expect(params({ chart: true, groupby: 'user', period: '7d' })).toEqual([['groupby', 'user'], ['timeperiod', '604800']]);
  });
});
