// The writer of report records (output/formats.ts's `records`): each format as a RecordWriter that takes
// the records page by page.
import { CsvWriter, safeCsvText } from './csv.js';
import { visible } from '../core/service-text.js';
import { JsonArrayWriter, NdjsonWriter, type RecordWriter, type ReportRecord } from './records.js';
import type { Terminal } from './terminal.js';

export interface RecordsHow {
  /** `--csv-raw`: CSV cells exactly as received. */
  csvRaw: boolean;
  /** Tables show Unix-second times as ISO 8601 (not under --raw-time, nor off a terminal). */
  isoTimes: boolean;
  /** Keys that only later pages bring, which `where` (a header already written) has no column for. */
  laterColumns: (where: string) => (keys: string[]) => void;
  /** Columns of the first page a table leaves out because the screen is too narrow. */
  hiddenColumns: (columns: string[]) => void;
}

const RECORDS: Readonly<Record<string, (term: Terminal, how: RecordsHow) => RecordWriter | Promise<RecordWriter>>> = {
  json: () => new JsonArrayWriter(),
  ndjson: () => new NdjsonWriter(),
  // --csv-raw keeps cells as received, but on a terminal the one sanitiser still shows controls as escapes.
  csv: (term, how) => {
    const raw = term.stdoutIsTTY ? visible : (text: string) => text;
    return new CsvWriter(how.laterColumns('the CSV header'), how.csvRaw ? raw : safeCsvText, term.mask);
  },
  // Drawn page by page, in the first page's frame (records-table.ts).
  table: async (term, how) => (await import('./records-table.js')).streamTableWriter(
    term.tableWidth, term.color, how.laterColumns('the table'), how.hiddenColumns, term.mask, how.isoTimes),
};

/**
 * The records' writer for `format` (one of FORMATS.records). Among many contexts each record carries the
 * context first (a table's lines are labelled instead, output/labelled.ts), and JSON's go one a line, which
 * labelled.ts puts in the one array of every context's records.
 */
export async function recordWriter(term: Terminal, format: string, how: RecordsHow): Promise<RecordWriter> {
  if (term.label === undefined) return RECORDS[format]!(term, how);
  const writer = await RECORDS[format === 'json' ? 'ndjson' : format]!(term, how);
  return format === 'table' ? writer : new LabelledWriter(writer, term.label);
}

/**
 * Records of one context among many, `context` first. A record's own `context` is kept as `_context`: a
 * tenant's service must not be able to pass its records off as another tenant's.
 */
class LabelledWriter implements RecordWriter {
  constructor(private readonly writer: RecordWriter, private readonly label: string) {}

  page(records: readonly ReportRecord[]): string {
    return this.writer.page(records.map(({ context, ...rest }) => (context === undefined ? { context: this.label, ...rest } : { context: this.label, ...rest, _context: context })));
  }

  end(): string {
    return this.writer.end();
  }
}

/** Whether `format` takes its columns (and widths) from the first page, which must then come whole. */
export function needsWholeFirstPage(format: string): boolean {
  return format === 'csv' || format === 'table';
}
