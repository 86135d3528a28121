// JSON with integers kept digit for digit (contract section 5). The service's 19-digit IDs (`request_id`
// and others) do not fit a double: JSON.parse turns 1234567890123456789 into 1234567890123456800. Node 20
// has neither JSON.parse's `context.source` nor JSON.rawJSON (both Node 21+), so:
//
// - parseExactJson: when the text holds no run of 16 digits (nearly always) it is plain JSON.parse. Else one
//   scan outside strings rewrites each unsafe integer literal into a string marked with a per-process nonce,
//   and the reviver turns those strings back into BigInt. A string the service sends can never be taken for
//   a marker: it would have to guess the nonce.
// - stringifyExactJson: JSON.stringify, and only when a BigInt is in the value (it throws on one), a second
//   pass that writes each BigInt as its bare digits.
import { randomBytes } from 'node:crypto';

const MARK = `\u0000exact-${randomBytes(6).toString('hex')}:`;
const MARK_JSON = JSON.stringify(MARK).slice(1, -1);
const MARKED = new RegExp(`"${MARK_JSON.replace(/\\/g, '\\\\')}(-?\\d+)"`, 'g');
const LONG_DIGITS = /\d{16}/;

/** JSON.parse, with integers beyond 2^53 as BigInt. Throws SyntaxError like JSON.parse. */
export function parseExactJson(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  const marked = markUnsafeIntegers(text);
  if (marked === text) return JSON.parse(text);
  return JSON.parse(marked, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(MARK) ? BigInt(value.slice(MARK.length)) : value,
  );
}

/** JSON.stringify that writes BigInt values as bare integers. */
export function stringifyExactJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError) || !/BigInt/i.test(error.message)) throw error;
  }
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? MARK + v.toString() : v));
  return text.replace(MARKED, '$1');
}

/**
 * The text with every integer literal that a double cannot hold exactly put in quotes behind MARK.
 * Strings are skipped whole (escapes included); anything malformed is left for JSON.parse to refuse.
 */
export function markUnsafeIntegers(text: string): string {
  let out = '';
  let copiedTo = 0;
  const length = text.length;
  for (let i = 0; i < length; ) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i++;
      while (i < length) {
        const s = text.charCodeAt(i);
        if (s === 0x5c /* \ */) i += 2;
        else if (s === 0x22) break;
        else i++;
      }
      i++;
      continue;
    }
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      i++;
      while (i < length && isNumberChar(text.charCodeAt(i))) i++;
      const literal = text.slice(start, i);
      if (/^-?\d{16,}$/.test(literal) && !Number.isSafeInteger(Number(literal))) {
        out += text.slice(copiedTo, start) + '"' + MARK_JSON + literal + '"';
        copiedTo = i;
      }
      continue;
    }
    i++;
  }
  return copiedTo === 0 ? text : out + text.slice(copiedTo);
}

function isNumberChar(c: number): boolean {
  // digits, '.', 'e', 'E', '+', '-'
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}
