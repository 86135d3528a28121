// Small text helpers for terminal layouts.

/** Cuts text to `width` columns with `…` (code points, which is right for bucket names and most records). */
export function truncate(text: string, width: number): string {
  // A string has at least as many UTF-16 units as code points: most cells need no splitting.
  if (text.length <= width) return text;
  // Without surrogate pairs every unit is a code point, and slicing needs no array of characters.
  if (!/[\ud800-\udfff]/.test(text)) return text.slice(0, Math.max(0, width - 1)) + '…';
  const chars = [...text];
  if (chars.length <= width) return text;
  return chars.slice(0, Math.max(0, width - 1)).join('') + '…';
}

/**
 * Columns padded to their widest cell, two spaces apart, no trailing spaces; the columns in `right` are
 * aligned right (counts). One line a row, each ending in a newline.
 */
export function alignColumns(rows: readonly (readonly string[])[], right: ReadonlySet<number> = new Set()): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (right.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd() + '\n').join('');
}
