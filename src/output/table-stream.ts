// `report --all` as a table, drawn as the pages come (contract section 7): the first page decides the
// columns, which are numeric and how wide each is; later pages are written in that frame, longer cells cut
// with `…`, and keys first seen later are reported once (the command names them on stderr). Holding one page
// at a time keeps memory flat however many records there are.
import { fitWidths, tableOverhead, shownColumns, type ColumnWidth } from './records-table.js';
import { columnsOf, formatCell, isNumericColumn, terminalSafe, type RecordWriter, type ReportRecord } from './records.js';
import { paint } from './terminal.js';
import { truncate } from './text.js';

const MIN_TEXT_WIDTH = 6;

interface Frame {
  columns: string[];
  numeric: boolean[];
  widths: number[];
}

export class TableStreamWriter implements RecordWriter {
  private frame: Frame | undefined;
  private readonly known = new Set<string>();

  /**
   * @param width the screen's width
   * @param onNewColumns keys a later page brought that the table has no column for, once per key
   * @param onHiddenColumns columns of the first page left out because the screen is too narrow
   */
  constructor(
    private readonly width: number,
    private readonly onNewColumns: (keys: string[]) => void = () => {},
    private readonly onHiddenColumns: (columns: string[]) => void = () => {},
  ) {}

  page(records: readonly ReportRecord[]): string {
    if (records.length === 0) return '';
    let text = '';
    if (this.frame === undefined) {
      this.frame = this.frameFor(records);
      text += this.header();
    } else {
      const fresh = columnsOf(records).filter((key) => !this.known.has(key));
      if (fresh.length > 0) {
        for (const key of fresh) this.known.add(key);
        this.onNewColumns(fresh);
      }
    }
    for (const record of records) text += this.row(record);
    return text;
  }

  end(): string {
    return this.frame ? this.rule('└', '┴', '┘') + '\n' : '';
  }

  private frameFor(records: readonly ReportRecord[]): Frame {
    const all = columnsOf(records);
    for (const column of all) this.known.add(column);
    const numeric = all.map((column) => isNumericColumn(records, column));
    const sizes: ColumnWidth[] = all.map((column, i) => {
      let widest = 1;
      for (const record of records) widest = Math.max(widest, [...terminalSafe(formatCell(record[column]))].length);
      const natural = Math.max(widest, [...column].length);
      return { natural, least: numeric[i] ? widest : Math.min(natural, MIN_TEXT_WIDTH) };
    });
    const count = shownColumns(sizes, this.width);
    if (count < all.length) this.onHiddenColumns(all.slice(count));
    return {
      columns: all.slice(0, count),
      numeric: numeric.slice(0, count),
      widths: fitWidths(sizes.slice(0, count), this.width - tableOverhead(count)),
    };
  }

  private header(): string {
    const { columns, widths } = this.frame!;
    const cells = columns.map((column, i) => paint.cyan(pad(truncate(terminalSafe(column), widths[i]!), widths[i]!, false)));
    return [this.rule('┌', '┬', '┐'), this.line(cells), this.rule('├', '┼', '┤')].join('\n') + '\n';
  }

  private row(record: ReportRecord): string {
    const { columns, numeric, widths } = this.frame!;
    const cells = columns.map((column, i) => pad(truncate(terminalSafe(formatCell(record[column])), widths[i]!), widths[i]!, numeric[i]!));
    return this.line(cells) + '\n';
  }

  private line(cells: readonly string[]): string {
    const bar = paint.grey('│');
    return bar + cells.map((cell) => ` ${cell} `).join(bar) + bar;
  }

  private rule(left: string, middle: string, right: string): string {
    return paint.grey(left + this.frame!.widths.map((w) => '─'.repeat(w + 2)).join(middle) + right);
  }
}

function pad(text: string, width: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, width - [...text].length));
  return right ? fill + text : text + fill;
}
