import { describe, expect, it } from 'vitest';
import {
  JsonArrayWriter,
  NdjsonWriter,
  columnsOf,
  formatCell,
  isNumericColumn,
} from '../../src/output/records.js';
import { fitWidths } from '../../src/output/records-table.js';
import { renderRecordsTable } from './whole-records-table.js';

describe('columnsOf', () => {
  it('is the union of the keys in first-seen order', () => {
    expect(columnsOf([{ b: 1, a: 2 }, { a: 3, c: 4 }, {}, { d: null, b: 5 }])).toEqual(['b', 'a', 'c', 'd']);
  });

  it('is empty for no records', () => {
    expect(columnsOf([])).toEqual([]);
  });
});

describe('formatCell', () => {
  it.each([
    [42, '42'],
    [-1.5, '-1.5'],
    [0, '0'],
    ['text', 'text'],
    ['', ''],
    [null, ''],
    [undefined, ''],
    [true, 'true'],
    [false, 'false'],
    [{ a: 1, b: [1, 2] }, '{"a":1,"b":[1,2]}'],
    [[1, 'x'], '[1,"x"]'],
    [{}, '{}'],
  ])('%j → %j', (value, text) => {
    expect(formatCell(value)).toBe(text);
  });
});

describe('isNumericColumn', () => {
  it('wants numbers, allowing null and missing', () => {
    const records = [{ n: 1, s: 'x', m: null, mixed: 1 }, { n: 2, mixed: '2' }, { n: null }];
    expect(isNumericColumn(records, 'n')).toBe(true);
    expect(isNumericColumn(records, 's')).toBe(false);
    expect(isNumericColumn(records, 'm')).toBe(false);
    expect(isNumericColumn(records, 'mixed')).toBe(false);
    expect(isNumericColumn(records, 'absent')).toBe(false);
  });
});

describe('JsonArrayWriter', () => {
  it('writes one valid array across pages', () => {
    const writer = new JsonArrayWriter();
    const text = writer.page([{ a: 1 }, { a: 2 }]) + writer.page([]) + writer.page([{ a: 3 }]) + writer.end();
    expect(text).toBe('[\n{"a":1},\n{"a":2},\n{"a":3}\n]\n');
    expect(JSON.parse(text)).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
  });

  it('writes [] for an empty page', () => {
    const writer = new JsonArrayWriter();
    const text = writer.page([]) + writer.end();
    expect(text).toBe('[]\n');
  });

  it('writes nothing when no page came', () => {
    expect(new JsonArrayWriter().end()).toBe('');
  });

  it('ends every page on a whole record', () => {
    const writer = new JsonArrayWriter();
    const first = writer.page([{ a: 1 }, { a: 2 }]);
    expect(JSON.parse(first + writer.end())).toEqual([{ a: 1 }, { a: 2 }]);
  });
});

describe('NdjsonWriter', () => {
  it('writes a line a record', () => {
    const writer = new NdjsonWriter();
    expect(writer.page([{ a: 1 }, { b: 'x\ny' }]) + writer.page([]) + writer.end()).toBe('{"a":1}\n{"b":"x\\ny"}\n');
  });
});

const EVENTS = Array.from({ length: 5 }, (_, i) => ({
  timestamp: 1_795_306_657 - i * 100,
  insertion_time: 1_795_306_796 - i * 100,
  type: 'application',
  application: i === 0 ? 'Adobe Creative Cloud With A Very Long Name Indeed' : 'Box',
  user: `user${i}@example.com`,
  device: 'MACBOOK-0111',
  activity: 'Download',
  alert_type: i % 2 ? 'policy' : null,
  bytes: 10 ** i,
}));

function lines(text: string): string[] {
  return text.trimEnd().split('\n');
}

describe('renderRecordsTable', () => {
  it('right-aligns numbers and keeps a line a record', async () => {
    const { text, hidden } = await renderRecordsTable([{ application: 'Box', count: 5 }, { application: 'Dropbox', count: 120 }], 80);
    expect(hidden).toEqual([]);
    expect(lines(text)).toEqual([
      '┌─────────────┬───────┐',
      '│ application │ count │',
      '├─────────────┼───────┤',
      '│ Box         │     5 │',
      '│ Dropbox     │   120 │',
      '└─────────────┴───────┘',
    ]);
  });

  it.each([80, 60, 40, 20, 10])('never breaks the layout in %i columns', async (width) => {
    const columns = columnsOf(EVENTS);
    const { text, hidden } = await renderRecordsTable(EVENTS, width);
    const rows = lines(text);
    expect(rows).toHaveLength(EVENTS.length + 4);
    for (const row of rows) expect([...row].length).toBeLessThanOrEqual(width);
    expect(new Set(rows.map((r) => [...r].length)).size).toBe(1);
    expect(hidden).toEqual(columns.slice(columns.length - hidden.length));
  });

  it('cuts long text with … but never a number', async () => {
    const { text, hidden } = await renderRecordsTable(EVENTS, 80);
    expect(text).toContain('…');
    expect(text).toContain('1795306657');
    expect(text).not.toContain('Adobe Creative Cloud With A Very Long Name Indeed');
    expect(hidden.length).toBeGreaterThan(0);
  });

  it('shows everything on a wide screen', async () => {
    const { text, hidden } = await renderRecordsTable(EVENTS, 200);
    expect(hidden).toEqual([]);
    expect(text).toContain('Adobe Creative Cloud With A Very Long Name Indeed');
    expect(text).not.toContain('…');
  });

  it('shows cells with line breaks and escapes on one line', async () => {
    const { text } = await renderRecordsTable([{ note: 'a\nb', bad: '\u001b[2J' }], 80);
    expect(lines(text)).toHaveLength(5);
    expect(text).not.toContain('\u001b');
  });
});

describe('fitWidths', () => {
  it('gives the natural widths when they fit', async () => {
    expect(fitWidths([{ natural: 5, least: 5 }, { natural: 10, least: 6 }], 20)).toEqual([5, 10]);
  });

  it('shares what is left, the smallest wants first', async () => {
    expect(fitWidths([{ natural: 40, least: 6 }, { natural: 8, least: 6 }, { natural: 40, least: 6 }], 30)).toEqual([11, 8, 11]);
  });
});

describe('records written as the bytes they came in', () => {
  const pages = [[{ a: 1 }, { b: 'x' }], [], [{ c: 7196923083554021859n }], [{ d: null }]];
  const bytes = (records: readonly object[]): Buffer[] => records.map((record) => Buffer.from(JSON.stringify(record, (_k, v: unknown) => (typeof v === 'bigint' ? `@${v}` : v)).replace(/"@(\d+)"/g, '$1')));
  for (const make of [() => new JsonArrayWriter(), () => new NdjsonWriter()]) {
    it(`${make().constructor.name}: the same text as page(), whichever pages come as bytes`, () => {
      const parsed = make();
      const expected = pages.map((records) => parsed.page(records)).join('') + parsed.end();
      for (const asBytes of [[0], [1], [2, 3], [0, 1, 2, 3]]) {
        const writer = make();
        const text = pages.map((records, i) => (asBytes.includes(i) ? writer.canonicalPage(bytes(records)).toString() : writer.page(records))).join('') + writer.end();
        expect(text, String(asBytes)).toBe(expected);
      }
    });
  }
});
