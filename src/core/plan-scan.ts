// The structure of a saved plan's JSON, found in its bytes a chunk at a time and without making a string of
// it: where each item of a list lies (each entry of "profiles"; in an entry, the names of "add" and
// "delete"), and the rest (the head, small) as text. A plan of 64 MiB is then parsed a profile, and a
// profile a group of names, at a time (contract section 13). Only the structure is checked here;
// JSON.parse checks the head and each item, so every byte is checked.

/** Bytes [start, end) of the input: an item of a list, or a group of names with the commas between them. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface ScanOptions {
  /** The keys of the top object whose list values are scanned item by item. */
  lists: readonly string[];
  headBytes: number;
  /** An item over this size is refused (PlanShapeError with its index). */
  itemBytes: number;
  /** More items than this in a list are refused (PlanShapeError). */
  maxItems: number;
  onItem(list: string, start: number, end: number): void;
}

/** Why a file cannot be a plan (the caller words it); `limit` when it is one too large to hold: an item, or too many. */
export class PlanShapeError extends Error {
  constructor(
    message: string,
    readonly limit?: 'item' | 'items',
  ) {
    super(message);
  }
}

const [QUOTE, BACKSLASH, COMMA, COLON] = [0x22, 0x5c, 0x2c, 0x3a];
const [OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY] = [0x7b, 0x7d, 0x5b, 0x5d];
const isSpace = (byte: number): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
/** `[`, `]`, `{` or `}` (they differ from each other's pair by the 0x20 bit). */
const isBracket = (byte: number): boolean => (byte & 0xdf) === OPEN_ARRAY || (byte & 0xdf) === CLOSE_ARRAY;
/**
 * No plan nests deeper than four levels (a name in a list in a profile in the list of profiles): a file
 * nesting deeper is no plan, and its brackets are not counted (nor handed to JSON.parse) without end.
 */
const MAX_DEPTH = 16;
/** Long enough for "profiles" (or "delete") written with every character escaped; a longer key is another key. */
const KEY_BYTES = 64;

/**
 * Fed the input's bytes in order, it hands each item of the lists to `onItem`; `finish` returns the head (the
 * input with those items left out, so that it reads `"profiles": []`). Throws PlanShapeError.
 */
export class PlanScanner {
  private readonly closers: number[] = [];
  private inString = false;
  private escaped = false;
  private offset = 0;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  /** At depth 1 of the top object: reading a key, and the key read (up to KEY_BYTES). */
  private key: number[] | undefined;
  private expectKey = false;
  private valueIsList: string | undefined;
  private list: string | undefined;
  private items = 0;
  private readonly keysSeen = new Set<string>();
  /** Inside a list scanned: the depth of its contents, where the item being read starts (-1: none) and the state between items. */
  private listDepth = 0;
  private itemStart = -1;
  private between: 'first' | 'item' | 'comma' = 'first';

  constructor(private readonly options: ScanOptions) {}

  feed(chunk: Buffer): void {
    let headFrom = this.listDepth === 0 ? 0 : -1;
    // The next backslash, looked for again only once passed: most plans have none, and a search for it
    // from each name would cross the rest of the chunk each time.
    let backslash = -2;
    for (let i = 0; i < chunk.length; i++) {
      if (this.inString && !this.escaped && this.key === undefined) {
        // Inside a string (a name) only its end or an escape matters: skipped to, not stepped through.
        if (backslash !== -1 && backslash < i) backslash = chunk.indexOf(BACKSLASH, i);
        const quote = chunk.indexOf(QUOTE, i);
        i = Math.min(quote === -1 ? chunk.length : quote, backslash === -1 ? chunk.length : backslash);
        if (i === chunk.length) break;
      }
      const depth = this.closers.length;
      if (!this.inString && depth > (this.listDepth || 1)) {
        // Deeper than the level read (inside an item, or inside a value of the head) only strings and brackets count.
        while (i < chunk.length && chunk[i] !== QUOTE && !isBracket(chunk[i]!)) i++;
        if (i === chunk.length) break;
      }
      const byte = chunk[i]!;
      // Outside strings spaces never count.
      if (!this.inString && isSpace(byte)) continue;
      const inList = this.listDepth > 0;
      if (inList && depth === this.listDepth && !this.inString) {
        // Directly inside the list: an item starts, ends at a comma or the list's end, or goes on.
        if (byte === COMMA || byte === CLOSE_ARRAY) {
          if (this.itemStart >= 0) this.endItem(i);
          if (byte === COMMA ? this.between !== 'item' : this.between === 'comma') this.invalid();
          if (byte === COMMA) {
            this.between = 'comma';
            continue;
          }
          this.listDepth = 0;
          headFrom = i;
        } else if (this.itemStart < 0) {
          if (this.between === 'item') this.invalid();
          this.itemStart = this.offset + i;
        }
      }
      this.structure(byte);
      if (inList && this.listDepth > 0 && this.itemStart >= 0 && this.closers.length === this.listDepth && !this.inString && (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY)) {
        this.endItem(i + 1);
      }
      if (!inList && this.listDepth > 0) {
        // The list opened at this byte: the head keeps its `[`, not what is inside it.
        this.keepHead(chunk.subarray(headFrom, i + 1));
        headFrom = -1;
      }
    }
    if (headFrom !== -1) this.keepHead(chunk.subarray(headFrom));
    this.offset += chunk.length;
    if (this.itemStart >= 0 && this.offset - this.itemStart > this.options.itemBytes) this.tooLarge();
  }

