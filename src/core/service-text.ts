// Text that came from the service (or any other party scpctl does not control), made safe to show: `visible`
// makes every control character, and the invisible formatting characters that reorder text, show as an
// escape (`\x1b`, `\u009b`), so that an escape sequence in a bucket name or an error message can never move
// the cursor, retitle the window, ring the bell or rewrite what the admin reads.
import { isAscii } from 'node:buffer';

/**
 * C0 and C1 controls and DEL (category Cc: tab and newline included, which in a table cell or a message
 * line would break the layout), the invisible format characters (category Cf: U+200B-U+200F, U+2060-U+2064,
 * U+FEFF, U+00AD, the bidirectional overrides and isolates that can show text in another order than it is,
 * the tag characters), the line and paragraph separators, and lone surrogates (which a terminal would get
 * as U+FFFD, hiding what was sent). `alpha-data\u200b` must never print like `alpha-data`.
 */
const UNSAFE = once(() => /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu);

/**
 * A pattern made at its first use. A Unicode-property class costs a fraction of a millisecond to make, and
 * made at load it was paid by every start, though printable ASCII (nearly all text) never reaches one.
 */
function once(make: () => RegExp): () => RegExp {
  let made: RegExp | undefined;
  return () => (made ??= make());
}

const SHORT_ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function escapeOne(char: string): string {
  const short = SHORT_ESCAPES[char];
  if (short) return short;
  const code = char.codePointAt(0)!;
  if (code < 0x80) return `\\x${code.toString(16).padStart(2, '0')}`;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Text for a GitHub runner's log, where a line that starts with `::` (once its leading white space is trimmed) or
 * holds `##[` anywhere is a workflow command (`::warning::`, `##[add-mask]NAME`), no line break needed: the
 * colon or hash that would start one is shown as an escape, as `visible` shows a control character.
 */
export function inertToRunner(text: string): string {
  return text.replace(/^([^\S\n]*):(?=:)/gm, '$1\\u003a').replace(/##\[/g, '#\\u0023[');
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The text with every unsafe character shown as an escape; text without one is returned as it is. */
export function visible(text: string): string {
  // Printable ASCII, nearly every cell and message, is told by a plain class: the Unicode one is slower.
  if (PRINTABLE_ASCII.test(text)) return text;
  const unsafe = UNSAFE();
  unsafe.lastIndex = 0;
  return unsafe.test(text) ? text.replace(unsafe, escapeOne) : text;
}

/** Items one a line, each made visible (a newline inside an item shows as `\n`). */
export function visibleLines(items: readonly string[]): string {
  return items.map(visible).join('\n');
}

export const MAX_MESSAGE_CHARS = 300;

/** The first `max` characters of `text`, never ending inside a surrogate pair. */
export function headOf(text: string, max: number): string {
  const cut = text.slice(0, max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** The text cut to `max` characters (never inside a surrogate pair), saying how many were left out. */
export function capMessage(text: string, max = MAX_MESSAGE_CHARS): string {
  if (text.length <= max) return text;
  const cut = headOf(text, max);
  return `${cut}… (${(text.length - cut.length).toLocaleString('en-US')} more characters cut)`;
}

/** Deeper than any answer the service gives, and far below where recursion over it would overflow. */
export const MAX_JSON_DEPTH = 200;

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `max`. JSON.parse itself copes with any
 * depth, but everything recursive after it (JSON.stringify, message extraction) would overflow the stack.
 */
export function nestsDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const item of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof item === 'object' && item !== null) stack.push([item, depth + 1]);
    }
  }
  return false;
}

/**
 * JSON text for output, exactly equivalent to JSON.stringify's: DEL and the C1 controls, which
 * JSON.stringify leaves raw (and a terminal would obey), are written as `\u` escapes, as are the line
 * separators and bidi controls. A JSON parser reads the same value back.
 */
export function safeJson(value: unknown): string {
  return safeJsonText(JSON.stringify(value));
}

/** The same for JSON text made by another serializer (one that keeps big integers, say). */
export function safeJsonText(text: string): string {
  return JSON_UNSAFE().test(text) ? text.replace(JSON_UNSAFE_ALL(), unicodeEscape) : text;
}

const JSON_UNSAFE = once(() => /[\u007f-\u009f\u2028\u2029\p{Cf}]/u);
const JSON_UNSAFE_ALL = once(() => new RegExp(JSON_UNSAFE().source, 'gu'));

/** `\\uXXXX` for each UTF-16 unit (a tag character beyond U+FFFF is a pair of them, as JSON writes it). */
export function unicodeEscape(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * `visibleLines` for names already one a line in UTF-8 bytes (view -o text of a 400,000-name list): the bytes
 * themselves when no name holds a character `visible` would escape, which is the rule; else the escaped text.
 */
export function visibleLineBytes(lines: Buffer): Buffer {
  return hasUnsafeByte(lines) ? Buffer.from(visibleLines(lines.toString('utf8').split('\n'))) : lines;
}

/**
 * Whether the bytes may hold a character `visible` escapes: a control byte other than the newline, DEL,
 * or any byte beyond ASCII (the format characters are many and spread over the code space; names the
 * service holds are ASCII, so the rule costs nothing in practice, and any other text takes the exact path).
 */
function hasUnsafeByte(bytes: Buffer): boolean {
  if (!isAscii(bytes)) return true;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === 0x7f || (byte < 0x20 && byte !== 0x0a)) return true;
  }
  return false;
}
