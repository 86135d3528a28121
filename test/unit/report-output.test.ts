// report --all's output on a terminal: a table kept for the pager, but never more than KEEP_FOR_PAGER of it.
import { describe, expect, it } from 'vitest';
import { KEEP_FOR_PAGER, ReportOutput } from '../../src/output/report-output.js';
import type { Terminal } from '../../src/output/terminal.js';

function fakeTerminal() {
  const written: string[] = [];
  const paged: string[][] = [];
  const term = { out: (text: string) => void written.push(text), page: async (chunks: string[]) => void paged.push([...chunks]) };
  return { ctx: term as unknown as Terminal, written, paged };
}

describe('ReportOutput', () => {
  it('keeps a table for the pager and shows it at the end', async () => {
    const { ctx, written, paged } = fakeTerminal();
    const output = new ReportOutput(ctx, true, () => expect.unreachable('it never streams'));
    output.write('top\n');
    output.write('row\n');
    expect(written).toEqual([]);
    await output.finish();
    expect(paged).toEqual([['top\n', 'row\n']]);
  });

  it('past the bound, writes what it kept and streams the rest: memory does not grow with the records', async () => {
    const { ctx, written, paged } = fakeTerminal();
    let streaming = 0;
    const output = new ReportOutput(ctx, true, () => streaming++);
    const chunk = 'x'.repeat(1_000_000);
    for (let i = 0; i * chunk.length <= KEEP_FOR_PAGER; i++) output.write(chunk);
    expect(streaming).toBe(1);
    expect(written).toHaveLength(1);
    expect(written[0]!.length).toBeGreaterThan(KEEP_FOR_PAGER);
    output.write('after\n');
    expect(written.at(-1)).toBe('after\n');
    await output.finish();
    expect(paged).toEqual([]);
    expect(streaming).toBe(1);
  });

  it('not keeping (piped, or not a table): every write goes to stdout at once', async () => {
    const { ctx, written, paged } = fakeTerminal();
    const output = new ReportOutput(ctx, false, () => expect.unreachable());
    output.write('a');
    output.flush();
    await output.finish();
    expect(written).toEqual(['a']);
    expect(paged).toEqual([]);
  });
});
