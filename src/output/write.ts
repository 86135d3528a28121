// The one output path (as gh's cmdutil.Exporter): a command hands its data to the writer of its kind
// (output/writers.ts, records-writer.ts), which draws the chosen format. A kind's writer draws the formats
// particular to it (a table, text, Markdown, CSV) and any format of its own shape (a JSON line built from
// the answer's text); every other format is drawn here from the data's value, the same for every kind: a
// format that every command takes is one drawing in VALUE_FORMATS and one word in each list of formats.ts.
import { safeJson } from '../core/service-text.js';
import type { Terminal } from './terminal.js';

/** Formats drawn from any data's value (what JSON.stringify takes). */
const VALUE_FORMATS: Readonly<Record<string, (value: unknown) => string>> = {
  json: (value) => safeJson(value) + '\n',
};

/** How one kind of data draws the formats particular to it, each to the terminal. */
export type Drawings<D> = Readonly<Record<string, (term: Terminal, data: D) => void | Promise<void>>>;

/**
 * Draws `data` as `format`: its kind's own drawing when it has one, else from its value (`valueOf`, which
 * may read: a bucket list asks for the names only when a format needs them).
 */
/** `value` drawn as `format` (a format drawn from values alone). */
export function drawValue(format: string, value: unknown): string {
  const draw = Object.hasOwn(VALUE_FORMATS, format) ? VALUE_FORMATS[format] : undefined;
  // The parser took only declared formats (CommandContext.outputFormat); a declared one nobody draws is a bug here.
  if (!draw) throw new Error(`no writer draws -o ${format}`);
  return draw(value);
}

export async function writeAs<D>(term: Terminal, format: string, drawings: Drawings<D>, data: D, valueOf: (data: D) => unknown): Promise<void> {
  const own = Object.hasOwn(drawings, format) ? drawings[format] : undefined;
  if (own) return own(term, data);
  const value = await valueOf(data);
  term.out(drawValue(format, value));
}

/** Whether `format` is drawn from the data's value alone (the data itself is stdout: no plan lines beside it). */
export function isValueFormat(format: string): boolean {
  return Object.hasOwn(VALUE_FORMATS, format);
}
