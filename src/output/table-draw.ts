// The one table renderer. The widths are known before the first row (the callers size the columns in one
// pass, from cells masked whole) and each row is drawn once, so time is linear in the rows and a table is
// written in chunks while later rows are still being drawn. cli-table3 is not used: it cannot be fed in
// chunks and its time grows with the square of the rows (docs/architecture.md, "One table renderer").
// No rule between body rows; one under the header.

import { palette } from './palette.js';

export type Align = 'left' | 'right';

export interface TableSpec {
  head: readonly string[];
  /** Content widths, without the one-space padding on either side. */
  widths: readonly number[];
  aligns: readonly Align[];
  rowCount: number;
  /**
   * The cells of row `i`, already cut to at most their column's width (and terminal-safe); asked once a row,
   * in order, so that a row's strings are garbage as soon as its line is drawn.
   */
  row(i: number): readonly string[];
  /** True when every cell and header is plain (see PLAIN): nothing needs the full width measure. */
  plain?: boolean;
  /** Colours for the borders and the header (where stdout has them). */
  color?: boolean;
}

/** Rows drawn into one chunk of output. */
export const ROWS_PER_CHUNK = 2_000;

/** The table as chunks of text (whole lines, the last ending in a newline), each drawn when it is asked for. */
export async function drawTable(spec: TableSpec): Promise<Iterable<string>> {
  const lines = tableLines(spec, await widthUtils(Boolean(spec.plain)));
  return (function* () {
    let chunk = [lines.top(spec.head)];
    for (let i = 0; i < spec.rowCount; i++) {
      chunk.push(lines.row(spec.row(i)));
      if ((i + 1) % ROWS_PER_CHUNK === 0) {
        yield chunk.join('');
        chunk = [];
      }
    }
    chunk.push(lines.bottom());
    yield chunk.join('');
  })();
}

/** Widths of printable ASCII: one column a character. */
const ASCII_WIDTHS: WidthUtils = {
  strlen: (text) => text.length,
  truncate: (text, width, mark) => (text.length <= width ? text : text.slice(0, Math.max(0, width - mark.length)) + mark),
};

interface WidthUtils {
  strlen(text: string): number;
  truncate(text: string, width: number, mark: string): string;
}

/**
 * Text one column a character: printable ASCII and the `…` of cut cells. Anything else is measured by
 * cell-width.ts (East Asian wide characters take two columns).
 */
// \u2026 is the ellipsis, written as an escape for an ASCII bundle (scripts/bundle.mjs).
export const PLAIN = /^[\x20-\x7e\u2026]*$/;

/** The lines of a table whose columns are known: its top (with the header), one line a row, its bottom. */
export interface TableLines {
  /** The bar between cells, coloured as the borders are. */
  bar: string;
  top(head: readonly string[]): string;
  row(cells: readonly string[]): string;
  bottom(): string;
}

/**
 * Draws a table's lines without ever looking at other rows: what lets a table be written as its rows come. Cells longer than their column are cut with `…`, and given whole to
 * `onCut` first (the streamed table looks in them for a token, which the cut would hide from the mask).
 */
export function tableLines(frame: Pick<TableSpec, 'widths' | 'aligns' | 'plain' | 'color'>, utils: WidthUtils, onCut?: (text: string) => void): TableLines {
  // The run's colours: grey borders, a cyan header.
  const paint = palette(Boolean(frame.color));
  const grey = paint.grey;
  const { widths, aligns } = frame;
  const border = (left: string, join: string, right: string): string =>
    widths.map((w, i) => grey((i === 0 ? left : join) + '─'.repeat(w + 2) + (i === widths.length - 1 ? right : ''))).join('');
  const bar = grey('│');
  const fills: string[] = [];
  const fill = (n: number): string => (fills[n] ??= ' '.repeat(n));
  const cell = (text: string, i: number): string => {
    const width = widths[i]!;
    let shown = text;
    let length = frame.plain || PLAIN.test(shown) ? shown.length : utils.strlen(shown);
    if (length > width) {
      onCut?.(text);
      shown = utils.truncate(shown, width, '…');
      length = utils.strlen(shown);
    }
    const space = fill(Math.max(0, width - length));
    return aligns[i] === 'right' ? ` ${space}${shown} ` : ` ${shown}${space} `;
  };
  // A line is joined from its pieces, not added up: `+=` left a tree of small strings a row, which lived as
  // long as the chunk and made each young-generation collection copy it.
  const line = (cells: readonly string[], colour?: (s: string) => string): string => {
    const pieces: string[] = [];
    for (let i = 0; i < widths.length; i++) pieces.push(bar, colour ? colour(cell(cells[i] ?? '', i)) : cell(cells[i] ?? '', i));
    pieces.push(bar);
    return pieces.join('');
  };
  return {
    bar,
    top: (head) => `${border('┌', '┬', '┐')}\n${line(head, paint.cyan)}\n${border('├', '┼', '┤')}\n`,
    row: (cells) => line(cells) + '\n',
    bottom: () => border('└', '┴', '┘') + '\n',
  };
}

/** The width measure a table needs: one column a character for plain text, else cell-width.ts's. */
export async function widthUtils(plain: boolean): Promise<WidthUtils> {
  // The full measure loads string-width and its emoji tables; plain cells do not need it.
  if (plain) return ASCII_WIDTHS;
  const { cellWidth, cutCell } = await import('./cell-width.js');
  return { strlen: cellWidth, truncate: cutCell };
}
