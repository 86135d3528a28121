import { describe, it, expect } from 'vitest';
import { APPLICATIONS, generateEvents, mulberry32 } from '../../src/emulator/events.js';
import { filterEvents, groupEvents, parseQuery, parseReportParams, QueryError, runReport } from '../../src/emulator/reports.js';
import { ApiError } from '../../src/emulator/http.js';
import type { EmuEvent } from '../../src/emulator/events.js';
import { parseFault } from '../../src/emulator/faults.js';
import { buildEmulatorOptions } from '../../src/commands/emulator/index.js';

const NOW = 1_700_000_000;

function ev(partial: Partial<EmuEvent>): EmuEvent {
  return {
    timestamp: NOW - 10,
    insertion_time: NOW - 5,
    type: 'application',
    application: 'Dropbox',
    user: 'alice@example.com',
    device: 'LAPTOP-0001',
    activity: 'Upload',
    bytes: 1000,
    ...partial,
  };
}

describe('mulberry32', () => {
  it('is deterministic and stays in [0, 1)', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    for (let i = 0; i < 1000; i++) {
      const x = a();
      expect(x).toBe(b());
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });
});

describe('generateEvents', () => {
  it('gives the same events for the same count, seed and now', () => {
    expect(generateEvents(500, 3, NOW)).toEqual(generateEvents(500, 3, NOW));
  });

  it('gives different events for a different seed', () => {
    expect(generateEvents(500, 3, NOW)).not.toEqual(generateEvents(500, 4, NOW));
  });

  it('spreads events over the last 30 days, newest first, with plausible fields', () => {
    const events = generateEvents(5000, 1, NOW);
    expect(events).toHaveLength(5000);
    // Plain checks in the loop (expect() per field per event would dominate the run time).
    const bad = events.filter(
      (e, i) =>
        e.timestamp > NOW ||
        e.timestamp <= NOW - 2592000 ||
        e.insertion_time < e.timestamp ||
        e.insertion_time > e.timestamp + 300 ||
        !APPLICATIONS.includes(e.application) ||
        !/^[a-z]+\d*@example\.com$/.test(e.user) ||
        !/^[A-Z]+-\d{4}$/.test(e.device) ||
        (e.alert_type !== undefined) !== (e.type === 'alert') ||
        (i > 0 && e.timestamp > events[i - 1].timestamp),
    );
    expect(bad).toEqual([]);
    const users = new Set(events.map((e) => e.user));
    expect(users.size).toBeGreaterThan(100);
    expect(users.size).toBeLessThanOrEqual(250);
    expect(new Set(events.map((e) => e.type)).size).toBe(4);
  });

  it('handles zero events', () => {
    expect(generateEvents(0, 1, NOW)).toEqual([]);
  });
});

describe('parseQuery', () => {
  it('parses conditions joined by and, keywords in any case', () => {
    expect(parseQuery('app eq Dropbox AND user EQ alice@example.com')).toEqual([
      { field: 'application', value: 'dropbox' },
      { field: 'user', value: 'alice@example.com' },
    ]);
  });

  it('accepts single- and double-quoted values with spaces', () => {
    expect(parseQuery(`application eq 'Microsoft Teams'`)).toEqual([{ field: 'application', value: 'microsoft teams' }]);
    expect(parseQuery(`application eq "Google Drive" and activity eq Share`)).toEqual([
      { field: 'application', value: 'google drive' },
      { field: 'activity', value: 'share' },
    ]);
    expect(parseQuery(`user eq 'o\\'brien'`)).toEqual([{ field: 'user', value: "o'brien" }]);
  });

  it('treats a blank query as no condition', () => {
    expect(parseQuery('   ')).toEqual([]);
  });

  it.each([
    ['app eq', /expected a value/],
    ['app', /expected 'eq'/],
    ['app ne Dropbox', /only 'eq'/],
    ['colour eq red', /unknown field 'colour'/],
    ['constructor eq x', /unknown field/],
    [`app eq 'Dropbox`, /unterminated/],
    ['app eq Dropbox or user eq bob', /expected 'and'/],
    ['app eq Dropbox and', /after 'and'/],
  ])('rejects %j', (query, message) => {
    expect(() => parseQuery(query)).toThrow(QueryError);
    expect(() => parseQuery(query)).toThrow(message);
  });
});

