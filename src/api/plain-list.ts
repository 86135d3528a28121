// The one rule of a plain list (a view answer's names with nothing to decode, trim or drop), and its names
// as lines: what bucket-list-scan.ts takes without a string a name for `view -o text`, sync's diff (the
// names where the answer's text holds them) and the history. Anything else goes the ordinary way.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export type Separator = 'quoted' | 'comma';
export const SEPARATOR = { quoted: '","', comma: ',' } as const;
/** A backslash (an escape) or a control character: never in a plain list; between commas, no quote either. */
const NOT_PLAIN = { quoted: /[\\\x00-\x1f]/, comma: /[\\"\x00-\x1f]/ } as const;

/**
 * How many names text[start, end) holds, between `","` (or commas), when every one is plain, else null.
 * Plain: no escape, no control character, no quote, no empty name, and printable ASCII at both ends (so that
 * nothing needs trimming). And where the list ends: at `end`, or, given -1 between `","`, at the first quote
 * that does not begin a `","` (the caller checks what follows). The names are found by indexOf and the
 * characters judged by one regular expression over the whole list, both native (docs/performance.md). A
 * backslash anywhere makes the list not plain, so a quote found on the way is never an escaped one that counts.
 */
export function plainList(text: string, start: number, end: number, separator: Separator): { count: number; end: number } | null {
  const quoted = separator === 'quoted';
  const limit = end < 0 ? text.length : end;
  let count = 0;
  let i = start;
  for (;;) {
    // A name runs to a quote (the first of a `","`) or, between commas, to a comma.
    const found = text.indexOf(quoted ? '"' : ',', i);
    const stop = found === -1 || found >= limit ? limit : found;
    if (stop === i || !endsName(text.charCodeAt(i)) || !endsName(text.charCodeAt(stop - 1))) return null;
    count++;
    const last = stop === limit || (end < 0 && !(text.charCodeAt(stop + 1) === 0x2c && text.charCodeAt(stop + 2) === QUOTE));
    if (last) {
      if (end < 0 && stop === limit) return null; // no closing quote
      return NOT_PLAIN[separator].test(text.slice(start, stop)) ? null : { count, end: stop };
    }
    if (quoted && !(text.charCodeAt(stop + 1) === 0x2c && text.charCodeAt(stop + 2) === QUOTE)) return null;
    i = stop + SEPARATOR[separator].length;
  }
}

/** What may stand first or last in a plain name: printable ASCII but the quote and the backslash. */
function endsName(c: number): boolean {
  return c > 0x20 && c < 0x7f && c !== QUOTE && c !== BACKSLASH;
}

/** Whether every character of the text is ASCII: then each is its own byte, and the text's offsets are the bytes'. */
export function isAsciiText(text: string): boolean {
  return Buffer.byteLength(text, 'utf8') === text.length;
}

/**
 * The names of a plain list (plainList), one a line, as bytes. No string is made for each name: the text is
 * encoded whole and each separator, which plainList has vouched for, made a newline in one pass.
 */
export function linesOf(text: string, separator: Separator): Buffer {
  // A character beyond ASCII is more than a byte: the rare list with such names takes the exact path.
  if (!isAsciiText(text)) return Buffer.from(text.split(SEPARATOR[separator]).join('\n'));
  const bytes = Buffer.from(text, 'latin1');
  if (separator === 'comma') {
    for (let i = bytes.indexOf(0x2c); i !== -1; i = bytes.indexOf(0x2c, i + 1)) bytes[i] = 0x0a;
    return bytes;
  }
  return bytes.subarray(0, quotedToLines(bytes));
}

/** `a","b` to `a\nb` in place (every quote is the first of a `","`); returns the new length. */
function quotedToLines(bytes: Buffer): number {
  let o = 0;
  const length = bytes.length;
  for (let i = 0; i < length; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) {
      bytes[o++] = 0x0a;
      i += 2;
    } else bytes[o++] = c;
  }
  return o;
}
