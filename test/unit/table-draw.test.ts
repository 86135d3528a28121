// The streaming table renderer draws exactly what cli-table3 draws, in time linear in the rows.
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runs } from './property-runs.js';
import { createRequire } from 'node:module';
import { drawTable, drawWithCliTable, rowsOf, SMALL_TABLE_ROWS, streamTable, widthUtils, type TableSpec } from '../../src/output/table-draw.js';
import { truncate } from '../../src/output/text.js';

// cli-table3 colours through @colors/colors, which decides by itself from the environment (CI=true turns it
// off): each case sets it the way the spec asks for colours, so that the comparison is of drawings, not of
// settings. (scpctl hands cli-table3 no colour styles at all where it wants none.)
const cliTableColours = createRequire(import.meta.url)('@colors/colors/safe') as { enabled: boolean; enable(): void; disable(): void };
const colourWas = cliTableColours.enabled;
function colours(on: boolean): void {
  if (on) cliTableColours.enable();
  else cliTableColours.disable();
}
afterEach(() => colours(colourWas));

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
interface RawSpec {
  head: string[];
  widths: number[];
  aligns: Array<'left' | 'right'>;
  rows: string[][];
}
/** Cells cut to their widths, as the callers hand them over. */
const cut = (spec: RawSpec): TableSpec => ({
  ...spec,
  head: spec.head.map((h, i) => truncate(h, spec.widths[i]!)),
  ...rowsOf(spec.rows.map((row) => row.map((c, i) => truncate(c, spec.widths[i]!)))),
});

describe('streamTable', () => {
  it.each([false, true])('draws what cli-table3 draws (colours %s)', async (colour) => {
    colours(colour);
    await fc.assert(
      fc.asyncProperty(specArb, async (raw) => {
        const spec = { ...cut(raw), color: colour };
        const byCliTable = await drawWithCliTable(spec);
        // what scpctl prints: cli-table3's drawing without colours, the streaming renderer's with them
        expect([...(await drawTable(spec))].join('')).toBe(byCliTable);
        // our measure of cells (output/cell-width.ts), drawn by the streaming renderer, against cli-table3's drawing
        expect([...streamTable(spec, await widthUtils(false))].join('')).toBe(byCliTable);
      }),
      { numRuns: runs(300) },
    );
  });

  it.each([false, true])('a big table of plain ASCII, streamed without cli-table3, is what cli-table3 draws (colours %s)', async (colour) => {
    colours(colour);
    const rows = Array.from({ length: SMALL_TABLE_ROWS + 100 }, (_, i) => [String(i * 7919), `name-${i}`.slice(0, 9), i % 3 ? 'x' : '']);
    const spec: TableSpec = { head: ['n', 'name', 'z'], widths: [7, 9, 1], aligns: ['right', 'left', 'left'], ...rowsOf(rows), plain: true, color: colour };
    expect([...(await drawTable(spec))].join('')).toBe(await drawWithCliTable(spec));
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
