// Bucket names as bytes, the one reader of names (docs/performance.md, "Names as bytes"): scanned, checked and
// de-duplicated in the buffers they were read into, a string made only for a name that must be printed. It
// does exactly what the plain text statement of the rules does (test/unit/reference-reader.ts; the property
// tests hold the two together), and names.ts gives the reasons for invalid names.
import {
  MAX_REPORTED_INVALID,
  RESERVED_PREFIXES,
  RESERVED_SUFFIXES,
  checkWireSafe,
  describeOrigin,
  validateS3Name,
  type InvalidName,
  type NameOrigin,
} from './names.js';
import { FNV_OFFSET, FNV_PRIME, NameSet, finishHash } from './name-set.js';

export interface ByteNameSource {
  origin: NameOrigin;
  /** Strictly valid UTF-8 (read-input checks it). */
  bytes: Uint8Array;
  /** The line its first byte is on, when it is part of a larger file (a manifest's inline list); 1 if not given. */
  line?: number;
}

export interface ByteNamesResult {
  /** The unique names, in first-seen order, as the wire has them: joined by commas. */
  names: NameSet;
  duplicates: number;
  invalid: InvalidName[];
  invalidCount: number;
  /**
   * Set when `names` passed the `limit` asked for: what was read past it, checked but neither kept nor
   * de-duplicated (so its counts may hold repeats).
   */
  beyond?: { bytes: number; names: number };
}

const COMMA = 0x2c;
const SPACE = 0x20;
const TAB = 0x09;
const HASH = 0x23;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Splits every source into names (newlines, commas, spaces and tabs separate; `#` starts a comment; a
 * byte-order mark at the start is dropped), checks each, and drops repeats keeping the first.
 */
export function readBucketNameBytes(sources: readonly ByteNameSource[], options: { validate: boolean; limit?: number }): ByteNamesResult {
  const total = sources.reduce((sum, source) => sum + source.bytes.length + 1, 0);
  const state: ReadState = {
    // About one name per 24 bytes of input (at most what 8 MiB holds): the table seldom has to grow, and is
    // small enough to keep more of it in the cache. The entries have room for one name per 16 bytes: memory
    // no name is written to is never touched, and they need not grow (three new arrays and a copy).
    names: new NameSet(Math.min(total / 24, 600_000), total, options.validate ? total / 4 : total / 2),
    validate: options.validate,
    invalid: [],
    invalidCount: 0,
    duplicates: 0,
    limit: options.limit ?? Infinity,
    keeping: true,
    beyondBytes: 0,
    beyondNames: 0,
  };
  for (const source of sources) scanSource(source, state);
  const { names, duplicates, invalid, invalidCount } = state;
  return { names, duplicates, invalid, invalidCount, ...(state.keeping ? {} : { beyond: { bytes: state.beyondBytes, names: state.beyondNames } }) };
}

interface ReadState extends Omit<ByteNamesResult, 'names' | 'beyond'> {
  names: NameSet;
  validate: boolean;
  /**
   * The list's size past which names are only checked and counted, not kept (issue 34: a manifest
   * profile's 24 MiB of short names, which no request can carry, held 3.6 million names).
   */
  limit: number;
  keeping: boolean;
  beyondBytes: number;
  beyondNames: number;
}

/** One pass over a source's bytes: each usual name copied into the list, hashed and checked as it is read. */
function scanSource({ origin, bytes, line: firstLine = 1 }: ByteNameSource, state: ReadState): void {
  const { names, validate } = state;
  const kinds = validate ? S3_BYTE : WIRE_BYTE;
  const length = bytes.length;
  names.reserve(length);
  let list = names.list;
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let line = firstLine;
  // Each byte read adds at most one byte to the list (a name, and a comma for the separator before it): up
  // to `stop` the list cannot pass the limit, so the loop looks at the limit once a stretch, not once a name.
  let stop = stretchEnd(state, i, length);
  // A CR ends a name only right before a LF or at the very end (CRLF lines); anywhere else it is part of
  // the name, as in the text statement of the rules (which strips one CR a line).
  while (i < length) {
    if (i >= stop) stop = stretchEnd(state, i, length);
    const c = bytes[i]!;
    if (c === LF) {
      line++;
      i++;
      continue;
    }
    if (c === COMMA || c === SPACE || c === TAB || (c === CR && (i + 1 === length || bytes[i + 1] === LF))) {
      i++;
      continue;
    }
    if (c === HASH) {
      const next = bytes.indexOf(LF, i);
      i = next === -1 ? length : next;
      continue;
    }
    const start = i;
    const at = names.nextOffset();
    i = copyName(bytes, start, kinds, list, at);
    const hash = NAME[0]!;
    const kindsSeen = NAME[1]!;
    const ended = i === length || isNameEnd(bytes, i);
    if (ended && (!validate || isValidShape(bytes, start, i, kindsSeen))) {
      if (!state.keeping) countBeyond(state, i - start);
      else if (!names.commit(at, i - start, finishHash(hash))) state.duplicates++;
      continue;
    }
    i = judgeAsText(bytes, start, i, { origin, line }, state);
    list = names.list; // in case adding had to make room
  }
}

/**
 * Stops keeping names once the list is past the limit; returns where the next look at it is due: the end,
 * once names are no longer kept (or no limit was asked).
 */
function stretchEnd(state: ReadState, i: number, length: number): number {
  if (state.keeping && state.names.byteLength > state.limit) state.keeping = false;
  if (!state.keeping || state.limit === Infinity) return length;
  return Math.min(length, i + Math.max(1, state.limit + 1 - state.names.byteLength));
}

