// Bucket names as bytes: the path every command reads its names through. A 400,000-name list is scanned,
// checked and de-duplicated in the buffers it was read into, and the wire list is written straight into one
// buffer; a JavaScript string is made only for a name that must be printed (an invalid one, a plan line).
// It is the one reader of names: it does exactly what the plain text statement of the rules does
// (test/unit/reference-reader.ts; the property tests hold the two together), and names.ts gives the reasons
// for invalid names.
import {
  MAX_REPORTED_INVALID,
  checkWireSafe,
  describeOrigin,
  validateS3Name,
  type InvalidName,
  type NameOrigin,
} from './names.js';

export interface ByteNameSource {
  origin: NameOrigin;
  /** Strictly valid UTF-8 (read-input checks it). */
  bytes: Uint8Array;
}

export interface ByteNamesResult {
  /** The unique names, in first-seen order, as the wire has them: joined by commas. */
  names: NameSet;
  duplicates: number;
  invalid: InvalidName[];
  invalidCount: number;
}

const COMMA = 0x2c;
const SPACE = 0x20;
const TAB = 0x09;
const HASH = 0x23;
const LF = 0x0a;
const CR = 0x0d;
const EMPTY = -1;

/**
 * An insertion-ordered set of names held as bytes: `list` is the names joined by commas (the wire string),
 * `starts`/`ends` locate each one in it, and an open-addressing table of positions finds them by hash.
 */
export class NameSet {
  /** The names joined by commas; `byteLength` bytes of it are used. */
  list: Buffer;
  byteLength = 0;
  size = 0;
  private starts: Int32Array;
  private ends: Int32Array;
  private hashes: Int32Array;
  private slots: Int32Array;
  private mask: number;
  private strings: string[] | undefined;

  /** `bytes`: about how many bytes the names take (with a separator each), so that nothing has to grow. */
  constructor(expectedNames = 16, bytes = 1024) {
    let capacity = 16;
    while (capacity < expectedNames * 2) capacity *= 2;
    this.slots = new Int32Array(capacity).fill(EMPTY);
    this.mask = capacity - 1;
    this.starts = new Int32Array(Math.max(16, expectedNames));
    this.ends = new Int32Array(this.starts.length);
    this.hashes = new Int32Array(this.starts.length);
    this.list = Buffer.allocUnsafe(Math.max(64, bytes));
  }

  static of(names: Iterable<string>): NameSet {
    const set = Array.isArray(names) ? new NameSet(names.length, names.length * 24) : new NameSet();
    let scratch = Buffer.allocUnsafe(256);
    for (const name of names) {
      if (scratch.length < name.length * 3) scratch = Buffer.allocUnsafe(name.length * 3);
      set.add(scratch, 0, scratch.write(name, 0, 'utf8'));
    }
    return set;
  }

  /** Adds the name at `source[start, end)` unless present; true when it was new. */
  add(source: Uint8Array, start: number, end: number): boolean {
    const length = end - start;
    this.reserve(length);
    const at = this.nextOffset();
    // Written where it would go, then committed (a repeat leaves it as scratch): one probe of the table.
    // Names are short: a loop beats making a view of the source for each.
    for (let i = 0; i < length; i++) this.list[at + i] = source[start + i]!;
    return this.commit(at, length, hashBytes(source, start, end));
  }

  /** Where the next name's bytes go in `list` (after a comma, unless it is the first). */
  nextOffset(): number {
    return this.size === 0 ? 0 : this.byteLength + 1;
  }

  /** Room for `bytes` more bytes of names in `list`, so that a reader can write a name there before adding it. */
  reserve(bytes: number): void {
    if (this.nextOffset() + bytes > this.list.length) this.growList(this.nextOffset() + bytes);
  }

  /**
   * Adds the name already written at `list[at, at + length)` (at = nextOffset()), with its hash; true when
   * it was new. A repeat leaves the set as it was: the bytes past `byteLength` are scratch.
   */
  commit(at: number, length: number, hash: number): boolean {
    let slot = hash & this.mask;
    for (;;) {
      const position = this.slots[slot]!;
      if (position === EMPTY) break;
      if (this.hashes[position] === hash && this.equals(position, this.list, at, at + length)) return false;
      slot = (slot + 1) & this.mask;
    }
    const position = this.size++;
    if (position === this.starts.length) this.growEntries();
    if (at > 0) this.list[at - 1] = COMMA;
    this.starts[position] = at;
    this.ends[position] = at + length;
    this.byteLength = at + length;
    this.hashes[position] = hash;
    this.slots[slot] = position;
    this.strings = undefined;
    if (this.size * 2 > this.slots.length) this.growSlots();
    return true;
  }

