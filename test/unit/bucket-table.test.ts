// The bucket table drawn from the view answer's bytes is the table drawn from the names, byte for byte.
import { describe, expect, it } from 'vitest';
import { renderBucketTable } from '../../src/output/bucket-table.js';
import { palette } from '../../src/output/palette.js';

const joined = async (chunks: Iterable<string | Buffer>): Promise<string> => Buffer.concat([...chunks].map((c) => (typeof c === 'string' ? Buffer.from(c) : c))).toString('utf8');
const names = (count: number, long = 0): string[] =>
  Array.from({ length: count }, (_, i) => (i % 97 === 5 ? `b-${i}-${'y'.repeat(long)}` : `bucket-${i.toString(36)}`));

describe('renderBucketTable from bytes', () => {
  for (const [label, list, columns, colour] of [
    ['2,500 plain names', names(2_500), 80, false],
    ['names cut at a narrow width', names(1_200, 90), 40, false],
    ['in colour', names(700, 20), 60, true],
    ['a small list in colour', names(3), 80, true],
    ['a small list without colour', names(12), 80, false],
    ['an empty name among them', [...names(600), '', 'last'], 80, false],
    ['no names', [], 80, false],
    ['no names in colour', [], 80, true],
  ] as const) {
    it(`draws what the names draw: ${label}`, async () => {
      const paint = palette(colour);
      const fromNames = await joined(await renderBucketTable('prod', list, columns, paint));
      const fromBytes = await joined(await renderBucketTable('prod', Buffer.from(list.join('\n')), columns, paint));
      expect(fromBytes).toBe(fromNames);
      expect(fromNames.split('\n').length).toBeGreaterThan(list.length);
    });
  }

  it('draws names that are not printable ASCII from the names, escaped and measured', async () => {
    const list = [...names(800), 'bücket-ünïcode', 'wide-名前', 'bell\u0007name'];
    const fromBytes = await joined(await renderBucketTable('prod', Buffer.from(list.join('\n')), 80));
    expect(fromBytes).toBe(await joined(await renderBucketTable('prod', list, 80)));
    expect(fromBytes).toContain('bell\\x07name');
    expect(fromBytes).not.toContain('\u0007');
  });

  it('cuts a name longer than the screen with … and keeps every line the same width', async () => {
    const text = await joined(await renderBucketTable('prod', Buffer.from([...names(600), 'z'.repeat(200)].join('\n')), 50));
    const lines = text.split('\n').slice(1, -1);
    expect(new Set(lines.map((l) => [...l].length)).size).toBe(1);
    expect(text).toContain(`${'z'.repeat(39)}… │`);
  });

  it('sizes the column in terminal columns: a name of wide characters is never cut into a file', async () => {
    const text = await joined(await renderBucketTable('prod', ['日本語日本語日本', 'ab'], Number.POSITIVE_INFINITY));
    expect(text).toContain('│ 日本語日本語日本 │');
    expect(text).not.toContain('…');
  });
});
