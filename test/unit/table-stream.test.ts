// report --all as a table: pages drawn in the first page's frame (a whole table is one page of it).
import { describe, expect, it } from 'vitest';
import { streamTableWriter } from '../../src/output/records-table.js';
import { cellWidth } from '../../src/output/cell-width.js';

const page1 = [
  { user: 'alice@example.com', count: 12, request_id: 7196923083554021859n },
  { user: 'bob@example.com', count: 7, request_id: 7061151450481426778n },
];

describe('streamTableWriter', () => {
  it('draws one page whole: a frame, a line a record, its IDs never cut', async () => {
    const writer = await streamTableWriter(80, false);
    const streamed = writer.page(page1) + writer.end();
    expect(streamed.trimEnd().split('\n')).toHaveLength(page1.length + 4);
    expect(streamed).toContain('7196923083554021859');
  });

  it('draws later pages in the widths of the first, cutting longer cells, and names keys it cannot show', async () => {
    const later: string[][] = [];
    const writer = await streamTableWriter(80, false, (keys) => later.push(keys));
    const first = writer.page(page1);
    const second = writer.page([{ user: 'a-much-longer-user-name@example.com', count: 1234, device: 'LAPTOP-0001' }]);
    const lines = (first + second + writer.end()).trimEnd().split('\n');
    for (const line of lines) expect([...line].length).toBe([...lines[0]!].length);
    expect(second).toContain('…');
    expect(later).toEqual([['device']]);
    expect(writer.page([])).toBe('');
  });

  it('writes nothing at all for a report with no records', async () => {
    const writer = await streamTableWriter(80, false);
    expect(writer.page([]) + writer.end()).toBe('');
  });

  it('shows Unix-second times as ISO 8601 on every page when asked (a terminal, no --raw-time)', async () => {
    const writer = await streamTableWriter(Number.POSITIVE_INFINITY, false, undefined, undefined, undefined, true);
    const text = writer.page([{ timestamp: 1714557600, user: 'a' }]) + writer.page([{ timestamp: 1714557660, user: 'b' }]) + writer.end();
    expect(text).toContain('2024-05-01T10:00:00Z');
    expect(text).toContain('2024-05-01T10:01:00Z');
    expect(text).not.toContain('171455');
  });

  it('keeps a later page aligned when it brings wide characters the plain first page had none of', async () => {
    const writer = await streamTableWriter(80, false);
    const text = writer.page([{ user: 'abcdefgh', n: 1 }]) + writer.page([{ user: '日本語日本', n: 2 }]) + writer.end();
    const lines = text.trimEnd().split('\n');
    for (const line of lines) expect(cellWidth(line)).toBe(cellWidth(lines[0]!));
    expect(text).toContain('…');
  });

  it('sizes a column of wide characters in terminal columns: into a file (unbounded) nothing is cut', async () => {
    const writer = await streamTableWriter(Number.POSITIVE_INFINITY, false);
    const text = writer.page([{ '利用者': '日本語日本', n: 1 }, { '利用者': 'ab', n: 2 }]) + writer.end();
    expect(text).toContain('日本語日本');
    expect(text).toContain('利用者');
    expect(text).not.toContain('…');
    const lines = text.trimEnd().split('\n');
    for (const line of lines) expect(cellWidth(line)).toBe(cellWidth(lines[0]!));
  });
});
