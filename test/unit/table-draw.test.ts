// The table renderer: the drawing scpctl prints (wide characters measured in columns, cut cells marked with
// …, colours only when asked); its time at 200,000 rows is test/load/linear-time.test.ts's.
import { describe, expect, it } from 'vitest';
import { drawTable, type TableSpec } from '../../src/output/table-draw.js';
import { truncate } from '../../src/output/text.js';

const rowsOf = (rows: ReadonlyArray<readonly string[]>): Pick<TableSpec, 'rowCount' | 'row'> => ({ rowCount: rows.length, row: (i) => rows[i]! });

const widths = [3, 6, 4];
const small = (color: boolean): TableSpec => {
  const rows = [['1', 'naïve café', '日本語'], ['22', '😀x', 'ab'], ['333', '', '1234567890']].map((row) => row.map((c, i) => truncate(c, widths[i]!)));
  return { head: ['#', 'name', 'wide'], widths, aligns: ['right', 'left', 'left'], ...rowsOf(rows), color };
};

describe('drawTable', () => {
  it('draws a small table: wide characters take two columns, cut cells end in …, one rule under the header', async () => {
    expect([...(await drawTable(small(false)))].join('')).toBe(
      '┌─────┬────────┬──────┐\n│   # │ name   │ wide │\n├─────┼────────┼──────┤\n' +
        '│   1 │ naïve… │ 日…  │\n│  22 │ 😀x    │ ab   │\n│ 333 │        │ 123… │\n└─────┴────────┴──────┘\n',
    );
  });

  it('in colour: grey borders and a cyan header, the same characters', async () => {
    const text = [...(await drawTable(small(true)))].join('');
    expect(text).toContain('\u001b[90m│\u001b[39m');
    expect(text).toContain('\u001b[36m name   \u001b[39m');
    expect(text.replace(/\u001b\[\d+m/g, '')).toBe([...(await drawTable(small(false)))].join(''));
  });

});
