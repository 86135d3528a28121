// The table renderer: the drawing scpctl prints (wide characters measured in columns, cut cells marked with
// …, colours only when asked), in time linear in the rows.
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

  it('a big table: one line a row, no rule between rows, drawn in linear time', async () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => [String(i + 1), `bucket-${i}`]);
    const specs = new Map([10_000, 200_000].map((n) => [n, { head: ['#', 'bucket'], widths: [6, 14], aligns: ['right', 'left'] as const, ...rowsOf(rows(n)), plain: true }]));
    // Only the drawing is timed (the rows are made before); each chunk is counted and dropped, as stdout takes it.
    const time = async (n: number): Promise<number> => {
      const started = performance.now();
      let lines = 0;
      for (const chunk of await drawTable({ ...specs.get(n)!, aligns: [...specs.get(n)!.aligns] })) lines += chunk.split('\n').length - 1;
      expect(lines).toBe(n + 4);
      return performance.now() - started;
    };
    // The fastest of three runs each, so that a collection or a busy core in one run does not decide.
    const fastest = async (n: number): Promise<number> => Math.min(await time(n), await time(n), await time(n));
    const [small, big] = [await fastest(10_000), await fastest(200_000)];
    // Twenty times the rows: about twenty times the time; quadratic would be four hundred (cli-table3 took
    // minutes for 100,000). The bound leaves room for a busy machine and still tells the two apart.
    expect(big / small, `${big.toFixed(0)} ms for 200,000 rows, ${small.toFixed(0)} ms for 10,000`).toBeLessThan(100);
    expect(big).toBeLessThan(20_000);
    const text = [...(await drawTable({ head: ['#', 'bucket'], widths: [6, 14], aligns: ['right', 'left'], ...rowsOf(rows(1000)) }))].join('');
    const lines = text.split('\n');
    expect(lines[2]).toBe('├────────┼────────────────┤');
    expect(lines[3]).toBe('│      1 │ bucket-0       │');
    expect(lines.filter((l) => l.startsWith('├'))).toHaveLength(1);
  });
});
