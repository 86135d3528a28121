import fc from 'fast-check';
import { anyText } from './arbitraries.js';
import { describe, expect, it } from 'vitest';
import { CSV_LINE_END, CsvWriter, csvField, csvRow } from '../../src/output/csv.js';
import type { ReportRecord } from '../../src/output/records.js';

/** One page of records through a fresh writer: the whole of a set of records as CSV. */
/** RFC 4180 quoting alone: cells as received (--csv-raw), so that any text reads back as it was. */
function toCsv(records: readonly ReportRecord[]): string {
  const writer = new CsvWriter(() => {}, (text) => text);
  return writer.page(records) + writer.end();
}

/** A small RFC 4180 reader, to check that what is written reads back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i++;
      } else {
        field += c;
        i++;
      }
    } else if (c === '"') {
      quoted = true;
      i++;
    } else if (c === ',') {
      row.push(field);
      field = '';
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
    } else {
      field += c;
      i++;
    }
  }
  expect(field).toBe('');
  expect(row).toEqual([]);
  return rows;
}

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    ['with space', 'with space'],
    ["it's", "it's"],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['"', '""""'],
    ['line\nbreak', '"line\nbreak"'],
    ['cr\rhere', '"cr\rhere"'],
    ['crlf\r\n', '"crlf\r\n"'],
    ['ünïcödé ✓', 'ünïcödé ✓'],
  ])('%j → %j', (value, written) => {
    expect(csvField(value)).toBe(written);
  });
});

describe('csvRow, and CsvWriter on one page', () => {
  it('ends every row with CRLF', () => {
    expect(CSV_LINE_END).toBe('\r\n');
    expect(csvRow(['a', 'b,c'])).toBe('a,"b,c"\r\n');
  });

  it('writes a header of the union of keys, then the rows', () => {
    const text = toCsv([
      { application: 'Box', count: 3 },
      { application: 'Dropbox, Inc.', count: 2, extra: null },
      { count: 1, nested: { a: [1, 'x'] }, flag: true },
    ]);
    expect(text).toBe(
      'application,count,extra,nested,flag\r\n' +
        'Box,3,,,\r\n' +
        '"Dropbox, Inc.",2,,,\r\n' +
        ',1,,"{""a"":[1,""x""]}",true\r\n',
    );
  });

  it('writes nothing for no records', () => {
    expect(toCsv([])).toBe('');
  });

  it('reads back as written, whatever the values', () => {
    fc.assert(
      fc.property(fc.array(fc.array(anyText({ maxLength: 40 }), { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 30 }), (rows) => {
        const records = rows.map(([a, b]) => ({ a, b }));
        expect(parseCsv(toCsv(records))).toEqual([['a', 'b'], ...rows]);
      }),
    );
  });
});

describe('CsvWriter across pages', () => {
  it('writes the header once, from the first page', () => {
    const writer = new CsvWriter();
    expect(writer.page([{ a: 1, b: 2 }])).toBe('a,b\r\n1,2\r\n');
    expect(writer.page([{ a: 3, b: 4 }])).toBe('3,4\r\n');
    expect(writer.end()).toBe('');
  });

  it('waits for a page with records before writing the header', () => {
    const writer = new CsvWriter();
    expect(writer.page([])).toBe('');
    expect(writer.page([{ a: 1 }])).toBe('a\r\n1\r\n');
  });

  it('leaves out keys that later pages bring, and reports each once', () => {
    const reported: string[][] = [];
    const writer = new CsvWriter((keys) => reported.push(keys));
    writer.page([{ a: 1 }]);
    expect(writer.page([{ a: 2, z: 'new', y: 0 }, { b: 'missing a', z: 'again' }])).toBe('2\r\n\r\n');
    expect(writer.page([{ a: 3, z: 'seen', w: 1 }])).toBe('3\r\n');
    expect(reported).toEqual([['z', 'y', 'b'], ['w']]);
  });
});

describe('CSV opens safely in a spreadsheet (contract section 13)', () => {
  const row = (record: Record<string, unknown>, cells?: (text: string) => string) =>
    new CsvWriter(() => {}, cells).page([record]).split('\r\n')[1];
  it.each([
    ['=HYPERLINK("http://evil/?x","click")', `"'=HYPERLINK(""http://evil/?x"",""click"")"`],
    ['+1+cmd', "'+1+cmd"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A9)', "'@SUM(A1:A9)"],
    ['\t=1', `'\t=1`],
    ['\r=1', `"'\r=1"`],
  ])('a text cell %j gets a leading quote', (text, written) => {
    expect(row({ a: text })).toBe(written);
  });
  it('numbers, and text that is a plain number, are left alone', () => {
    expect(row({ a: -5, b: '-5', c: '+3.2e4', d: 12n, e: 'plain' })).toBe('-5,-5,+3.2e4,12,plain');
  });
  it('control and invisible characters are written as \\u and the code point; a tab or line break stays', () => {
    expect(row({ a: 'x\u001b]0;owned\u0007y', b: 'a\u200bb', c: 'two\nlines', d: 'tab\there' })).toBe('x\\u001b]0;owned\\u0007y,a\\u200bb,"two\nlines",tab\there');
  });
  it('--csv-raw writes every cell exactly as received', () => {
    expect(row({ a: '=1+1', b: 'x\u001by' }, (text) => text)).toBe('=1+1,x\u001by');
  });
  it('the header is defused too', () => {
    expect(new CsvWriter().page([{ '=cmd': 1 }]).split('\r\n')[0]).toBe("'=cmd");
  });
});
