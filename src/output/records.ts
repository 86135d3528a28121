// Report records for output: their columns, their cells as text, and the writers that turn pages of
// records into stdout text (JSON array, NDJSON; CSV in csv.ts). A writer is fed one page at a time and
// returns whole records only, so output cut short (an error, Ctrl-C) still ends on a record boundary.
import type { JsonObject } from '../api/response.js';
import { stringifyExactJson } from '../core/exact-json.js';
import { safeJsonText } from '../core/service-text.js';

export type ReportRecord = JsonObject;

const NEWLINE = Buffer.from('\n');

/** The union of the records' keys, in first-seen order. */
export function columnsOf(records: readonly ReportRecord[]): string[] {
  const seen = new Set<string>();
  for (const record of records) for (const key of Object.keys(record)) seen.add(key);
  return [...seen];
}

/**
 * `columnsOf` each page for a writer whose columns the first page fixes (CSV's header, a streamed table):
 * the keys a later page brings that no page before had go to `onNew`, once each.
 */
export function pageColumns(onNew: (keys: string[]) => void): (records: readonly ReportRecord[]) => string[] {
  const known = new Set<string>();
  let first = true;
  return (records) => {
    const columns = columnsOf(records);
    const fresh = columns.filter((key) => !known.has(key));
    if (!first && fresh.length > 0) onNew(fresh);
    first = false;
    for (const key of fresh) known.add(key);
    return columns;
  };
}

/** A value as cell text: numbers and strings as they are, null and missing as empty, objects as compact JSON. */
export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return stringifyExactJson(value) ?? '';
}

/** A column is numeric when it holds at least one number and, apart from null and missing, only numbers. */
export function isNumericColumn(records: readonly ReportRecord[], column: string): boolean {
  let numbers = 0;
  for (const record of records) {
    const value = record[column];
    if (value === null || value === undefined) continue;
    // bigint: an integer beyond 2^53, kept exact by the reader.
    if (typeof value !== 'number' && typeof value !== 'bigint') return false;
    numbers++;
  }
  return numbers > 0;
}

/** Turns pages of records into output text: `page` for each page, `end` once after the last. */
export interface RecordWriter {
  page(records: readonly ReportRecord[]): string;
  /**
   * The same for records as the bytes they came in, each already what `page` would write of it
   * (api/canonical-json.ts): written as they are. Writers that draw or convert records have none.
   */
  canonicalPage?(records: readonly Buffer[]): Buffer;
  end(): string;
}

/**
 * A JSON array written as it comes: `[`, records separated by `,\n`, `]`. Nothing is written before the
 * first page, so a request that fails at once leaves stdout empty; after that, `end` always closes the array.
 */
export class JsonArrayWriter implements RecordWriter {
  private opened = false;
  private written = 0;

  page(records: readonly ReportRecord[]): string {
    let text = this.open();
    for (const record of records) text += this.separator() + safeJsonText(stringifyExactJson(record));
    return text;
  }

  canonicalPage(records: readonly Buffer[]): Buffer {
    const parts: Buffer[] = [Buffer.from(this.open())];
    for (const record of records) parts.push(Buffer.from(this.separator()), record);
    return Buffer.concat(parts);
  }

  /** `[` before the first page, even an empty one; after that nothing. */
  private open(): string {
    if (this.opened) return '';
    this.opened = true;
    return '[';
  }

  private separator(): string {
    return this.written++ === 0 ? '\n' : ',\n';
  }

  end(): string {
    if (!this.opened) return '';
    return this.written === 0 ? ']\n' : '\n]\n';
  }
}

/** One JSON object a line. */
export class NdjsonWriter implements RecordWriter {
  page(records: readonly ReportRecord[]): string {
    let text = '';
    for (const record of records) text += safeJsonText(stringifyExactJson(record)) + '\n';
    return text;
  }

  canonicalPage(records: readonly Buffer[]): Buffer {
    return Buffer.concat(records.flatMap((record) => [record, NEWLINE]));
  }

  end(): string {
    return '';
  }
}
