// The output of many contexts at once (--contexts, contract section 16), labelled with each context's name
// and never interleaved: each context writes to a stream of its own (the label is a property of that
// stream and of its Terminal, never of a command), and the streams reach stdout whole, in context-name
// order. The first context not yet done writes through as it goes; the others are kept until it is done:
// in memory up to a budget shared by them all, beyond it in a private file each (spill.ts), read back in
// order at its turn, so memory stays bounded whatever the tenants print.
//
// How each format is labelled: text lines as `CONTEXT<TAB>line`; markdown under a heading per context; a
// table's lines behind a first column of names; csv, ndjson and json records carry a `context` field first (the records' writer adds it,
// records-writer.ts), csv keeping one header; a json document that is one object gets `"context"` first, and
// all of them go in one array, the records of every context in one array too.
import { StringDecoder } from 'node:string_decoder';
import { Writable } from 'node:stream';
import { Spill } from './spill.js';

/** What the contexts waiting their turn may hold in memory together (UTF-16 code units, about 2 bytes each). */
export const HELD_IN_MEMORY = 16 * 1024 * 1024;

type Framing = 'tab' | 'column' | 'heading' | 'json' | 'csv' | 'plain';

const FRAMINGS: Readonly<Record<string, Framing>> = { text: 'tab', markdown: 'heading', table: 'column', json: 'json', csv: 'csv', ndjson: 'plain' };

interface Slot {
  label: string;
  decoder: StringDecoder;
  /** What arrived while an earlier context was still writing. */
  pending: string[];
  /** What arrived beyond the memory budget (after `pending`, in order). */
  spill?: Spill;
  /** The end of a line (or record, or object) not yet complete. */
  tail: string;
  ended: boolean;
  /** csv: its first record (the header) has been seen; markdown: its heading is written. */
  sawHeader: boolean;
  /** json: whether its document is an array of records (a line each) or one object (taken whole). */
  document?: 'array' | 'object';
}

/** The stdout of every context of one fan-out, written to `out` in context-name order. */
export class LabelledStdout {
  private readonly slots: Slot[];
  private framing: Framing;
  /** Whether a context has said which format it writes (useFormat): the first to say decides. */
  private decided = false;
  private readonly width: number;
  private head = 0;
  /** json: the elements written so far (the array opens before the first). */
  private elements = 0;
  /** csv: the header written, which later contexts' equal headers repeat. */
  private header?: string;
  private finished = false;
  /** What `pending` holds, over every context. */
  private held = 0;

  constructor(
    private readonly out: (text: string) => void,
    /** The format the contexts are expected to write, until the first says which (useFormat). */
    format: string,
    labels: readonly string[],
    /** Said once when a later context's CSV header differs from the first's. */
    private readonly warn: (message: string) => void,
    /** The budget of held output, and the mask that what goes to a file passes first. */
    private readonly holding: { chars?: number; mask: (text: string) => string } = { mask: (text) => text },
  ) {
    this.framing = framingOf(format);
    this.width = Math.max(...labels.map((label) => label.length));
    this.slots = labels.map((label) => ({ label, decoder: new StringDecoder('utf8'), pending: [], tail: '', ended: false, sawHeader: false }));
  }

  /** The format a context has chosen, before it writes: every context of one line chooses the same. */
  useFormat(format: string): void {
    if (this.decided) return;
    this.decided = true;
    this.framing = framingOf(format);
  }

  /** How many columns the first column of names takes in a table (the context's terminal is that much narrower). */
  get labelColumns(): number {
    return this.framing === 'column' ? this.width + 2 : 0;
  }

  /** Context `index`'s stdout. */
  write(index: number, chunk: Buffer | string): void {
    const slot = this.slots[index]!;
    const text = typeof chunk === 'string' ? chunk : slot.decoder.write(chunk);
    if (index === this.head) this.take(slot, text);
    else if (slot.spill === undefined && this.held + text.length <= (this.holding.chars ?? HELD_IN_MEMORY)) {
      slot.pending.push(text);
      this.held += text.length;
    } else (slot.spill ??= new Spill(this.holding.mask)).write(text);
  }

  /** What the contexts waiting their turn hold in memory now. */
  get heldInMemory(): number {
    return this.held;
  }

  /** Context `index` has written everything: what it kept goes out when the contexts before it are done. */
  end(index: number): void {
    this.slots[index]!.ended = true;
    while (this.head < this.slots.length) {
      const slot = this.slots[this.head]!;
      this.catchUp(slot);
      if (!slot.ended) return;
      this.take(slot, slot.decoder.end());
      this.close(slot);
      this.head++;
    }
  }

