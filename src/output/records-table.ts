// Report records as a terminal table that fits the screen: numeric columns right-aligned, free-text cells
// cut with `…` first, and when even narrow columns do not fit, the last columns left out (and named).
// Numbers, IDs and ISO times are never cut: a cut ID or time reads as another one. Into a file or a pipe the
// width is unbounded (Terminal.tableWidth), so nothing is cut or left out there.
import { formatCell, isNumericColumn, type ReportRecord } from './records.js';
import { visible } from '../core/service-text.js';
import { NO_SECRETS, type SecretMask } from '../core/secrets.js';
import { PLAIN, type Align } from './table-draw.js';
import { textWidth, truncate } from './text.js';

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
 * before, on the records: report's withIsoTimes).
 */
export function cellText(value: unknown): string {
  return visible(formatCell(value));
}

/** The columns a table shows, their widths and alignment, sized from some records (a page, or all). */
export interface TableFrame {
  /** The columns shown, leading ones; those past the screen are in `hidden`. */
  columns: string[];
  hidden: string[];
  head: string[];
  widths: number[];
  aligns: Align[];
  /** Whether every cell (shown or not) and header is plain (table-draw.ts's PLAIN). */
  plain: boolean;
}

/**
 * Sizes the columns in one pass over `cells` (each record's cells, in `columns` order, masked already); the
 * headers are masked here (`mask`), before they are measured and cut.
 */
export function tableFrame(records: readonly ReportRecord[], columns: readonly string[], cells: ReadonlyArray<readonly string[]>, width: number, mask: SecretMask = NO_SECRETS): TableFrame {
  const labels = mask.maskEach(columns.map(visible));
  const numeric = columns.map((column) => isNumericColumn(records, column));
  let plain = true;
  const sizes: ColumnWidth[] = columns.map((column, i) => {
    let widest = 1;
    const whole = numeric[i]! || ID_COLUMN.test(column);
    // Whether every cell is one never cut: looked at only where the column is not kept whole already.
    let allKept = !whole;
    for (const row of cells) {
      const cell = row[i]!;
      // A plain cell is one column a character: measured by its length, without textWidth's pass.
      let cellWidth = cell.length;
      if (!PLAIN.test(cell)) {
        cellWidth = textWidth(cell);
        plain = false;
      }
      if (cellWidth > widest) widest = cellWidth;
      if (allKept && cell !== '' && !KEPT_WHOLE.test(cell)) allKept = false;
    }
    const keptWhole = whole || (allKept && cells.length > 0);
    const natural = Math.max(widest, textWidth(labels[i]!));
    return { natural, least: keptWhole ? widest : Math.min(natural, MIN_TEXT_WIDTH) };
  });
  const count = shownColumns(sizes, width);
  const widths = fitWidths(sizes.slice(0, count), width - tableOverhead(count));
  const head = labels.slice(0, count).map((label, i) => truncate(label, widths[i]!));
  return {
    columns: columns.slice(0, count),
    hidden: columns.slice(count),
    head,
    widths,
    aligns: numeric.slice(0, count).map((n) => (n ? 'right' : 'left')),
    plain: plain && head.every((text) => PLAIN.test(text)),
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
