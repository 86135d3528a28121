// Report tables on a terminal show Unix-second times as ISO 8601 UTC (contract section 8): in a column named
// `timestamp` or ending in `_time`, a 9- or 10-digit integer (1973 to 2286) is a time; anything else in
// such a column, and every other column, is left as it came. json, ndjson and csv never pass through here.
import { columnsOf, type ReportRecord } from './records.js';
import { isoSeconds } from '../core/time.js';

/** `timestamp`, `insertion_time`, `event_time`: the columns whose integers may be times. */
export function isTimeColumn(column: string): boolean {
  return column === 'timestamp' || column.endsWith('_time');
}

/** A 9- or 10-digit integer (a number, or a string of digits) as `2024-05-01T10:00:00Z`; else the value unchanged. */
export function isoTimeCell(value: unknown): unknown {
  const digits = typeof value === 'number' && Number.isInteger(value) ? String(value) : typeof value === 'string' ? value : '';
  if (!/^[1-9]\d{8,9}$/.test(digits)) return value;
  return isoSeconds(Number(digits));
}

/** The records with the time cells of their time columns shown as ISO 8601; the same array when there are none. */
export function withIsoTimes(records: readonly ReportRecord[]): readonly ReportRecord[] {
  const timeColumns = columnsOf(records).filter(isTimeColumn);
  if (timeColumns.length === 0) return records;
  return records.map((record) => {
    const shown: ReportRecord = { ...record };
    for (const column of timeColumns) if (column in shown) shown[column] = isoTimeCell(shown[column]);
    return shown;
  });
}