function countBeyond(state: ReadState, length: number): void {
  state.beyondBytes += length + 1;
  state.beyondNames++;
}

/** What copyName found besides where the name ends: its hash, and the kinds of byte it holds (bits). */
const NAME = new Int32Array(2);

/**
 * Copies the usual bytes of a name from `start` into `list` at `at`, hashing them and noting their kinds as
 * it goes; returns where they stop (NAME holds the rest). A function of its own, small and called once a
 * name, so that V8 optimises it within the first names instead of replacing a long-running loop on the stack
 * later. Nothing but the copy, the hash and one OR is done a byte: the rules on dots look at the name again
 * only when it has one (isValidShape).
 */
function copyName(bytes: Uint8Array, start: number, kinds: Uint8Array, list: Uint8Array, at: number): number {
  const length = bytes.length;
  let hash = FNV_OFFSET;
  let seen = 0;
  let i = start;
  for (; i < length; i++) {
    const d = bytes[i]!;
    const kind = kinds[d]!;
    if (kind === 0) break;
    list[at + i - start] = d;
    hash = Math.imul(hash ^ d, FNV_PRIME);
    seen |= kind;
  }
  NAME[0] = hash;
  NAME[1] = seen;
  return i;
}

/**
 * Anything but a usual name (upper case, other characters, non-ASCII) is judged, and explained, as text:
 * refused with its reason, or (without validation) added. Returns where the name ends.
 */
function judgeAsText(bytes: Uint8Array, start: number, from: number, at: { origin: NameOrigin; line: number }, state: ReadState): number {
  let i = from;
  while (i < bytes.length && !isNameEnd(bytes, i)) i++;
  const name = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8', start, i);
  const reason = (state.validate ? validateS3Name : checkWireSafe)(name);
  if (reason !== null) {
    state.invalidCount++;
    if (state.invalid.length < MAX_REPORTED_INVALID) state.invalid.push({ where: describeOrigin(at.origin, at.line), name, reason });
  } else if (!state.keeping) countBeyond(state, i - start);
  else if (!state.names.add(bytes, start, i)) state.duplicates++;
  return i;
}

// A byte's kind is one bit, so that a name's kinds are the OR of its bytes'.
const LETTER = 1;
const DIGIT = 2;
const DASH = 4;
const DOT = 8;
// Bytes of a-z, 0-9, "-" and ".": the only ones an S3 name may hold (0: any other byte).
const S3_BYTE = new Uint8Array(256);
for (let c = 0x61; c <= 0x7a; c++) S3_BYTE[c] = LETTER;
for (let c = 0x30; c <= 0x39; c++) S3_BYTE[c] = DIGIT;
S3_BYTE[0x2d] = DASH;
S3_BYTE[0x2e] = DOT;
// Without validation: printable ASCII but the comma and `#` is taken at once; anything else goes to the text check.
const WIRE_BYTE = new Uint8Array(256);
for (let c = 0x21; c <= 0x7e; c++) WIRE_BYTE[c] = LETTER;
WIRE_BYTE[COMMA] = 0;
WIRE_BYTE[HASH] = 0;

function isNameEnd(bytes: Uint8Array, i: number): boolean {
  const d = bytes[i];
  if (d === LF || d === SPACE || d === TAB || d === COMMA || d === HASH) return true;
  return d === CR && (i + 1 === bytes.length || bytes[i + 1] === LF);
}

/** The S3 rules beyond the characters (those are checked while the name is scanned); `kinds`: copyName's. */
function isValidShape(bytes: Uint8Array, start: number, end: number, kinds: number): boolean {
  const length = end - start;
  if (length < 3 || length > 63) return false;
  const first = S3_BYTE[bytes[start]!]!;
  const last = S3_BYTE[bytes[end - 1]!]!;
  if (first !== LETTER && first !== DIGIT) return false;
  if (last !== LETTER && last !== DIGIT) return false;
  if ((kinds & DOT) !== 0 && !dotsAllowed(bytes, start, end, kinds)) return false;
  // The reserved words start with x, s or a and end with s, 3 or p: most names need no comparison at all.
  const head = bytes[start];
  if (head === 0x78 || head === 0x73 || head === 0x61) {
    for (const prefix of PREFIX_BYTES) if (startsWith(bytes, start, end, prefix)) return false;
  }
  const tail = bytes[end - 1];
  if (tail === 0x73 || tail === 0x33 || tail === 0x70) {
    for (const suffix of SUFFIX_BYTES) if (endsWith(bytes, start, end, suffix)) return false;
  }
  return true;
}

/** The rules on dots of a name that has one: no two side by side, and not four numbers (an IPv4 address). */
function dotsAllowed(bytes: Uint8Array, start: number, end: number, kinds: number): boolean {
  let dots = 0;
  for (let i = start; i < end; i++) {
    if (bytes[i] !== 0x2e) continue;
    if (i + 1 < end && bytes[i + 1] === 0x2e) return false;
    dots++;
  }
  return (kinds & (LETTER | DASH)) !== 0 || dots !== 3;
}

const PREFIX_BYTES = RESERVED_PREFIXES.map((s) => Buffer.from(s));
const SUFFIX_BYTES = RESERVED_SUFFIXES.map((s) => Buffer.from(s));

function startsWith(bytes: Uint8Array, start: number, end: number, prefix: Uint8Array): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[start + i] !== prefix[i]) return false;
  return true;
}

function endsWith(bytes: Uint8Array, start: number, end: number, suffix: Uint8Array): boolean {
  if (end - start < suffix.length) return false;
  const from = end - suffix.length;
  for (let i = 0; i < suffix.length; i++) if (bytes[from + i] !== suffix[i]) return false;
  return true;
}
