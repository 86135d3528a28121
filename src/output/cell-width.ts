// Cell widths in terminal columns (string-width: a wide character takes two columns), for the table
// renderer (table-draw.ts). Cells have no colour codes here (they are made visible before they are
// measured). A cell whose UTF-16 length equals its width is cut by UTF-16 units (the drawing scpctl has
// always printed, which the e2e tests pin).
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
