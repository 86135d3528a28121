// The writer of report records (output/formats.ts's `records`): each format as a RecordWriter that takes
// the records page by page.
import { CsvWriter } from './csv.js';
import { JsonArrayWriter, NdjsonWriter, type RecordWriter, type ReportRecord } from './records.js';
import type { Terminal } from './terminal.js';

export interface RecordsHow {
  /** `--csv-raw`: CSV cells exactly as received. */
  csvRaw: boolean;
  /** Keys that only later pages bring, which `where` (a header already written) has no column for. */
  laterColumns: (where: string) => (keys: string[]) => void;
  /** Columns of the first page a table leaves out because the screen is too narrow. */
  hiddenColumns: (columns: string[]) => void;
}

interface RecordsFormat {
  make(term: Terminal, how: RecordsHow): RecordWriter | Promise<RecordWriter>;
  /** It takes its columns (and widths) from the first page, which must come whole. */
  wholeFirst: boolean;
}

const RECORDS: Readonly<Record<string, RecordsFormat>> = {
  json: { make: () => new JsonArrayWriter(), wholeFirst: false },
  ndjson: { make: () => new NdjsonWriter(), wholeFirst: false },
  csv: { make: (term, how) => new CsvWriter(how.laterColumns('the CSV header'), { cells: how.csvRaw ? 'raw' : 'safe', terminal: term.stdoutIsTTY }), wholeFirst: true },
  // Drawn page by page, in the first page's frame (table-stream.ts).
  table: {
    make: async (term, how) => (await import('./table-stream.js')).streamTableWriter(term.tableWidth, term.color, how.laterColumns('the table'), how.hiddenColumns, term.mask),
    wholeFirst: true,
  },
};

/**
 * The records' writer for `format` (one of FORMATS.records). Among many contexts each record carries the
 * context first (a table's lines are labelled instead, output/labelled.ts), and JSON's go one a line, which
 * labelled.ts puts in the one array of every context's records.
 */
export async function recordWriter(term: Terminal, format: string, how: RecordsHow): Promise<RecordWriter> {
  if (term.label === undefined) return RECORDS[format]!.make(term, how);
  const writer = await RECORDS[format === 'json' ? 'ndjson' : format]!.make(term, how);
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

/** Whether `format` takes its columns from the first page, which must then come whole. */
export function needsWholeFirstPage(format: string): boolean {
  return RECORDS[format]!.wholeFirst;
}