describe('parseReportParams', () => {
  it('applies defaults', () => {
    expect(parseReportParams({ timeperiod: '86400' })).toEqual({
      timeperiod: 86400,
      query: [],
      limit: 9999,
      skip: 0,
    });
  });

  it.each([
    [{ timeperiod: '3600', type: 'bogus' }, /Invalid type 'bogus'/],
    [{ timeperiod: '3600', groupby: 'colour' }, /Invalid groupby/],
    [{ timeperiod: '3600', groupby: 'activity' }, /activity is only available/],
    [{ timeperiod: '3600', groupby: 'activity', type: 'network' }, /activity is only available/],
    [{ timeperiod: '100' }, /Invalid timeperiod/],
    [{}, /A time window is required/],
    [{ starttime: '10' }, /together/],
    [{ starttime: '10', endtime: '10' }, /less than endtime/],
    [{ starttime: 'x', endtime: '10' }, /starttime must be an integer/],
    [{ timeperiod: '3600', limit: '10000' }, /limit must be less than 10000/],
    [{ timeperiod: '3600', limit: '0' }, /positive integer/],
    [{ timeperiod: '3600', skip: '-1' }, /skip/],
    [{ timeperiod: '3600', query: 'app eq' }, /^Invalid query: /],
  ])('rejects %j', (params, message) => {
    expect(() => parseReportParams(params)).toThrow(ApiError);
    expect(() => parseReportParams(params)).toThrow(message);
  });

  it('accepts activity grouping for application and alert, and insertion-only windows', () => {
    expect(parseReportParams({ timeperiod: '3600', groupby: 'activity', type: 'alert' }).groupby).toBe('activity');
    expect(parseReportParams({ timeperiod: '3600', groupby: 'activity', type: 'application' }).type).toBe('application');
    expect(parseReportParams({ insertionstarttime: '5' }).insertionstarttime).toBe(5);
    expect(parseReportParams({ timeperiod: '3600', limit: '9999', skip: '20000' })).toMatchObject({
      limit: 9999,
      skip: 20000,
    });
  });
});

describe('filterEvents', () => {
  const events = [
    ev({ timestamp: NOW - 100, insertion_time: NOW - 50, application: 'Microsoft Teams' }),
    ev({ timestamp: NOW - 4000, insertion_time: NOW - 3900, type: 'alert', alert_type: 'dlp' }),
    ev({ timestamp: NOW - 90000, insertion_time: NOW - 89900, user: 'bob@example.com' }),
  ];

  it('keeps t > now - timeperiod', () => {
    const p = parseReportParams({ timeperiod: '3600' });
    expect(filterEvents(events, p, NOW)).toEqual([events[0]]);
    expect(filterEvents(events, parseReportParams({ timeperiod: '86400' }), NOW)).toHaveLength(2);
  });

  it('keeps starttime < t <= endtime', () => {
    const p = parseReportParams({ starttime: String(NOW - 4000), endtime: String(NOW - 100) });
    expect(filterEvents(events, p, NOW)).toEqual([events[0]]);
    const q = parseReportParams({ starttime: String(NOW - 4001), endtime: String(NOW - 101) });
    expect(filterEvents(events, q, NOW)).toEqual([events[1]]);
  });

  it('filters on insertion time with either bound', () => {
    expect(filterEvents(events, parseReportParams({ insertionstarttime: String(NOW - 3900) }), NOW)).toEqual([
      events[0],
    ]);
    expect(filterEvents(events, parseReportParams({ insertionendtime: String(NOW - 3900) }), NOW)).toEqual([
      events[1],
      events[2],
    ]);
  });

  it('filters on type and on the query, case-insensitively', () => {
    const all = { timeperiod: '2592000' };
    expect(filterEvents(events, parseReportParams({ ...all, type: 'alert' }), NOW)).toEqual([events[1]]);
    expect(filterEvents(events, parseReportParams({ ...all, query: `app eq 'microsoft TEAMS'` }), NOW)).toEqual([
      events[0],
    ]);
    expect(filterEvents(events, parseReportParams({ ...all, query: 'alert_type eq DLP' }), NOW)).toEqual([events[1]]);
    expect(
      filterEvents(events, parseReportParams({ ...all, query: 'user eq bob@example.com and app eq dropbox' }), NOW),
    ).toEqual([events[2]]);
  });
});

