// JSON with integers kept digit for digit (contract section 5). The service's 19-digit IDs (`request_id`
// and others) do not fit a double: JSON.parse turns 1234567890123456789 into 1234567890123456800. Node 20
// has neither JSON.parse's `context.source` nor JSON.rawJSON (both Node 21+), so:
//
// - parseExactJson: when the text holds no run of 16 digits (nearly always) it is plain JSON.parse. Else one
//   scan outside strings rewrites each unsafe integer literal into a string marked with a per-process nonce,
//   and a walk of the parsed value turns those strings back into BigInt. A string the service sends can never
//   be taken for a marker: it would have to guess the nonce.
// - stringifyExactJson: JSON.stringify; where a BigInt is in the value, each is written as its marker and the
//   markers are then replaced by the bare digits.
import { randomHex } from './random.js';

// Made at the first long integer, not at load.
let markers: { mark: string; json: string; marked: RegExp } | undefined;
function marks(): { mark: string; json: string; marked: RegExp } {
  if (markers) return markers;
  const mark = `\u0000exact-${randomHex(6)}:`;
  const json = JSON.stringify(mark).slice(1, -1);
  markers = { mark, json, marked: new RegExp(`"${json.replace(/\\/g, '\\\\')}(-?\\d+)"`, 'g') };
  return markers;
}
const LONG_DIGITS = /\d{16}/;

/** JSON.parse, with integers beyond 2^53 as BigInt. Throws SyntaxError like JSON.parse. */
export function parseExactJson(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  const marked = markUnsafeIntegers(text);
  if (marked === text) return JSON.parse(text);
  // A walk after a plain parse, not a reviver: a reviver makes JSON.parse several times slower.
  return unmark(JSON.parse(marked));
}

function unmark(value: unknown, mark = marks().mark): unknown {
  if (typeof value === 'string') return value.startsWith(mark) ? BigInt(value.slice(mark.length)) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = unmark(value[i], mark);
  } else {
    const object = value as Record<string, unknown>;
    for (const key in object) object[key] = unmark(object[key], mark);
  }
  return value;
}

/** JSON.stringify that writes BigInt values as bare integers. */
export function stringifyExactJson(value: unknown): string {
  // The common case, a flat record with a BigInt or two, without JSON.stringify throwing first: the copy
  // holds no BigInt (each is its marker now) unless a nested value does, so JSON.stringify goes without a
  // replacer, which is several times faster than with one.
  let copy: Record<string, unknown> | undefined;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    for (const key in object) {
      const v = object[key];
      if (typeof v === 'bigint') (copy ??= { ...object })[key] = marks().mark + v.toString();
    }
  }
  try {
    return copy ? withBareIntegers(JSON.stringify(copy)) : JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError) || !/BigInt/i.test(error.message)) throw error;
  }
  const { mark } = marks();
  return withBareIntegers(JSON.stringify(copy ?? value, (_key, v: unknown) => (typeof v === 'bigint' ? mark + v.toString() : v)));
}

function withBareIntegers(text: string): string {
  return text.replace(marks().marked, '$1');
}

/**
 * The text with every integer literal that a double cannot hold exactly put in quotes behind the mark.
 * Strings are skipped whole (escapes included); anything malformed is left for JSON.parse to refuse.
 */
export function markUnsafeIntegers(text: string): string {
  let out = '';
  let copiedTo = 0;
  const length = text.length;
  for (let i = 0; i < length; ) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const close = closingQuote(text, i + 1);
      if (close < 0) break;
      i = close + 1;
      continue;
    }
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      i++;
      while (i < length && isNumberChar(text.charCodeAt(i))) i++;
      if (i - start >= 16) {
        const literal = text.slice(start, i);
        if (/^-?\d{16,}$/.test(literal) && !Number.isSafeInteger(Number(literal))) {
          out += text.slice(copiedTo, start) + '"' + marks().json + literal + '"';
          copiedTo = i;
        }
      }
      continue;
    }
    i++;
  }
  return copiedTo === 0 ? text : out + text.slice(copiedTo);
}

/** The index of the quote closing the JSON string whose content starts at `from` (one after an odd run of backslashes is escaped), or -1. */
export function closingQuote(text: string, from: number): number {
  for (let quote = text.indexOf('"', from); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}
