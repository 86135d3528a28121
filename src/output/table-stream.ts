// `report --all` as a table, drawn as the pages come (contract section 7): the first page decides the
// columns, which are numeric and how wide each is (records-table.ts's tableFrame); later pages are drawn in
// that frame by table-draw.ts's lines, longer cells cut with `…`, and keys first seen later are reported
// once (the command names them on stderr). Holding one page at a time keeps memory flat.
import { cellText, tableFrame, type TableFrame } from './records-table.js';
import { pageColumns, type RecordWriter, type ReportRecord } from './records.js';
import { tableLines, widthUtils, type TableLines } from './table-draw.js';
import { NO_SECRETS, type SecretMask } from '../core/secrets.js';

export class TableStreamWriter implements RecordWriter {
  private frame: TableFrame | undefined;
  private lines: TableLines | undefined;
  private readonly columnsOf: (records: readonly ReportRecord[]) => string[];
  /** The cells of the page being drawn that were cut, whole. */
  private cut: string[] = [];

  /**
   * @param drawer the table's line drawer for a frame, telling `onCut` each cell it cuts (`streamTableWriter`
   *   makes it with the width measure)
   * @param width the screen's width
   * @param onNewColumns keys a later page brought that the table has no column for, once per key
   * @param onHiddenColumns columns of the first page left out because the screen is too narrow
   * @param mask the run's known tokens: every cell and header is masked whole before it is measured or cut
   */
  constructor(
    private readonly drawer: (frame: TableFrame, onCut: (text: string) => void) => TableLines,
    private readonly width: number,
    onNewColumns: (keys: string[]) => void = () => {},
    private readonly onHiddenColumns: (columns: string[]) => void = () => {},
    private readonly mask: SecretMask = NO_SECRETS,
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
      this.lines = this.drawer(this.frame, (cell) => this.cut.push(cell));
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

/** A streaming table writer that measures cells in terminal columns (wide characters take two). */
export async function streamTableWriter(
  width: number,
  color: boolean,
  onNewColumns?: (keys: string[]) => void,
  onHiddenColumns?: (columns: string[]) => void,
  mask?: SecretMask,
): Promise<TableStreamWriter> {
  const utils = await widthUtils(false);
  return new TableStreamWriter((frame, onCut) => tableLines({ ...frame, color }, utils, onCut), width, onNewColumns, onHiddenColumns, mask);
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
