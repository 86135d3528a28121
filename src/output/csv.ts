// CSV as RFC 4180 has it: a header row, fields joined by commas, a field quoted when it holds a comma, a
// double quote, CR or LF (the quote doubled inside), and CRLF after every row, the RFC's line end (every CSV
// reader accepts it; `tr -d '\r'` turns it into LF). Values are written as formatCell gives them: numbers as
// they are, null and missing as empty fields, nested objects as compact JSON.
//
// Streaming: the header is written with the first page, from the union of that page's keys. The header
// cannot change afterwards, so keys that only later pages bring are left out of the rows, and the writer
// reports them (the command warns once on stderr and suggests -o ndjson, which keeps every key).
import { columnsOf, formatCell, type RecordWriter, type ReportRecord } from './records.js';

export const CSV_LINE_END = '\r\n';

/** One field, quoted when it must be. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One row with its line end. */
export function csvRow(fields: readonly string[]): string {
  return fields.map(csvField).join(',') + CSV_LINE_END;
}

export class CsvWriter implements RecordWriter {
  private columns: string[] | undefined;
  private readonly known = new Set<string>();

  /**
   * @param onNewColumns called with the keys a later page brought that the header lacks, once per key.
   * @param cellText turns each cell's text into what is written: on a terminal, `visible`, so that a
   *   record cannot drive it; into a file or pipe, the text as it is.
   */
  constructor(
    private readonly onNewColumns: (keys: string[]) => void = () => {},
    private readonly cellText: (text: string) => string = (text) => text,
  ) {}

  page(records: readonly ReportRecord[]): string {
    if (records.length === 0) return '';
    let text = '';
    if (this.columns === undefined) {
      this.columns = columnsOf(records);
      for (const column of this.columns) this.known.add(column);
      text += csvRow(this.columns.map(this.cellText));
    } else {
      const fresh = columnsOf(records).filter((key) => !this.known.has(key));
      if (fresh.length > 0) {
        for (const key of fresh) this.known.add(key);
        this.onNewColumns(fresh);
      }
    }
    const columns = this.columns;
    for (const record of records) text += csvRow(columns.map((column) => this.cellText(formatCell(record[column]))));
    return text;
  }

  end(): string {
    return '';
  }
}
