// Drawing a table of text cells: cli-table3 for small tables without colours, a streaming renderer for big or
// coloured ones, the same characters either way (the unit tests compare them). cli-table3 places every cell by scanning all the rows
// above it for a spanning cell in the way (layout-manager's conflictExists), so its time grows with the
// square of the row count: 100,000 rows took minutes. Here the widths are known before the first row (the
// callers size the columns in one pass) and each row is drawn once, so time is linear and rows can be
// written while later ones are still being drawn. No rule between body rows; one under the header.

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
  /** True when every cell and header is plain (see PLAIN): nothing needs cli-table3's measure. */
  plain?: boolean;
  /** Colours for the borders and the header (where stdout has them). */
  color?: boolean;
}

/** A spec's rows from an array. */
export function rowsOf(rows: ReadonlyArray<readonly string[]>): Pick<TableSpec, 'rowCount' | 'row'> {
  return { rowCount: rows.length, row: (i) => rows[i]! };
}

/** At most this many rows go through cli-table3; above it the streaming renderer draws. */
export const SMALL_TABLE_ROWS = 500;
/** Rows drawn into one chunk of output. */
export const ROWS_PER_CHUNK = 2_000;

/** The table as chunks of text (whole lines, the last ending in a newline). */
export async function drawTable(spec: TableSpec): Promise<Iterable<string>> {
  // cli-table3 colours through @colors/colors, which decides for the whole process from its environment
  // (CI=true turns it off whatever the run asked for): a coloured table is drawn here, in the run's colours.
  if (spec.rowCount <= SMALL_TABLE_ROWS && !spec.color) return [await drawWithCliTable(spec)];
  return streamTable(spec, await widthUtils(Boolean(spec.plain)));
}

/** Widths of printable ASCII: one column a character. */
const ASCII_WIDTHS: WidthUtils = {
  strlen: (text) => text.length,
  truncate: (text, width, mark) => (text.length <= width ? text : text.slice(0, Math.max(0, width - mark.length)) + mark),
};

/** The table as cli-table3 draws it (the unit tests hold the streaming renderer to it, colours included). */
export async function drawWithCliTable(spec: TableSpec): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const table = new Table({
    head: [...spec.head],
    colWidths: spec.widths.map((w) => w + 2),
    colAligns: [...spec.aligns],
    wordWrap: false,
    truncate: '…',
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    style: { head: spec.color ? ['cyan'] : [], border: spec.color ? ['grey'] : [] },
  });
  for (let i = 0; i < spec.rowCount; i++) table.push([...spec.row(i)]);
  return withHeaderRule(table.toString()) + '\n';
}

/** Puts a rule under the header line, drawn like the top border (colours and all) with junctions. */
function withHeaderRule(table: string): string {
  const lines = table.split('\n');
  // \u252c is ┬: a regular expression keeps what it is written with, and the bundle must be ASCII (scripts/bundle.mjs).
  const rule = lines[0]!.replace('┌', '├').replace(/\u252c/g, '┼').replace('┐', '┤');
  lines.splice(2, 0, rule);
  return lines.join('\n');
}

interface WidthUtils {
  strlen(text: string): number;
  truncate(text: string, width: number, mark: string): string;
}

/**
 * Text one column a character: printable ASCII and the `…` of cut cells. Anything else is measured as
 * cli-table3 measures it (East Asian wide characters take two columns).
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
 * Draws lines as cli-table3 does (the tests compare them), without ever looking at other rows: what lets a
 * table be written as its rows come. Cells longer than their column are cut with `…`, and given whole to
 * `onCut` first (the streamed table looks in them for a token, which the cut would hide from the mask).
 */
export function tableLines(frame: Pick<TableSpec, 'widths' | 'aligns' | 'plain' | 'color'>, utils: WidthUtils, onCut?: (text: string) => void): TableLines {
  // The run's colours, the codes cli-table3 (through @colors/colors) uses for these two.
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
  // long as the chunk and made each young-generation collection copy it (a 9,999-row report table: 0.9x).
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

/** The width measure a table needs: one column a character for plain text, else cli-table3's (cell-width.ts). */
export async function widthUtils(plain: boolean): Promise<WidthUtils> {
  // The full measure loads string-width and its emoji tables; plain cells do not need it.
  if (plain) return ASCII_WIDTHS;
  const { cellWidth, cutCell } = await import('./cell-width.js');
  return { strlen: cellWidth, truncate: cutCell };
}

export function* streamTable(spec: TableSpec, utils: WidthUtils): Generator<string> {
  const lines = tableLines(spec, utils);
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
}