  /** Every context done (those never started included): the json array closes. Once: later calls do nothing. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    for (let index = 0; index < this.slots.length; index++) if (!this.slots[index]!.ended) this.end(index);
    if (this.framing === 'json') this.out(this.elements === 0 ? '[]\n' : '\n]\n');
  }

  /** A stream for context `index`, shaped as the Terminal asks of stdout. */
  stream(index: number, like: { isTTY?: boolean; columns?: number }): NodeJS.WriteStream {
    const stream = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        this.write(index, chunk);
        done();
      },
    });
    const columns = like.columns ? Math.max(20, like.columns - this.labelColumns) : undefined;
    // rows 0: no pager for one context's part; the whole reaches the terminal as it comes.
    return Object.assign(stream, { isTTY: like.isTTY, columns, rows: 0 }) as unknown as NodeJS.WriteStream;
  }

  /** A context's turn has come: what it held goes out, in the order it came. */
  private catchUp(slot: Slot): void {
    for (const text of slot.pending.splice(0)) {
      this.held -= text.length;
      this.take(slot, text);
    }
    const spill = slot.spill;
    slot.spill = undefined;
    for (const text of spill?.drain() ?? []) this.take(slot, text);
  }

  private take(slot: Slot, text: string): void {
    if (text === '') return;
    if (this.framing === 'plain') return this.out(text);
    slot.tail += text;
    if (this.framing === 'json') {
      slot.document ??= documentOf(slot.tail);
      if (slot.document !== 'array') return; // one object (or not known yet): taken whole at the end
    }
    const pieces = this.framing === 'csv' ? csvRecords(slot.tail) : slot.tail.split('\n');
    slot.tail = pieces.pop()!;
    // One write for all the lines of a write (a list of 400,000 names is one).
    let shown = '';
    for (const piece of pieces) shown += this.piece(slot, piece);
    if (shown !== '') this.out(shown);
  }

  /** The context's last words: a line without its newline, or a whole object. */
  private close(slot: Slot): void {
    const rest = slot.tail;
    slot.tail = '';
    if (this.framing === 'json' && rest.trimStart().startsWith('{')) return this.out(this.element(withContext(slot.label, rest.trim())));
    // A last line without its newline gets one: the next context's label starts a line of its own.
    if (rest !== '') this.out(this.piece(slot, rest));
  }

  /** What a whole line (its newline taken off) or a whole CSV record (its line end kept) becomes. */
  private piece(slot: Slot, piece: string): string {
    switch (this.framing) {
      case 'tab':
        return `${slot.label}\t${piece}\n`;
      case 'column':
        return `${slot.label.padEnd(this.width)}  ${piece}\n`;
      case 'heading':
        return this.markdownLine(slot, piece);
      case 'json':
        return this.arrayLine(piece);
      case 'csv':
        return this.csvRecord(slot, piece);
      default:
        return `${piece}\n`;
    }
  }

  /** A line of a JSON array of records (output/records.ts's JsonArrayWriter: `[`, a record a line, `]`). */
  private arrayLine(line: string): string {
    const text = line.trim();
    if (text === '[' || text === ']' || text === '[]' || text === '') return '';
    return this.element(text.replace(/,$/, ''));
  }

  private element(text: string): string {
    return (this.elements++ === 0 ? '[\n' : ',\n') + text;
  }

  /** Markdown (a pull-request comment) stays Markdown: each context's part under a heading of its name. */
  private markdownLine(slot: Slot, line: string): string {
    const heading = slot.sawHeader ? '' : `## ${slot.label}\n\n`;
    slot.sawHeader = true;
    return `${heading}${line}\n`;
  }

  private csvRecord(slot: Slot, record: string): string {
    if (slot.sawHeader) return record;
    slot.sawHeader = true;
    if (this.header === undefined) this.header = record;
    else if (this.header === record) return '';
    else this.warn(`${slot.label}: its columns differ from the first context's; its header row is written again before its records`);
    return record;
  }
}

/** A JSON document's shape from its first character, once one has come. */
function documentOf(text: string): 'array' | 'object' | undefined {
  const first = /\S/.exec(text)?.[0];
  return first === undefined ? undefined : first === '[' ? 'array' : 'object';
}

function framingOf(format: string): Framing {
  return Object.hasOwn(FRAMINGS, format) ? FRAMINGS[format]! : 'tab';
}

/** `{"context":"prod",...}` from an object's JSON text. */
function withContext(label: string, object: string): string {
  const inner = object.slice(1).trimStart();
  return `{"context":${JSON.stringify(label)}${inner.startsWith('}') ? '' : ','}${inner}`;
}

/**
 * Whole CSV records (RFC 4180), each with its line end, and the incomplete rest last: a record ends at a
 * newline outside quotes, and quotes inside a quoted cell are doubled, so an even count means outside.
 */
function csvRecords(text: string): string[] {
  const records: string[] = [];
  let start = 0;
  let quotes = 0;
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (char === 34) quotes++;
    else if (char === 10 && quotes % 2 === 0) {
      records.push(text.slice(start, at + 1));
      start = at + 1;
    }
  }
  records.push(text.slice(start));
  return records;
}

/**
 * A context's stderr: each line labelled `CONTEXT: line` and written whole as it comes, so that the lines of
 * contexts at work together never mix. `live` (one context, which may ask a question): a part line is
 * written at once. `flush` writes a last line that had no newline.
 */
export function labelledStderr(label: string, stderr: { write(text: string): unknown }, live: boolean, like: { isTTY?: boolean }): { stream: NodeJS.WriteStream; flush(): void } {
  const decoder = new StringDecoder('utf8');
  let tail = '';
  let atStart = true;
  const say = (text: string): void => {
    if (!live) {
      const lines = (tail + text).split('\n');
      tail = lines.pop()!;
      if (lines.length > 0) stderr.write(lines.map((line) => `${label}: ${line}\n`).join(''));
      return;
    }
    let shown = '';
    for (const part of text.split(/(?<=\n)/)) {
      if (part === '') continue;
      shown += (atStart ? `${label}: ` : '') + part;
      atStart = part.endsWith('\n');
    }
    if (shown !== '') stderr.write(shown);
  };
  const stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      say(decoder.write(chunk));
      done();
    },
  });
  const flush = (): void => {
    say(decoder.end());
    if (tail !== '') stderr.write(`${label}: ${tail}\n`);
    tail = '';
  };
  return { stream: Object.assign(stream, { isTTY: like.isTTY }) as unknown as NodeJS.WriteStream, flush };
}
