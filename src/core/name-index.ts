// An insertion-ordered set of strings that also knows each one's position. The name reader de-duplicates
// 400,000 names with it and sync's diff looks 400,000 more up in it. Measured on the 2-core benchmark
// machine it does both about a third faster than a built-in Set or Map: the table is one typed array sized
// up front, with no per-entry objects, and a string's hash is computed once and kept for growing.

const EMPTY = -1;

export class NameIndex {
  /** The names, in the order they were first added. */
  readonly names: string[] = [];
  private hashes: number[] = [];
  private slots: Int32Array;
  private mask: number;

  /** `expected`: about how many names will be added, so that the table rarely has to grow. */
  constructor(expected = 16) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.slots = new Int32Array(capacity).fill(EMPTY);
    this.mask = capacity - 1;
  }

  static of(names: Iterable<string>): NameIndex {
    const index = new NameIndex(Array.isArray(names) ? names.length : 16);
    for (const name of names) index.add(name);
    return index;
  }

  get size(): number {
    return this.names.length;
  }

  /** Adds `name` unless present; true when it was new. */
  add(name: string): boolean {
    const hash = hashOf(name);
    let slot = hash & this.mask;
    for (;;) {
      const position = this.slots[slot]!;
      if (position === EMPTY) break;
      if (this.hashes[position] === hash && this.names[position] === name) return false;
      slot = (slot + 1) & this.mask;
    }
    this.slots[slot] = this.names.length;
    this.names.push(name);
    this.hashes.push(hash);
    if (this.names.length * 2 > this.slots.length) this.grow();
    return true;
  }

  /** The position of `name`, or -1. */
  indexOf(name: string): number {
    const hash = hashOf(name);
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const position = this.slots[slot]!;
      if (position === EMPTY) return -1;
      if (this.hashes[position] === hash && this.names[position] === name) return position;
    }
  }

  private grow(): void {
    const capacity = this.slots.length * 2;
    this.slots = new Int32Array(capacity).fill(EMPTY);
    this.mask = capacity - 1;
    for (let position = 0; position < this.names.length; position++) {
      let slot = this.hashes[position]! & this.mask;
      while (this.slots[slot] !== EMPTY) slot = (slot + 1) & this.mask;
      this.slots[slot] = position;
    }
  }
}

/** FNV-1a over UTF-16 code units, then a final mix so that the low bits (the slot) depend on every unit. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  return (hash ^ (hash >>> 12)) >>> 0;
}
