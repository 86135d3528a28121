// A saved plan's structure, found in its lines as --save-plan writes them (JSON.stringify(plan, null, 1):
// saved-plan.ts), a chunk of bytes at a time and without making a string of it: the head's fields, each
// profile's fields, and where its names lie (one a line, four levels down). Only that layout is read: a
// plan is made by scpctl alone and sealed, so other text is no plan, and no nesting, escape or key order
// has to be followed. A line of names is not kept, only where it lies: JSON.parse checks the names a group
// at a time (saved-plan-file.ts), the head and each profile's fields whole, so every byte is checked.
import { UsageError } from '../errors.js';
import { SMALLER_PLANS, notAPlan } from './saved-plan.js';

/** Bytes [start, end) of the input: a group of names, with the commas and line breaks between them. */
export interface ByteRange {
  start: number;
  end: number;
}

/** A profile's entry: its bytes, its fields as JSON (its lists read `[]`), and its names in groups. */
export interface PlanEntry extends ByteRange {
  fields: string;
  groups: { add: ByteRange[]; delete: ByteRange[] };
  /** How many names each list holds: the seal covers the count before the names (saved-plan.ts). */
  counts: { add: number; delete: number };
}

/** What a plan may hold (a test gives smaller limits). */
export const PLAN_LIMITS = {
  /** The head (every field but the profiles: a context, a base URL, a path) and one entry's fields: anything near this large is no plan. */
  textBytes: 256 * 1024,
  /**
   * An entry over this size is refused (naming it): a profile adding and deleting 8 MiB
   * on the wire (names of 20 characters or more, as the plan file writes them). Apply holds one entry's bytes
   * at a time, and a larger one could not be sent anyway.
   */
  entryBytes: 24 * 1024 * 1024,
  /**
   * More entries than this are refused : apply keeps an outline of each for the run
   * (with its outcome, 2 KB or more of heap). Measured on plans of 64 MiB, all profiles absent: 16,500 peak
   * near 190 MB, 25,000 near 250 MB. A plan of more would be tiny profiles by the hundred thousand, each one request.
   */
  entries: 15_000,
  /** About this many bytes of names a group (some 10,000 names), parsed at once. */
  groupBytes: 256 * 1024,
};

const [NEWLINE, COMMA] = [0x0a, 0x2c];
/** A line of names starts so; fewer spaces start the line that ends the list. */
const NAME_START = Buffer.from('    "');
const LIST_START = /^ {3}"(add|delete)": \[(\]?),?$/;

type State = 'head' | 'entries' | 'fields' | 'names' | 'tail';

/** Fed the input's bytes in order; `finish` returns the head's JSON (its profiles read `[]`), `entries` fill as it reads. */
export class PlanLines {
  readonly entries: PlanEntry[] = [];
  private readonly head: string[] = [];
  private headBytes = 0;
  private state: State = 'head';
  private list: 'add' | 'delete' = 'add';
  private offset = 0;
  private lineStart = 0;
  private lineNumber = 0;
  /** The lists the entry being read has named: one named twice would join its names to the first's. */
  private lists = new Set<string>();
  /** The start of a line that began in an earlier chunk (all of it in a text state; in a list, enough to tell a name). */
  private carry: Buffer[] = [];
  private carried = 0;
  private carryLast = 0;

  constructor(
    private readonly path: string,
    private readonly limits = PLAN_LIMITS,
  ) {}

