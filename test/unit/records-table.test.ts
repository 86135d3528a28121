// Tables on a narrow terminal (issue 24, point 8): free text shrinks and is cut first; numbers, IDs and ISO
// times are never cut (a cut one reads as another); columns that do not fit at all are left out and named.
import { describe, expect, it } from 'vitest';
import { cellText, tableFrame } from '../../src/output/records-table.js';
import { renderRecordsTable } from './whole-records-table.js';

const records = [
  { _id: '7600847029552414000', time: '2026-11-25T02:11:39Z', user: 'someone@example.com', message: 'a long free-text message that goes on and on', hash: '3f9a1c0de2b74a6f8e5d' },
  { _id: '7600847029552414001', time: '2026-11-25T02:12:40Z', user: 'other@example.com', message: 'short', hash: '00aa11bb22cc33dd44ee' },
];
const columns = Object.keys(records[0]!);
const cells = records.map((r) => columns.map((c) => cellText((r as Record<string, unknown>)[c])));

describe('a table narrower than its records', () => {
  it('cuts free text first and never an ID, a time or a hex ID', async () => {
    const frame = tableFrame(records, columns, cells, 100);
    const width = (name: string) => frame.widths[frame.columns.indexOf(name)]!;
    expect(frame.hidden).toEqual([]);
    expect(width('_id')).toBe(19);
    expect(width('time')).toBe(20);
    expect(width('hash')).toBe(20);
    expect(width('message')).toBeLessThan('a long free-text message that goes on and on'.length);
    const { text } = await renderRecordsTable(records, 100);
    expect(text).toContain('7600847029552414000');
    expect(text).toContain('2026-11-25T02:12:40Z');
    expect(text).toContain('…');
    for (const line of text.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(100);
  });

  it('leaves out a column that cannot fit whole rather than cutting its IDs', () => {
    const frame = tableFrame(records, columns, cells, 40);
    expect(frame.columns).toEqual(['_id']);
    expect(frame.widths[0]).toBe(19);
  });

  it('an unbounded width (a file or a pipe) keeps every cell whole', async () => {
    const { text, hidden } = await renderRecordsTable(records, Number.POSITIVE_INFINITY);
    expect(hidden).toEqual([]);
    expect(text).not.toContain('…');
    expect(text).toContain('a long free-text message that goes on and on');
  });
});
