import { describe, expect, it } from 'vitest';
import { isTimeColumn, isoTimeCell, withIsoTimes } from '../../src/output/records-table.js';

describe('isTimeColumn', () => {
  it('is timestamp and every column ending in _time', () => {
    for (const column of ['timestamp', 'insertion_time', 'event_time', '_time']) expect(isTimeColumn(column), column).toBe(true);
    for (const column of ['time', 'timestamps', 'Timestamp', 'time_zone', 'count', 'user']) expect(isTimeColumn(column), column).toBe(false);
  });
});

describe('isoTimeCell', () => {
  it('shows 9- and 10-digit integers as ISO 8601 UTC, without milliseconds', () => {
    expect(isoTimeCell(1714557600)).toBe('2024-05-01T10:00:00Z');
    expect(isoTimeCell('1714557600')).toBe('2024-05-01T10:00:00Z');
    expect(isoTimeCell(100000000)).toBe('1973-03-03T09:46:40Z');
    expect(isoTimeCell(9999999999)).toBe('2286-11-20T17:46:39Z');
  });

  it('leaves everything else as it came', () => {
    for (const value of [99999999, 10000000000, 1714557600123, 1714557600.5, -1714557600, '0714557600', '2024-05-01', 'soon', null, undefined, true, { t: 1 }]) {
      expect(isoTimeCell(value)).toBe(value);
    }
  });
});

describe('withIsoTimes', () => {
  it('changes only the time columns, and returns copies', () => {
    const records = [{ timestamp: 1714557600, insertion_time: 1714557660, count: 1714557600, user: '1714557600' }, { user: 'b' }];
    const shown = withIsoTimes(records);
    expect(shown).toEqual([
      { timestamp: '2024-05-01T10:00:00Z', insertion_time: '2024-05-01T10:01:00Z', count: 1714557600, user: '1714557600' },
      { user: 'b' },
    ]);
    expect(records[0]!.timestamp).toBe(1714557600);
  });

  it('is the same array when no column is a time', () => {
    const records = [{ user: 'a', count: 2 }];
    expect(withIsoTimes(records)).toBe(records);
  });
});
