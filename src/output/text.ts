// Small text helpers for terminal layouts.

/** Cuts text to `width` columns with `…` (code points, which is right for bucket names and most records). */
export function truncate(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  return chars.slice(0, Math.max(0, width - 1)).join('') + '…';
}
