// An insertion-ordered set of bucket names held as bytes, and the hash it files them by: what the name
// reader (name-bytes.ts) fills and what diffs, wire bodies and plans read, without a string a name.

const COMMA = 0x2c;
const EMPTY = -1;
/**
 * A slot holds a name's position and, above it, the top seven bits of the name's hash (the slot itself is
 * chosen by the low bits). A probe that meets another name's slot then passes it by 127 times in 128
 * without reading that name at a random place (a cache miss), and no name's whole hash is kept (issue 34).
 * 24 bits hold a position up to 16,777,215: a set holds at most one input of 32 MiB (read-input.ts), names
 * of one byte and a separator.
 */
const TAG_SHIFT = 24;
const POSITION = (1 << TAG_SHIFT) - 1;

/**
 * An insertion-ordered set of names held as bytes: `list` is the names joined by commas (the wire string),
 * `starts` locates each one in it (a name ends one comma before the next one starts, the last at
 * `byteLength`), and an open-addressing table of positions finds them by hash.
 */
export class NameSet {
  list: Buffer;
  byteLength = 0;
  size = 0;
  private starts: Int32Array;
  private slots: Int32Array;
  private mask: number;
  private strings: string[] | undefined;

  /**
   * `bytes`: about how many bytes the names take (with a separator each), so that nothing has to grow;
   * `room`: how many names the entries have room for before they grow (at least `expectedNames`).
   */
  constructor(expectedNames = 16, bytes = 1024, room = expectedNames) {
    let capacity = 16;
    while (capacity < expectedNames * 2) capacity *= 2;
    this.slots = new Int32Array(capacity).fill(EMPTY);
    this.mask = capacity - 1;
    this.starts = new Int32Array(Math.min(POSITION + 1, Math.ceil(Math.max(16, expectedNames, room))));
    this.list = Buffer.allocUnsafe(Math.max(64, bytes));
  }

  static of(names: readonly string[]): NameSet {
    const set = new NameSet(names.length, names.length * 24);
    for (const name of names) set.add(scratch, 0, encoded(name));
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
    const tag = hash >>> TAG_SHIFT;
    let slot = hash & this.mask;
    for (;;) {
      const entry = this.slots[slot]!;
      if (entry === EMPTY) break;
      if (entry >>> TAG_SHIFT === tag) {
        const position = entry & POSITION;
        if (this.equals(position, this.list, at, at + length)) return false;
      }
      slot = (slot + 1) & this.mask;
    }
    const position = this.size++;
    if (position === this.starts.length) this.growEntries();
    if (at > 0) this.list[at - 1] = COMMA;
    this.starts[position] = at;
    this.byteLength = at + length;
    this.slots[slot] = (tag << TAG_SHIFT) | position;
    this.strings = undefined;
    // Grown past seven tenths full, not a half (issue 34's memory); the tags keep a longer probe to one read
    // of adjacent slots.
    if (this.size * 10 > this.slots.length * 7) this.growSlots();
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
    const tag = hash >>> TAG_SHIFT;
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.slots[slot]!;
      if (entry === EMPTY) return -1;
      if (entry >>> TAG_SHIFT !== tag) continue;
      const position = entry & POSITION;
      if (this.equals(position, source, start, end)) return position;
    }
  }

  /** The position of a name given as a string, or -1; `guess` as indexOf's. */
  indexOfString(name: string, guess = -1): number {
    return this.indexOf(scratch, 0, encoded(name), guess);
  }

  name(position: number): string {
    return this.list.toString('utf8', this.starts[position]!, this.endOf(position));
  }

  /** Every name as a string, decoded once (names hold no comma, so the list splits back exactly). */
  names(): string[] {
    this.strings ??= this.size === 0 ? [] : this.list.toString('utf8', 0, this.byteLength).split(',');
    return this.strings;
  }

  /** Where the name at `position` ends in `list`: a comma before the next name, or the end of the used bytes. */
  private endOf(position: number): number {
    return position + 1 < this.size ? this.starts[position + 1]! - 1 : this.byteLength;
  }

  private equals(position: number, source: Uint8Array, start: number, end: number): boolean {
    const from = this.starts[position]!;
    const length = this.endOf(position) - from;
    if (length !== end - start) return false;
    const list = this.list;
    for (let i = 0; i < length; i++) if (list[from + i] !== source[start + i]) return false;
    return true;
  }

  private growEntries(): void {
    if (this.starts.length > POSITION) throw new RangeError('a name set holds at most 16,777,216 names');
    const next = new Int32Array(Math.min(POSITION + 1, this.starts.length * 2));
    next.set(this.starts);
    this.starts = next;
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
    // The hashes are not kept (4 bytes a name): each name is hashed again from its bytes, in order.
    const list = this.list;
    for (let position = 0; position < this.size; position++) {
      const hash = hashBytes(list, this.starts[position]!, this.endOf(position));
      let slot = hash & this.mask;
      while (this.slots[slot] !== EMPTY) slot = (slot + 1) & this.mask;
      this.slots[slot] = ((hash >>> TAG_SHIFT) << TAG_SHIFT) | position;
    }
  }
}

/** A name given as a string is encoded here, to be hashed and compared as bytes. */
let scratch = Buffer.allocUnsafe(256);

/** Its length in bytes. */
function encoded(name: string): number {
  if (scratch.length < name.length * 3) scratch = Buffer.allocUnsafe(name.length * 3);
  return scratch.write(name, 0, 'utf8');
}

/**
 * FNV-1a's offset basis, as a 32-bit integer (0x811c9dc5 is above 2^31: a hash started from it was a double
 * in V8's optimised loops) and mixed with bits drawn for this process, and FNV's prime. The names come from
 * files others write (a pull request's list, a manifest): with a hash anyone can compute, names can be
 * chosen to fall into a few slots of the table, and reading them takes time that grows with the square of
 * their number. Drawn per process, the slots cannot be aimed at; the table only finds names, so their order
 * and the plans are the same whatever it is.
 */
export const FNV_OFFSET = (0x811c9dc5 ^ Math.floor(Math.random() * 2 ** 32)) | 0;
export const FNV_PRIME = 0x01000193;

/** FNV-1a over the bytes, then a final mix so that the low bits (the slot) depend on every byte. */
export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, FNV_PRIME);
  return finishHash(hash);
}

/** The final mix of an FNV-1a hash the reader computed while copying a name (see hashBytes). */
export function finishHash(fnv: number): number {
  let hash = fnv ^ (fnv >>> 15);
  hash = Math.imul(hash, 0x2c1b3c6d);
  return (hash ^ (hash >>> 12)) & 0x7fffffff;
}
