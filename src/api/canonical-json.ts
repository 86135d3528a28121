// Whether JSON bytes are already what scpctl would write of them: JSON.stringify of the parsed value (big
// integers kept exact, core/exact-json.ts), with nothing for the output sanitiser to escape. A report page's
// records mostly are, and writing their bytes as they came spares a parse and a stringify of each record
// (docs/performance.md). The test is strict, and anything it does not know to be canonical is parsed and
// written the ordinary way:
// - no white space outside strings;
// - strings of printable ASCII with no escape (so no character the sanitiser would touch, and no two
//   spellings of one string);
// - integers only (`-?(0|[1-9][0-9]*)`, not `-0`): each is written back digit for digit, a big one as BigInt;
// - object keys neither repeated (JSON.parse keeps the last) nor all digits (V8 lists such keys first);
// - nesting at most MAX_DEPTH deep.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MAX_DEPTH = 16;

/** Whether bytes[start, end) is one canonical JSON value. */
export function isCanonicalJson(bytes: Buffer, start: number, end: number): boolean {
  return valueEnd(bytes, start, 0) === end;
}

/** The index just past the canonical value at `at`, or -1. */
function valueEnd(bytes: Buffer, at: number, depth: number): number {
  const c = bytes[at];
  if (c === QUOTE) return stringEnd(bytes, at);
  if (c === 0x7b) return depth < MAX_DEPTH ? objectEnd(bytes, at, depth + 1) : -1;
  if (c === 0x5b) return depth < MAX_DEPTH ? arrayEnd(bytes, at, depth + 1) : -1;
  if (c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39)) return integerEnd(bytes, at);
  if (c === 0x74) return word(bytes, at, 'true');
  if (c === 0x66) return word(bytes, at, 'false');
  if (c === 0x6e) return word(bytes, at, 'null');
  return -1;
}

function objectEnd(bytes: Buffer, open: number, depth: number): number {
  let at = open + 1;
  if (bytes[at] === 0x7d) return at + 1;
  const keys: number[] = [];
  for (;;) {
    if (bytes[at] !== QUOTE) return -1;
    const keyEnd = stringEnd(bytes, at);
    if (keyEnd < 0 || allDigits(bytes, at + 1, keyEnd - 1) || seenKey(bytes, keys, at, keyEnd)) return -1;
    keys.push(at, keyEnd);
    if (bytes[keyEnd] !== 0x3a) return -1;
    at = valueEnd(bytes, keyEnd + 1, depth);
    if (at < 0) return -1;
    const next = bytes[at];
    if (next === 0x7d) return at + 1;
    if (next !== 0x2c) return -1;
    at++;
  }
}

function arrayEnd(bytes: Buffer, open: number, depth: number): number {
  let at = open + 1;
  if (bytes[at] === 0x5d) return at + 1;
  for (;;) {
    at = valueEnd(bytes, at, depth);
    if (at < 0) return -1;
    const next = bytes[at];
    if (next === 0x5d) return at + 1;
    if (next !== 0x2c) return -1;
    at++;
  }
}

/** Past the closing quote of a string of printable ASCII without escapes, or -1. */
function stringEnd(bytes: Buffer, open: number): number {
  for (let at = open + 1; at < bytes.length; at++) {
    const c = bytes[at]!;
    if (c === QUOTE) return at + 1;
    if (c < 0x20 || c > 0x7e || c === BACKSLASH) return -1;
  }
  return -1;
}

function integerEnd(bytes: Buffer, start: number): number {
  let at = bytes[start] === 0x2d ? start + 1 : start;
  const first = bytes[at];
  if (first === undefined || first < 0x30 || first > 0x39) return -1;
  if (first === 0x30) {
    if (at > start) return -1; // -0 is written 0
    at++;
  } else {
    while (at < bytes.length && bytes[at]! >= 0x30 && bytes[at]! <= 0x39) at++;
  }
  const next = bytes[at];
  // A fraction or an exponent may be written otherwise by JSON.stringify; a digit after 0 is not JSON.
  return next === 0x2e || next === 0x65 || next === 0x45 || (next !== undefined && next >= 0x30 && next <= 0x39) ? -1 : at;
}

function word(bytes: Buffer, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return -1;
  return at + text.length;
}

function allDigits(bytes: Buffer, start: number, end: number): boolean {
  for (let at = start; at < end; at++) if (bytes[at]! < 0x30 || bytes[at]! > 0x39) return false;
  return end > start;
}

/** Whether the key at [start, end) is among `keys` (start and end pairs of this object's keys so far). */
function seenKey(bytes: Buffer, keys: readonly number[], start: number, end: number): boolean {
  const length = end - start;
  for (let k = 0; k < keys.length; k += 2) {
    if (keys[k + 1]! - keys[k]! !== length) continue;
    let same = true;
    for (let i = 1; i < length - 1 && same; i++) same = bytes[keys[k]! + i] === bytes[start + i];
    if (same) return true;
  }
  return false;
}