  /**
   * The position of the name at `source[start, end)`, or -1. A `guess` is compared first, before any
   * hashing: a caller walking a list kept in this set's order (sync's diff) passes the position after the
   * last one it found, and skips the table's random reads (a cache miss a name on large sets).
   */
  indexOf(source: Uint8Array, start: number, end: number, guess = -1): number {
    if (guess >= 0 && guess < this.size && this.equals(guess, source, start, end)) return guess;
    const hash = hashBytes(source, start, end);
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const position = this.slots[slot]!;
      if (position === EMPTY) return -1;
      if (this.hashes[position] === hash && this.equals(position, source, start, end)) return position;
    }
  }

  /**
   * The position of a name given as a string, or -1. An ASCII name (nearly every one) is hashed and
   * compared from its character codes, which are its bytes; any other is encoded first.
   */
  indexOfString(name: string): number {
    let hash = 0x811c9dc5;
    for (let i = 0; i < name.length; i++) {
      const c = name.charCodeAt(i);
      if (c >= 0x80) {
        const bytes = Buffer.from(name, 'utf8');
        return this.indexOf(bytes, 0, bytes.length);
      }
      hash = Math.imul(hash ^ c, 0x01000193);
    }
    hash = finishHash(hash);
    const list = this.list;
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const position = this.slots[slot]!;
      if (position === EMPTY) return -1;
      if (this.hashes[position] !== hash) continue;
      const from = this.starts[position]!;
      if (this.ends[position]! - from !== name.length) continue;
      let i = 0;
      while (i < name.length && list[from + i] === name.charCodeAt(i)) i++;
      if (i === name.length) return position;
    }
  }

  /** The name at `position` as a string. */
  name(position: number): string {
    return this.list.toString('utf8', this.starts[position]!, this.ends[position]!);
  }

  /** Every name as a string, decoded once (names hold no comma, so the list splits back exactly). */
  names(): string[] {
    this.strings ??= this.size === 0 ? [] : this.list.toString('utf8', 0, this.byteLength).split(',');
    return this.strings;
  }

  private equals(position: number, source: Uint8Array, start: number, end: number): boolean {
    const from = this.starts[position]!;
    const length = this.ends[position]! - from;
    if (length !== end - start) return false;
    const list = this.list;
    for (let i = 0; i < length; i++) if (list[from + i] !== source[start + i]) return false;
    return true;
  }

  private growEntries(): void {
    const grow = (old: Int32Array): Int32Array => {
      const next = new Int32Array(old.length * 2);
      next.set(old);
      return next;
    };
    this.starts = grow(this.starts);
    this.ends = grow(this.ends);
    this.hashes = grow(this.hashes);
  }

  private growList(needed: number): void {
    const next = Buffer.allocUnsafe(Math.max(needed, this.list.length * 2));
    this.list.copy(next, 0, 0, this.byteLength);
    this.list = next;
  }

  private growSlots(): void {
    const capacity = this.slots.length * 2;
    this.slots = new Int32Array(capacity).fill(EMPTY);
    this.mask = capacity - 1;
    for (let position = 0; position < this.size; position++) {
      let slot = this.hashes[position]! & this.mask;
      while (this.slots[slot] !== EMPTY) slot = (slot + 1) & this.mask;
      this.slots[slot] = position;
    }
  }
}

/** FNV-1a over the bytes, then a final mix so that the low bits (the slot) depend on every byte. */
export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return finishHash(hash);
}

function finishHash(fnv: number): number {
  let hash = fnv ^ (fnv >>> 15);
  hash = Math.imul(hash, 0x2c1b3c6d);
  return (hash ^ (hash >>> 12)) & 0x7fffffff;
}

/**
 * Splits every source into names (newlines, commas, spaces and tabs separate; `#` starts a comment; a
 * byte-order mark at the start is dropped), checks each, and drops repeats keeping the first.
 */
