// The output of many contexts at once (--contexts, contract section 16), labelled with each context's name
// and never interleaved: each context writes to a stream of its own (the label is a property of that
// stream and of its Terminal, never of a command), and the streams reach stdout whole, in context-name
// order. The first context not yet done writes through as it goes; the others are kept until it is done:
// in memory up to a budget shared by them all, beyond it in a private file each (spill.ts), read back in
// order at its turn, so memory stays bounded whatever the tenants print.
//
// How each format is labelled: text lines as `CONTEXT<TAB>line`; markdown under a heading per context; a
// table's lines behind a first column of names. JSON, ndjson and csv are labelled by their writers, which
// put the context first in every object and record (write.ts, records-writer.ts); here JSON's objects, one
// a line from each context, go in one array, and csv keeps one header.
import { StringDecoder } from 'node:string_decoder';
import { Writable } from 'node:stream';
import { Spill } from './spill.js';

/** What the contexts waiting their turn may hold in memory together (UTF-16 code units, about 2 bytes each). */
export const HELD_IN_MEMORY = 16 * 1024 * 1024;

type Framing = 'tab' | 'column' | 'heading' | 'json' | 'csv' | 'plain';

const FRAMINGS = new Map<string, Framing>([
  ['text', 'tab'], ['markdown', 'heading'], ['table', 'column'], ['json', 'json'], ['csv', 'csv'], ['ndjson', 'plain'],
]);

interface Slot {
  label: string;
  decoder: StringDecoder;
  /** What arrived while an earlier context was still writing. */
  pending: string[];
  /** What arrived beyond the memory budget (after `pending`, in order). */
  spill?: Spill;
  /** The end of a line not yet complete. */
  tail: string;
  ended: boolean;
  /** markdown: its heading is written; csv: its header (its first record) is whole. */
  begun: boolean;
  /** csv: its header so far (a quoted column name may hold a line break). */
  header?: string;
}

/** The stdout of every context of one fan-out, written to `out` in context-name order. */
export class LabelledStdout {
  private readonly slots: Slot[];
  private framing: Framing;
  private readonly width: number;
  private head = 0;
  /** json: the objects written so far (the array opens before the first). */
  private elements = 0;
  /** csv: the header written, which later contexts' equal headers repeat. */
  private header?: string;
  private finished = false;
  /** What `pending` holds, over every context. */
  private held = 0;

  constructor(
    private readonly out: (text: string) => void,
    /** The format the contexts are expected to write, until one says which (useFormat). */
    format: string,
    labels: readonly string[],
    /** Said once when a later context's CSV header differs from the first's. */
    private readonly warn: (message: string) => void,
    /** The budget of held output, and the mask that what goes to a file passes first. */
    private readonly holding: { chars?: number; mask: (text: string) => string } = { mask: (text) => text },
  ) {
    this.framing = FRAMINGS.get(format) ?? 'tab';
    this.width = Math.max(...labels.map((label) => label.length));
    this.slots = labels.map((label) => ({ label, decoder: new StringDecoder('utf8'), pending: [], tail: '', ended: false, begun: false }));
  }

  /** The format a context has chosen, before it writes: every context of one line chooses the same. */
  useFormat(format: string): void {
    this.framing = FRAMINGS.get(format) ?? 'tab';
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
      // A last line without its newline gets one: the next context's label starts a line of its own.
      if (slot.tail !== '') this.out(this.line(slot, slot.tail));
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
    const lines = (slot.tail + text).split('\n');
    slot.tail = lines.pop()!;
    // One write for all the lines of a write (a list of 400,000 names is one).
    let shown = '';
    for (const line of lines) shown += this.line(slot, line);
    if (shown !== '') this.out(shown);
  }

  /** What a whole line (its newline taken off) becomes. */
  private line(slot: Slot, line: string): string {
    switch (this.framing) {
      case 'tab':
        return `${slot.label}\t${line}\n`;
      case 'column':
        return `${slot.label.padEnd(this.width)}  ${line}\n`;
      case 'heading':
        return this.markdownLine(slot, line);
      case 'json':
        return line === '' ? '' : (this.elements++ === 0 ? '[\n' : ',\n') + line;
      case 'csv':
        return this.csvLine(slot, line);
      default:
        return `${line}\n`;
    }
  }

  /** Markdown (a pull-request comment) stays Markdown: each context's part under a heading of its name. */
  private markdownLine(slot: Slot, line: string): string {
    const heading = slot.begun ? '' : `## ${slot.label}\n\n`;
    slot.begun = true;
    return `${heading}${line}\n`;
  }

  /** A line of CSV (RFC 4180: quotes inside a quoted cell are doubled, so an odd count is inside one). */
  private csvLine(slot: Slot, line: string): string {
    if (slot.begun) return `${line}\n`;
    slot.header = `${slot.header ?? ''}${line}\n`;
    if (slot.header.split('"').length % 2 === 0) return '';
    slot.begun = true;
    if (this.header === undefined) this.header = slot.header;
    else if (this.header === slot.header) return '';
    else this.warn(`${slot.label}: its columns differ from the first context's; its header row is written again before its records`);
    return slot.header;
  }
}

/**
 * A context's stderr: each line labelled `CONTEXT: line` and written whole as it comes, so that the lines of
 * contexts at work together never mix. `live` (one context, which may ask a question): a part line is
 * written at once. `flush` writes a last line that had no newline.
 */
export function labelledStderr(label: string, stderr: { write(text: string): unknown }, live: boolean, like: { isTTY?: boolean }): { stream: NodeJS.WriteStream; flush(): void } {
  const decoder = new StringDecoder('utf8');
  /** What is not written yet: the end of a line, unless `live`. */
  let tail = '';
  let atStart = true;
  const say = (text: string): void => {
    const whole = tail + text;
    const cut = live ? whole.length : whole.lastIndexOf('\n') + 1;
    tail = whole.slice(cut);
    let shown = '';
    for (const part of whole.slice(0, cut).split(/(?<=\n)/)) {
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