  feed(chunk: Buffer): void {
    let from = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, from)) {
      const bytes = chunk.subarray(from, newline);
      const last = newline > from ? chunk[newline - 1]! : this.carryLast;
      if (this.carry.length > 0) this.keep(bytes);
      this.endLine(this.carry.length > 0 ? Buffer.concat(this.carry) : bytes, this.offset + newline, last);
      this.carry = [];
      this.carried = 0;
      from = newline + 1;
    }
    if (from < chunk.length) {
      this.keep(chunk.subarray(from));
      this.carryLast = chunk[chunk.length - 1]!;
    }
    this.offset += chunk.length;
    const entry = this.entries.at(-1);
    if ((this.state === 'fields' || this.state === 'names') && this.offset - entry!.start > this.limits.entryBytes) this.tooLarge();
  }

  finish(): string {
    // The last line break is not needed (an editor may drop it); the line before it is the last line.
    if (this.carried > 0) this.endLine(Buffer.concat(this.carry), this.offset, this.carryLast);
    if (this.state !== 'tail') this.invalid(this.lineNumber + 1);
    return this.head.join('\n');
  }

  /** Keeps the start of a line that goes on in the next chunk: a line of text whole (within its bound), of a name a few bytes. */
  private keep(bytes: Buffer): void {
    if (this.state !== 'names' && this.carried + bytes.length > this.limits.textBytes) this.tooMuchText();
    const part = Buffer.from(bytes.subarray(0, this.state === 'names' ? Math.max(0, NAME_START.length - this.carried) : bytes.length));
    this.carry.push(part);
    this.carried += part.length;
  }

  /** Line `text` (or its start, in a list) ended at byte `end`; `last` its last byte. */
  private endLine(text: Buffer, end: number, last: number): void {
    const start = this.lineStart;
    this.lineStart = end + 1;
    this.lineNumber++;
    const entry = this.entries.at(-1)!;
    if (this.state === 'names') {
      if (text.subarray(0, NAME_START.length).equals(NAME_START)) return this.name(entry, start + 4, last === COMMA ? end - 1 : end);
      const line = text.toString('latin1');
      if ((line !== '   ]' && line !== '   ],') || end - start !== text.length) this.invalid();
      entry.fields += line;
      this.state = 'fields';
      return;
    }
    if (end - start > this.limits.textBytes) this.tooMuchText();
    const line = text.toString('utf8');
    if (this.state === 'head' || this.state === 'tail') {
      // After the profiles only the seal and the end: a second list of profiles there would be read as the plan's.
      if (this.state === 'tail' && line !== '}' && !line.startsWith(' "seal": ')) this.invalid();
      this.addHead(line);
      if (line === ' "profiles": [') this.state = 'entries';
      else if (line === ' "profiles": [],' || line === ' "profiles": []') this.state = 'tail';
    } else if (this.state === 'entries') {
      if (line === '  {') this.openEntry(start);
      else if (line === ' ]' || line === ' ],') {
        this.addHead(line);
        this.state = 'tail';
      } else this.invalid();
    } else if (line === '  }' || line === '  },') {
      entry.fields += '}';
      entry.end = end;
      if (end - entry.start > this.limits.entryBytes) this.tooLarge();
      this.state = 'entries';
    } else {
      this.addField(entry, line);
    }
  }

  private addField(entry: PlanEntry, line: string): void {
    const list = LIST_START.exec(line);
    if (list) {
      const key = list[1] as 'add' | 'delete';
      if (this.lists.has(key)) this.invalid();
      this.lists.add(key);
      this.list = key;
      if (list[2] === '') this.state = 'names';
    }
    entry.fields += line;
    if (entry.fields.length > this.limits.textBytes) this.tooMuchText();
  }

  private openEntry(start: number): void {
    if (this.entries.length >= this.limits.entries) {
      const many = `more than ${this.limits.entries.toLocaleString('en-US')} profiles`;
      throw new UsageError(`${this.path}: it names ${many}, more than apply holds within its memory bound; nothing was sent`, {
        hint: 'Plan fewer profiles at a time: a manifest of fewer profiles, each plan saved and applied on its own.',
      });
    }
    this.entries.push({ start, end: start, fields: '{', groups: { add: [], delete: [] }, counts: { add: 0, delete: 0 } });
    this.lists.clear();
    this.state = 'fields';
  }

  /** A name lies at [start, end): it joins the group before it unless that would pass the group's size. */
  private name(entry: PlanEntry, start: number, end: number): void {
    const ranges = entry.groups[this.list];
    entry.counts[this.list]++;
    const group = ranges.at(-1);
    if (group !== undefined && end - group.start <= this.limits.groupBytes) group.end = end;
    else ranges.push({ start, end });
  }

  private addHead(line: string): void {
    this.headBytes += line.length + 1;
    if (this.headBytes > this.limits.textBytes) this.tooMuchText();
    this.head.push(line);
  }

  private tooLarge(): never {
    const entry = `profiles[${this.entries.length - 1}] is over ${this.limits.entryBytes / 1024 / 1024} MiB`;
    throw new UsageError(`${this.path}: the plan's ${entry}, more than apply holds of one profile; nothing was sent`, {
      hint: SMALLER_PLANS,
    });
  }

  private tooMuchText(): never {
    throw notAPlan(this.path, `its fields other than the names hold more than ${this.limits.textBytes / 1024} KiB`);
  }

  private invalid(line = this.lineNumber): never {
    throw notAPlan(this.path, `line ${line} is not as --save-plan writes it`);
  }
}