  /** The head: the input with the items of its lists left out (they read `[]`). */
  finish(): string {
    if (this.inString || this.closers.length > 0 || this.offset === 0) this.invalid();
    return Buffer.concat(this.head).toString('utf8');
  }

  private tooLarge(): never {
    throw new PlanShapeError(`${this.list}[${this.items}] is over ${this.options.itemBytes / 1024 / 1024} MiB`, 'item');
  }

  /** Ends the item being read before byte `at` of this chunk (its range holds any spaces after it). */
  private endItem(at: number): void {
    const end = this.offset + at;
    if (end - this.itemStart > this.options.itemBytes) this.tooLarge();
    this.options.onItem(this.list!, this.itemStart, end);
    this.items++;
    if (this.items > this.options.maxItems) throw new PlanShapeError(`"${this.list}" holds more than ${this.options.maxItems.toLocaleString('en-US')} items`, 'items');
    this.itemStart = -1;
    this.between = 'item';
  }

  /** Strings, nesting, and the keys of the top object (to find the lists). */
  private structure(byte: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (byte === BACKSLASH) this.escaped = true;
      else if (byte === QUOTE) this.inString = false;
      if (this.key && this.key.length <= KEY_BYTES) this.key.push(byte);
      if (!this.inString && this.key) this.endKey();
      return;
    }
    const depth = this.closers.length;
    if (byte === QUOTE) {
      this.inString = true;
      if (depth === 1 && this.expectKey) this.key = [byte];
      else this.startValue(byte);
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      this.startValue(byte);
      this.closers.push(byte === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY);
      if (this.closers.length > MAX_DEPTH) throw new PlanShapeError(`nested more than ${MAX_DEPTH} levels deep`);
      if (this.closers.length === 1) this.expectKey = byte === OPEN_OBJECT;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (this.closers.pop() !== byte) this.invalid();
    } else if (depth === 1 && byte === COMMA) {
      this.expectKey = true;
    } else if (!isSpace(byte) && byte !== COLON) {
      this.startValue(byte);
    }
  }

  private endKey(): void {
    const raw = this.key!;
    this.key = undefined;
    this.expectKey = false;
    if (raw.length > KEY_BYTES) return;
    let key: unknown;
    try {
      key = JSON.parse(Buffer.from(raw).toString('utf8'));
    } catch {
      this.invalid();
    }
    if (typeof key === 'string' && this.options.lists.includes(key)) {
      if (this.keysSeen.has(key)) throw new PlanShapeError(`${JSON.stringify(key)} appears twice`);
      this.keysSeen.add(key);
      this.valueIsList = key;
    }
  }

  /** A value starts at depth 1 (or deeper): the one after a key of `lists` is scanned, if it is a list. */
  private startValue(byte: number): void {
    if (this.closers.length !== 1 || this.valueIsList === undefined) return;
    const key = this.valueIsList;
    this.valueIsList = undefined;
    if (byte === OPEN_ARRAY) {
      this.listDepth = 2;
      this.between = 'first';
      this.list = key;
      this.items = 0;
    }
  }

  private keepHead(bytes: Buffer): void {
    this.headBytes += bytes.length;
    if (this.headBytes > this.options.headBytes) {
      throw new PlanShapeError(`its fields other than ${this.options.lists.map((key) => `"${key}"`).join(' and ')} hold more than ${this.options.headBytes / 1024} KiB`);
    }
    this.head.push(Buffer.from(bytes));
  }

  private invalid(): never {
    throw new PlanShapeError('not valid JSON');
  }
}
