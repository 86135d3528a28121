// Report records as a terminal table that fits the screen, drawn as the pages come (contract section 7):
// the first page decides the columns, which are numeric and how wide each is (tableFrame); later pages are
// drawn in that frame by table-draw.ts's lines, longer cells cut with `…`, and keys first seen later are
// reported once (the command names them on stderr). Holding one page at a time keeps memory flat.
// Numeric columns are right-aligned, free-text cells cut with `…` first, and when even narrow columns do not
// fit, the last columns left out (and named). Numbers, IDs and ISO times are never cut: a cut ID or time
// reads as another one. Into a file or a pipe the width is unbounded (Terminal.tableWidth), so nothing is
// cut or left out there.
import { columnsOf, formatCell, isNumericColumn, pageColumns, type RecordWriter, type ReportRecord } from './records.js';
import { isoSeconds } from '../core/time.js';
import { visible } from '../core/service-text.js';
import { NO_SECRETS, type SecretMask } from '../core/secrets.js';
import { PLAIN, tableLines, widthUtils, type Align, type TableLines } from './table-draw.js';
import { cellWidth, cutCell } from './cell-width.js';

/** A column named as an ID (`_id`, `id`, `request_id`, `userId`): never cut. */
const ID_COLUMN = /(^|_|[a-z])(id|Id|ID)$/;
/** Cells never cut: ISO times, integers, hex and UUID-like IDs. */
const KEPT_WHOLE = /^(\d{4}-\d{2}-\d{2}T[\d:.]+Z?|-?\d+(\.\d+)?|[0-9a-f]{8,}|[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12})$/i;
/** Text columns are cut down to this before columns are left out; numbers are never cut. */
const MIN_TEXT_WIDTH = 6;
/** Left and right padding of every cell. */
const PADDING = 2;

export interface ColumnWidth {
  /** The widest cell or header. */
  natural: number;
  /** The least it may be given: the widest number of a numeric column, a few characters of text. */
  least: number;
}

/**
 * The text of one cell as a table shows it: the one place where a record's value becomes terminal text, so
 * that formatting and making control characters visible apply to every table alike (times are made ISO
 * before, on the records: withIsoTimes).
 */
export function cellText(value: unknown): string {
  return visible(formatCell(value));
}

// On a terminal, Unix-second times show as ISO 8601 UTC (contract section 8): in a column named `timestamp`
// or ending in `_time`, a 9- or 10-digit integer (1973 to 2286) is a time; anything else in such a column,
// and every other column, is left as it came. json, ndjson and csv never pass through here.
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

/** The columns a table shows, their widths and alignment, sized from some records (a page, or all). */
export interface TableFrame {
  /** The columns shown, leading ones; those past the screen are in `hidden`. */
  columns: string[];
  hidden: string[];
  head: string[];
  widths: number[];
  aligns: Align[];
}

/**
 * Sizes the columns in one pass over `cells` (each record's cells, in `columns` order, masked already); the
 * headers are masked here (`mask`), before they are measured and cut.
 */
export function tableFrame(records: readonly ReportRecord[], columns: readonly string[], cells: ReadonlyArray<readonly string[]>, width: number, mask: SecretMask = NO_SECRETS): TableFrame {
  const labels = mask.maskEach(columns.map(visible));
  const numeric = columns.map((column) => isNumericColumn(records, column));
  const sizes: ColumnWidth[] = columns.map((column, i) => {
    let widest = 1;
    const whole = numeric[i]! || ID_COLUMN.test(column);
    // Whether every cell is one never cut: looked at only where the column is not kept whole already.
    let allKept = !whole;
    for (const row of cells) {
      const cell = row[i]!;
      // In terminal columns, as table-draw.ts draws the cell (a wide character takes two; counted in code points
      // it was cut even where nothing is, into a file). A plain cell is one column a character: its length.
      const measured = PLAIN.test(cell) ? cell.length : cellWidth(cell);
      if (measured > widest) widest = measured;
      if (allKept && cell !== '' && !KEPT_WHOLE.test(cell)) allKept = false;
    }
    const keptWhole = whole || (allKept && cells.length > 0);
    const natural = Math.max(widest, cellWidth(labels[i]!));
    return { natural, least: keptWhole ? widest : Math.min(natural, MIN_TEXT_WIDTH) };
  });
  const count = shownColumns(sizes, width);
  const widths = fitWidths(sizes.slice(0, count), width - tableOverhead(count));
  const head = labels.slice(0, count).map((label, i) => cutCell(label, widths[i]!, '…'));
  return {
    columns: columns.slice(0, count),
    hidden: columns.slice(count),
    head,
    widths,
    aligns: numeric.slice(0, count).map((n) => (n ? 'right' : 'left')),
  };
}

/** Borders (one more than the columns) and padding. */
function tableOverhead(count: number): number {
  return count + 1 + count * PADDING;
}

/** How many leading columns fit at their least width; always at least one. */
function shownColumns(sizes: readonly ColumnWidth[], width: number): number {
  let count = 0;
  let least = 0;
  while (count < sizes.length && least + sizes[count]!.least + tableOverhead(count + 1) <= width) least += sizes[count++]!.least;
  return Math.max(1, count);
}

/**
 * Shares `available` characters out: every column gets its least width, then what is left goes to the
 * columns that want more, the smallest wants first, so one long value cannot squeeze every other column.
 */
export function fitWidths(sizes: readonly ColumnWidth[], available: number): number[] {
  const widths = sizes.map((s) => s.least);
  let remaining = available - widths.reduce((a, b) => a + b, 0);
  const order = sizes.map((_, i) => i).sort((a, b) => sizes[a]!.natural - sizes[a]!.least - (sizes[b]!.natural - sizes[b]!.least));
  order.forEach((column, k) => {
    const share = Math.max(0, Math.floor(remaining / (order.length - k)));
    const extra = Math.min(sizes[column]!.natural - sizes[column]!.least, share);
    widths[column]! += extra;
    remaining -= extra;
  });
  // A single column wider than the screen (a long number alone) is cut to the screen.
  return widths.map((w) => Math.max(1, Math.min(w, available)));
}

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
    private readonly isoTimes: boolean,
  ) {
    this.columnsOf = pageColumns(onNewColumns);
  }

  page(given: readonly ReportRecord[]): string {
    if (given.length === 0) return '';
    const records = this.isoTimes ? withIsoTimes(given) : given;
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
  isoTimes = false,
): Promise<RecordWriter> {
  return new TableStreamWriter(await widthUtils(false), width, color, onNewColumns, onHiddenColumns, mask, isoTimes);
}