export function readBucketNameBytes(sources: readonly ByteNameSource[], options: { validate: boolean }): ByteNamesResult {
  const total = sources.reduce((sum, source) => sum + source.bytes.length + 1, 0);
  // About one name per 16 bytes of input (at most what 8 MiB holds), so the table seldom has to grow.
  const names = new NameSet(Math.min(total / 16, 600_000), total);
  const kinds = options.validate ? S3_BYTE : WIRE_BYTE;
  const check = options.validate ? validateS3Name : checkWireSafe;
  const invalid: InvalidName[] = [];
  let invalidCount = 0;
  let duplicates = 0;

  for (const { origin, bytes } of sources) {
    const length = bytes.length;
    names.reserve(length);
    let list = names.list;
    let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    let line = 1;
    // One pass over the bytes. A CR ends a name only right before a LF or at the very end (CRLF lines);
    // anywhere else it is part of the name, as in the text reader (which strips one CR a line).
    while (i < length) {
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
      // The usual name is copied into the list, hashed and checked in the same pass over its bytes.
      const start = i;
      const at = names.nextOffset();
      let hash = 0x811c9dc5;
      let dots = 0;
      let letters = 0;
      let previous = 0;
      let adjacentDots = false;
      for (; i < length; i++) {
        const d = bytes[i]!;
        const kind = kinds[d]!;
        if (kind === 0) break;
        list[at + i - start] = d;
        hash = Math.imul(hash ^ d, 0x01000193);
        if (kind === DOT) {
          if (previous === DOT) adjacentDots = true;
          dots++;
        } else if (kind !== DIGIT) letters++;
        previous = kind;
      }
      const ended = i === length || isNameEnd(bytes, i);
      if (ended && (!options.validate || isValidShape(bytes, start, i, dots, letters, adjacentDots))) {
        if (!names.commit(at, i - start, finishHash(hash))) duplicates++;
        continue;
      }
      // Anything else (upper case, other characters, non-ASCII) is judged, and explained, as text.
      while (i < length && !isNameEnd(bytes, i)) i++;
      const name = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8', start, i);
      const reason = check(name);
      if (reason !== null) {
        invalidCount++;
        if (invalid.length < MAX_REPORTED_INVALID) invalid.push({ where: describeOrigin(origin, line), name, reason });
        continue;
      }
      if (!names.add(bytes, start, i)) duplicates++;
      list = names.list; // in case adding had to make room
    }
  }
  return { names, duplicates, invalid, invalidCount };
}

const LETTER = 1;
const DIGIT = 2;
const DASH = 3;
const DOT = 4;
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

/** Whether the byte at `i` ends a name: a separator, `#`, or a CR before a LF or at the end. */
function isNameEnd(bytes: Uint8Array, i: number): boolean {
  const d = bytes[i];
  if (d === LF || d === SPACE || d === TAB || d === COMMA || d === HASH) return true;
  return d === CR && (i + 1 === bytes.length || bytes[i + 1] === LF);
}

/** The S3 rules beyond the characters (those are checked while the name is scanned). */
function isValidShape(bytes: Uint8Array, start: number, end: number, dots: number, letters: number, adjacentDots: boolean): boolean {
  const length = end - start;
  if (length < 3 || length > 63 || adjacentDots) return false;
  const first = S3_BYTE[bytes[start]!]!;
  const last = S3_BYTE[bytes[end - 1]!]!;
  if (first > DIGIT || last > DIGIT) return false;
  if (letters === 0 && dots === 3) return false;
  // The reserved words start with x, s or a and end with s, 3 or p: most names need no comparison at all.
  const head = bytes[start];
  if (head === 0x78 || head === 0x73 || head === 0x61) {
    for (const prefix of RESERVED_PREFIXES) if (startsWith(bytes, start, end, prefix)) return false;
  }
  const tail = bytes[end - 1];
  if (tail === 0x73 || tail === 0x33 || tail === 0x70) {
    for (const suffix of RESERVED_SUFFIXES) if (endsWith(bytes, start, end, suffix)) return false;
  }
  return true;
}

const RESERVED_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-'].map((s) => Buffer.from(s));
const RESERVED_SUFFIXES = ['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'].map((s) => Buffer.from(s));

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
