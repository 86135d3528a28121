// Cell widths in terminal columns (string-width: a wide character takes two columns), for the table
// renderer (table-draw.ts). A cell is one line with no colour codes here (it is made visible before it is
// measured). A cell whose UTF-16 length equals its width is cut by UTF-16 units (the drawing scpctl has
// always printed, which the e2e tests pin).
import stringWidth from 'string-width';

export { stringWidth as cellWidth };

/** `text` cut to `width` columns, `mark` included, when it is wider. */
export function cutCell(text: string, width: number, mark: string): string {
  const whole = stringWidth(text);
  if (whole <= width) return text;
  const room = width - stringWidth(mark);
  if (room <= 0) return mark;
  if (text.length === whole) return text.substr(0, room) + mark;
  let cut = text;
  while (stringWidth(cut) > room) cut = cut.slice(0, -1);
  return cut + mark;
}
