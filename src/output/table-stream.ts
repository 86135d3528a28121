// `report --all` as a table, drawn as the pages come (contract section 7): the first page decides the
// columns, which are numeric and how wide each is (records-table.ts's tableFrame); later pages are drawn in
// that frame by table-draw.ts's lines, longer cells cut with `…`, and keys first seen later are reported
// once (the command names them on stderr). Holding one page at a time keeps memory flat.
import { cellText, tableFrame, type TableFrame } from './records-table.js';
import { pageColumns, type RecordWriter, type ReportRecord } from './records.js';
import { tableLines, widthUtils, type TableLines } from './table-draw.js';
import { NO_SECRETS, type SecretMask } from '../core/secrets.js';

class TableStreamWriter implements RecordWriter {
  private frame: TableFrame | undefined;
  private lines: TableLines | undefined;
  private readonly columnsOf: (records: readonly ReportRecord[]) => string[];
  /** The cells of the page being drawn that were cut, whole. */
  private cut: string[] = [];

  constructor(
    private readonly utils: Awaited<ReturnType<typeof widthUtils>>,
    private readonly width: number,
    private readonly color: boolean,
    onNewColumns: (keys: string[]) => void,
    private readonly onHiddenColumns: (columns: string[]) => void,
    private readonly mask: SecretMask,
  ) {
    this.columnsOf = pageColumns(onNewColumns);
  }

  page(records: readonly ReportRecord[]): string {
    if (records.length === 0) return '';
    const columns = this.columnsOf(records);
    let text = '';
    if (this.frame === undefined) {
      const cells = this.mask.maskRows(records.map((record) => columns.map((column) => cellText(record[column]))));
      this.frame = tableFrame(records, columns, cells, this.width, this.mask);
      if (this.frame.hidden.length > 0) this.onHiddenColumns(this.frame.hidden);
      this.lines = tableLines({ ...this.frame, color: this.color }, this.utils, (cell) => this.cut.push(cell));
      text += this.lines.top(this.frame.head);
      // The first page's cells are made already. The frame shows their leading columns, and a row draws only
      // as many cells as the frame has columns.
      for (const row of cells) text += this.lines.row(row);
      this.cut = [];
      return text;
    }
    return this.laterPage(records);
  }

  /**
   * A later page, cut to the first page's widths (into a file too), its rows drawn as they come. A token in
   * it is whole either in the drawn text or in a cut cell: when one may be, the page is drawn again from
   * masked cells, so the cut never keeps a token's start and the rows stay aligned. Clean pages (the rule)
   * cost one look over their text, not a copy of their cells.
   */
  private laterPage(records: readonly ReportRecord[]): string {
    const { columns } = this.frame!;
    const cellsOf = (record: ReportRecord): string[] => columns.map((column) => cellText(record[column]));
    this.cut = [];
    let text = '';
    for (const record of records) text += this.lines!.row(cellsOf(record));
    if (this.mask.mayHold(text) || (this.cut.length > 0 && this.mask.mayHold(this.cut.join('\n')))) {
      text = '';
      for (const row of this.mask.maskRows(records.map(cellsOf))) text += this.lines!.row(row);
    }
    this.cut = [];
    return text;
  }

  end(): string {
    return this.lines ? this.lines.bottom() : '';
  }
}

/**
 * A table drawn as the pages come, its cells measured in terminal columns (wide characters take two).
 * `onNewColumns`: keys a later page brought that the table has no column for, once per key; `onHiddenColumns`:
 * columns of the first page left out because the screen is too narrow; `mask`: the run's known tokens, every
 * cell and header masked whole before it is measured or cut.
 */
export async function streamTableWriter(
  width: number,
  color: boolean,
  onNewColumns: (keys: string[]) => void = () => {},
  onHiddenColumns: (columns: string[]) => void = () => {},
  mask: SecretMask = NO_SECRETS,
): Promise<RecordWriter> {
  return new TableStreamWriter(await widthUtils(false), width, color, onNewColumns, onHiddenColumns, mask);
}

/** A table drawn whole (report without --all): one page of the streamed table, and its end. */
export async function renderRecordsTable(
  records: readonly ReportRecord[],
  width: number,
  color = false,
  mask?: SecretMask,
): Promise<{ text: string; hidden: string[] }> {
  const hidden: string[] = [];
  const writer = await streamTableWriter(width, color, undefined, (columns) => hidden.push(...columns), mask);
  return { text: writer.page(records) + writer.end(), hidden };
}
