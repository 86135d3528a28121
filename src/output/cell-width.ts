// Cell widths measured the way cli-table3 measures them (string-width: a wide character takes two
// columns), so that the streaming renderer pads and cuts exactly as cli-table3 draws small tables. The
// measure was cli-table3's own, from a file of its package that is not its API (src/utils.js); this is that
// code for the text our cells hold, which has no colour codes (cells are made visible before they are
// measured), with the same quirks: a cell whose UTF-16 length equals its width is cut by UTF-16 units.
import stringWidth from 'string-width';

/** The widest line of `text`, in terminal columns. */
export function cellWidth(text: string): number {
  let widest = 0;
  for (const line of text.split('\n')) widest = Math.max(widest, stringWidth(line));
  return widest;
}

/** `text` cut to `width` columns, `mark` included, when it is wider. */
export function cutCell(text: string, width: number, mark: string): string {
  if (cellWidth(text) <= width) return text;
  const room = width - cellWidth(mark);
  return (room > 0 ? cutToWidth(text, room) : '') + mark;
}

function cutToWidth(text: string, width: number): string {
  if (text.length === cellWidth(text)) return text.substr(0, width);
  let cut = text;
  while (cellWidth(cut) > width) cut = cut.slice(0, -1);
  return cut;
}