describe('groupEvents and runReport', () => {
  const events = [
    ev({ application: 'Slack' }),
    ev({ application: 'Box' }),
    ev({ application: 'Slack' }),
    ev({ application: 'Asana' }),
    ev({ application: 'Box' }),
    ev({ application: 'Zoom' }),
  ];

  it('orders groups by count descending, then value ascending', () => {
    expect(groupEvents(events, 'application')).toEqual([
      { application: 'Box', count: 2 },
      { application: 'Slack', count: 2 },
      { application: 'Asana', count: 1 },
      { application: 'Zoom', count: 1 },
    ]);
  });

  it('applies skip and limit after grouping', () => {
    const p = parseReportParams({ timeperiod: '3600', groupby: 'application', skip: '1', limit: '2' });
    expect(runReport(events, p, NOW)).toEqual([
      { application: 'Slack', count: 2 },
      { application: 'Asana', count: 1 },
    ]);
  });

  it('pages through ungrouped events without gaps or repeats', () => {
    const many = generateEvents(2500, 9, NOW);
    const pages: EmuEvent[] = [];
    for (let skip = 0; ; skip += 1000) {
      const page = runReport(many, parseReportParams({ timeperiod: '2592000', limit: '1000', skip: String(skip) }), NOW);
      pages.push(...(page as EmuEvent[]));
      if (page.length < 1000) break;
    }
    expect(pages).toEqual(many);
  });

  it('group counts add up to the number of matching events', () => {
    const many = generateEvents(3000, 2, NOW);
    const p = parseReportParams({ timeperiod: '604800', type: 'application' });
    const matching = filterEvents(many, p, NOW);
    const groups = groupEvents(matching, 'user');
    expect(groups.reduce((n, g) => n + (g.count as number), 0)).toBe(matching.length);
  });
});

describe('the faults a test queues', () => {
  it('are refused for a misspelled field, a value a field cannot take, or a field the kind needs missing', () => {
    expect(parseFault({ kind: 'status', status: 429, headers: { 'Retry-After': '1' }, count: 2 })).toEqual({ kind: 'status', status: 429, headers: { 'Retry-After': '1' }, count: 2 });
    expect(parseFault({ kind: 'html' })).toEqual({ kind: 'html', count: 1 });
    expect(() => parseFault({ kind: 'status', stauts: 500 }, 3)).toThrow(/^faults\[3\]: a status fault needs status$/);
    expect(() => parseFault({ kind: 'html', cuont: 2 })).toThrow(/cuont is no field of a fault/);
    expect(() => parseFault({ kind: 'delay', ms: -1 })).toThrow(/ms is no field of a fault, or not a value it takes/);
    expect(() => parseFault({ kind: 'hnag' })).toThrow(/kind is one of status, html/);
  });
});

describe("the emulator's whole-number flags", () => {
  const base = { host: '127.0.0.1', port: '0', events: '10', seed: '1', pendingMs: '0' };
  it('go through the one whole-number parser, naming the flag; a seed is 32 bits unsigned', () => {
    expect(buildEmulatorOptions({ ...base, seed: '4294967295', pageCap: '5000' })).toMatchObject({ seed: 4294967295, pageCap: 5000, port: 0 });
    expect(buildEmulatorOptions(base).pageCap).toBeUndefined();
    expect(() => buildEmulatorOptions({ ...base, port: '65536' })).toThrow('--port: "65536" is not a whole number from 0 to 65535');
    expect(() => buildEmulatorOptions({ ...base, seed: '-1' })).toThrow('--seed: "-1" is not a whole number from 0 to 4294967295');
    expect(() => buildEmulatorOptions({ ...base, events: '1e3' })).toThrow(/^--events: /);
  });
});
