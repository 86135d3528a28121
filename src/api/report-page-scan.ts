// A report page read a slice of records at a time, from its bytes, so that `report --all` does not grow
// with the record count (docs/performance.md, "Report memory"). The answer's bytes are scanned once for
// where each record of the top-level "data" array starts and ends; a skeleton of the answer (the array
// emptied) goes through readResponse, so every rule about statuses and errors stays in response.ts.
// Anything unusual (the array elsewhere, a repeated or escaped key, a record that is not an object, deep
// nesting) gives null: the caller reads the answer the ordinary way, which also words every error. Every
// byte the scan looks for is ASCII, and UTF-8 never uses an ASCII byte inside a longer character, so slices
// cut no character. bucket-list-scan.ts walks a view answer the same way over text: a rule about keys,
// escapes or depth changes in both.
import { parseExactJson } from '../core/exact-json.js';
import { isCanonicalJson } from './canonical-json.js';
import { MAX_JSON_DEPTH } from '../core/service-text.js';
import type { JsonObject } from './response.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** A page's records, found but not yet built. */
export interface RecordSlices {
  /** The answer with its records array emptied, for readResponse. */
  skeleton: string;
  readonly length: number;
  records(from: number, to: number): JsonObject[];
  /** The same records as their bytes, when each is what would be written of it (canonical-json.ts), else null. */
  canonical(from: number, to: number): Buffer[] | null;
}

const DATA = Buffer.from('data');

/** Where the records of the answer `text` are, or null when the answer needs the ordinary reader. */
export function scanReportPage(text: Buffer): RecordSlices | null {
  let i = skipSpace(text, 0);
  if (text[i] !== OPEN_BRACE) return null;
  i = skipSpace(text, i + 1);
  let found: { open: number; close: number; bounds: number[] } | undefined;
  while (text[i] === QUOTE) {
    const keyEnd = endOfString(text, i);
    if (keyEnd < 0) return null;
    const key = text.subarray(i + 1, keyEnd);
    if (key.includes(BACKSLASH)) return null;
    i = skipSpace(text, keyEnd + 1);
    if (text[i] !== COLON) return null;
    i = skipSpace(text, i + 1);
    if (key.equals(DATA)) {
      if (found || text[i] !== OPEN_BRACKET) return null;
      const bounds: number[] = [];
      const close = scanRecords(text, i, bounds);
      if (close < 0) return null;
      found = { open: i, close, bounds };
      i = close + 1;
    } else {
      i = endOfValue(text, i);
      if (i < 0) return null;
    }
    i = skipSpace(text, i);
    if (text[i] === COMMA) i = skipSpace(text, i + 1);
    else break;
  }
  if (!found || text[i] !== CLOSE_BRACE || skipSpace(text, i + 1) !== text.length) return null;
  const { open, close, bounds } = found;
  return {
    skeleton: `${text.toString('utf8', 0, open)}[]${text.toString('utf8', close + 1)}`,
    length: bounds.length / 2,
    records(from: number, to: number): JsonObject[] {
      if (to <= from) return [];
      return parseExactJson(`[${text.toString('utf8', bounds[2 * from]!, bounds[2 * to - 1]!)}]`) as JsonObject[];
    },
    canonical(from: number, to: number): Buffer[] | null {
      const records: Buffer[] = [];
      for (let r = from; r < to; r++) {
        if (!isCanonicalJson(text, bounds[2 * r]!, bounds[2 * r + 1]!)) return null;
        records.push(text.subarray(bounds[2 * r]!, bounds[2 * r + 1]!));
      }
      return records;
    },
  };
}

/**
 * From the `[` at `open`: each element's start and end (exclusive) into `bounds`; the index of the closing
 * `]`, or -1 when an element is not an object or nests too deep.
 */
function scanRecords(text: Buffer, open: number, bounds: number[]): number {
  let i = skipSpace(text, open + 1);
  if (text[i] === CLOSE_BRACKET) return i;
  for (;;) {
    if (text[i] !== OPEN_BRACE) return -1;
    const end = endOfValue(text, i, 2);
    if (end < 0) return -1;
    bounds.push(i, end);
    i = skipSpace(text, end);
    const c = text[i];
    if (c === CLOSE_BRACKET) return i;
    if (c !== COMMA) return -1;
    i = skipSpace(text, i + 1);
  }
}

/**
 * The index just past the value starting at `start`, or -1 when it is not well formed as far as brackets
 * and strings go (JSON.parse of the slice judges the rest) or nests deeper than the service ever does.
 */
function endOfValue(text: Buffer, start: number, depthAbove = 0): number {
  const first = text[start];
  if (first === QUOTE) {
    const end = endOfString(text, start);
    return end < 0 ? -1 : end + 1;
  }
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let i = start;
    while (i < text.length && !isDelimiter(text[i])) i++;
    return i === start ? -1 : i;
  }
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === QUOTE) {
      i = endOfString(text, i);
      if (i < 0) return -1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      // Well short of the ordinary reader's limit, so that whatever it would refuse is left to it.
      if (++depth + depthAbove > MAX_JSON_DEPTH - 4) return -1;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

/** The index of the quote closing the string that opens at `open`, or -1. */
function endOfString(text: Buffer, open: number): number {
  for (let quote = text.indexOf(QUOTE, open + 1); quote !== -1; quote = text.indexOf(QUOTE, quote + 1)) {
    let backslashes = 0;
    while (text[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
}

function skipSpace(text: Buffer, i: number): number {
  for (;;) {
    const c = text[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

function isDelimiter(c: number): boolean {
  return c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
