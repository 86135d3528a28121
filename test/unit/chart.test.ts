import { describe, expect, it } from 'vitest';
import { bar, renderChart } from '../../src/output/chart.js';
import { cellWidth } from '../../src/output/cell-width.js';

function chartText(result: ReturnType<typeof renderChart>): string {
  if (!('text' in result)) throw new Error(`no chart: ${result.note}`);
  return result.text;
}

describe('bar', () => {
  it('fills the width for the largest value', () => {
    expect(bar(10, 10, 8)).toBe('████████');
  });

  it('draws eighths of a character', () => {
    expect(bar(1, 8, 1)).toBe('▏');
    expect(bar(2, 8, 1)).toBe('▎');
    expect(bar(3, 8, 1)).toBe('▍');
    expect(bar(4, 8, 1)).toBe('▌');
    expect(bar(5, 8, 1)).toBe('▋');
    expect(bar(6, 8, 1)).toBe('▊');
    expect(bar(7, 8, 1)).toBe('▉');
    expect(bar(8, 8, 1)).toBe('█');
    expect(bar(9, 16, 2)).toBe('█▏');
  });

  it('never hides a positive value, and draws nothing for zero or less', () => {
    expect(bar(1, 1_000_000, 10)).toBe('▏');
    expect(bar(0, 10, 10)).toBe('');
    expect(bar(-5, 10, 10)).toBe('');
    expect(bar(5, 0, 10)).toBe('');
  });
});

describe('renderChart', () => {
  const grouped = [
    { application: 'Dropbox', count: 1200 },
    { application: 'Box', count: 600 },
    { application: 'Slack', count: 3 },
  ];

  it('draws the count column labelled by the first text column', () => {
    const text = chartText(renderChart(grouped, 40));
    expect(text.split('\n')).toEqual([
      'count by application',
      `Dropbox 1,200 ${'█'.repeat(26)}`,
      `Box       600 ${'█'.repeat(13)}`,
      'Slack       3 ▏',
      '',
    ]);
  });

  it('scales to the width, every line within it', () => {
    for (const width of [20, 40, 80, 200]) {
      const lines = chartText(renderChart(grouped, width)).trimEnd().split('\n');
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(width);
      expect([...lines[1]!].length).toBe(width);
    }
  });

  it('prefers count over other numeric columns', () => {
    const text = chartText(renderChart([{ bytes: 5, user: 'a', count: 2 }, { bytes: 50, user: 'b', count: 1 }], 40));
    expect(text.startsWith('count by user\n')).toBe(true);
  });

  it('draws nothing but a note when there is no numeric count (another number would mislead)', () => {
    expect(renderChart([{ user: 'a', bytes: 10, timestamp: 1714557600 }, { user: 'b', bytes: 5, timestamp: 1714557601 }], 40)).toEqual({
      note: 'nothing to chart: the answer has no numeric count column (columns: user, bytes, timestamp)',
    });
    expect(renderChart([{ user: 'a', count: '3' }], 40)).toHaveProperty('note');
  });

  it('numbers the bars when no column is text', () => {
    const text = chartText(renderChart([{ count: 2 }, { count: 1 }], 30));
    expect(text.split('\n').slice(0, 3)).toEqual(['count', `#1 2 ${'█'.repeat(25)}`, `#2 1 ${'█'.repeat(12)}▌`]);
  });

  it('cuts long labels with …', () => {
    const text = chartText(renderChart([{ user: 'a-very-long-user-name@example.com', count: 1 }], 40));
    expect(text.split('\n')[1]!.startsWith('a-very-long-u… 1 ')).toBe(true);
  });

  it('shows control characters in labels, not obeys them', () => {
    const text = chartText(renderChart([{ user: 'evil\u001b[2J', count: 1 }], 40));
    expect(text).not.toContain('\u001b');
  });

  it('draws at most maxBars and says so', () => {
    const many = Array.from({ length: 8 }, (_, i) => ({ user: `u${i}`, count: 8 - i }));
    const lines = chartText(renderChart(many, 40, 5)).trimEnd().split('\n');
    expect(lines[0]).toBe('count by user (the first 5 of 8)');
    expect(lines).toHaveLength(6);
  });

  it('shows records without a value with an empty bar', () => {
    const lines = chartText(renderChart([{ user: 'a', count: 4 }, { user: 'b', count: null }, { count: 0, user: '' }], 30)).split('\n');
    expect(lines[2]).toBe('b');
    expect(lines[3]).toBe('(none) 0');
  });

  it('gives a note when there is no numeric column', () => {
    expect(renderChart([{ user: 'a', device: 'b' }], 80)).toEqual({
      note: 'nothing to chart: the answer has no numeric count column (columns: user, device)',
    });
  });

  it('gives a note when there are no records', () => {
    expect(renderChart([], 80)).toEqual({ note: 'nothing to chart: there are no records' });
  });

  it('lines the bars up after labels of wide characters, measured in terminal columns', () => {
    const lines = chartText(renderChart([{ user: '山田太郎', count: 8 }, { user: 'bob', count: 4 }], 60)).trimEnd().split('\n').slice(1);
    expect(lines[0]).toContain('山田太郎');
    const barAt = (line: string): number => cellWidth(line.slice(0, line.search(/[█▏▎▍▌▋▊▉]/)));
    expect(barAt(lines[1]!)).toBe(barAt(lines[0]!));
  });
});
