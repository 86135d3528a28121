// The writer of report records (output/formats.ts's `records`): each format as a RecordWriter that takes
// the records page by page. A format drawn from values alone (write.ts) is written once the records are in.
import { CsvWriter } from './csv.js';
import { JsonArrayWriter, NdjsonWriter, type RecordWriter, type ReportRecord } from './records.js';
import type { Terminal } from './terminal.js';
import { drawValue } from './write.js';

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
  /** Among many contexts, its records carry a `context` field first (a table's lines are labelled instead). */
  labelled: boolean;
}

const RECORDS: Readonly<Record<string, RecordsFormat>> = {
  json: { make: () => new JsonArrayWriter(), wholeFirst: false, labelled: true },
  ndjson: { make: () => new NdjsonWriter(), wholeFirst: false, labelled: true },
  csv: { make: (term, how) => new CsvWriter(how.laterColumns('the CSV header'), { cells: how.csvRaw ? 'raw' : 'safe', terminal: term.stdoutIsTTY }), wholeFirst: true, labelled: true },
  // Drawn page by page, in the first page's frame (table-stream.ts).
  table: {
    make: async (term, how) => (await import('./table-stream.js')).streamTableWriter(term.tableWidth, term.color, how.laterColumns('the table'), how.hiddenColumns, term.mask),
    wholeFirst: true,
    labelled: false,
  },
};

/** The records' writer for `format`. */
export async function recordWriter(term: Terminal, format: string, how: RecordsHow): Promise<RecordWriter> {
  const known = Object.hasOwn(RECORDS, format) ? RECORDS[format]! : undefined;
  const writer = known ? await known.make(term, how) : new ValueWriter(format);
  return term.label !== undefined && known?.labelled ? new LabelledWriter(writer, term.label) : writer;
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
  return Object.hasOwn(RECORDS, format) ? RECORDS[format]!.wholeFirst : true;
}

/** Records drawn from their value once all are in (a format of write.ts's). */
class ValueWriter implements RecordWriter {
  private readonly records: ReportRecord[] = [];
  constructor(private readonly format: string) {}

  page(records: readonly ReportRecord[]): string {
    this.records.push(...records);
    return '';
  }

  end(): string {
    return drawValue(this.format, this.records);
  }
}
