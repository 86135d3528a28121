// Cell widths in terminal columns (string-width: a wide character takes two columns), for the table
// renderer (table-draw.ts). A cell is one line with no colour codes here (it is made visible before it is
// measured). A cell whose UTF-16 length equals its width is cut by UTF-16 units (the drawing scpctl has
// always printed, which the e2e tests pin).
import stringWidth from 'string-width';

export { stringWidth as cellWidth };

/** `text` cut to `width` columns, `mark` included, when it is wider. */
export function cutCell(text: string, width: number, mark: string): string {
  if (stringWidth(text) <= width) return text;
  const room = width - stringWidth(mark);
  return (room > 0 ? cutToWidth(text, room) : '') + mark;
}

function cutToWidth(text: string, width: number): string {
  if (text.length === stringWidth(text)) return text.substr(0, width);
  let cut = text;
  while (stringWidth(cut) > width) cut = cut.slice(0, -1);
  return cut;
}
