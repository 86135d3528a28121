// The streaming table renderer draws exactly what cli-table3 draws, in time linear in the rows.
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import utils from 'cli-table3/src/utils.js';
import { drawTable, SMALL_TABLE_ROWS, streamTable, type TableSpec } from '../../src/output/table-draw.js';
import { paint } from '../../src/output/terminal.js';
import { truncate } from '../../src/output/text.js';

const colourWas = paint.enabled;
afterEach(() => {
  paint.enabled = colourWas;
});

const cellArb = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'ab z-.09'.split('')), maxLength: 14 }),
  fc.constantFrom('', 'é', '日本語', 'naïve café', '😀x', '1234567890123'),
);
const specArb = fc.integer({ min: 1, max: 4 }).chain((columns) =>
  fc.record({
    widths: fc.array(fc.integer({ min: 1, max: 12 }), { minLength: columns, maxLength: columns }),
    aligns: fc.array(fc.constantFrom<'left' | 'right'>('left', 'right'), { minLength: columns, maxLength: columns }),
    head: fc.array(cellArb, { minLength: columns, maxLength: columns }),
    rows: fc.array(fc.array(cellArb, { minLength: columns, maxLength: columns }), { minLength: 1, maxLength: 12 }),
  }),
);
/** Cells cut to their widths, as the callers hand them over. */
const cut = (spec: TableSpec): TableSpec => ({
  ...spec,
  head: spec.head.map((h, i) => truncate(h, spec.widths[i]!)),
  rows: spec.rows.map((row) => row.map((c, i) => truncate(c, spec.widths[i]!))),
});

describe('streamTable', () => {
  it.each([false, true])('draws what cli-table3 draws (colours %s)', async (colour) => {
    paint.enabled = colour;
    await fc.assert(
      fc.asyncProperty(specArb, async (raw) => {
        const spec = cut(raw);
        const [byCliTable] = [...(await drawTable(spec))];
        expect([...streamTable(spec, utils)].join('')).toBe(byCliTable);
      }),
      { numRuns: 300 },
    );
  });

  it('a big table: one line a row, no rule between rows, drawn in linear time', async () => {
    paint.enabled = false;
    const rows = (n: number) => Array.from({ length: n }, (_, i) => [String(i + 1), `bucket-${i}`]);
    const time = async (n: number): Promise<number> => {
      const started = performance.now();
      const text = [...(await drawTable({ head: ['#', 'bucket'], widths: [6, 14], aligns: ['right', 'left'], rows: rows(n) }))].join('');
      expect(text.split('\n').length).toBe(n + 5);
      return performance.now() - started;
    };
    await time(SMALL_TABLE_ROWS + 1);
    const [small, big] = [await time(20_000), await time(200_000)];
    // Ten times the rows: about ten times the time (quadratic would be a hundred); generous for a busy machine.
    expect(big / small).toBeLessThan(30);
    const text = [...(await drawTable({ head: ['#', 'bucket'], widths: [6, 14], aligns: ['right', 'left'], rows: rows(1000) }))].join('');
    const lines = text.split('\n');
    expect(lines[2]).toBe('├────────┼────────────────┤');
    expect(lines[3]).toBe('│      1 │ bucket-0       │');
    expect(lines.filter((l) => l.startsWith('├'))).toHaveLength(1);
  });
});
