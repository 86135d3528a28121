// The one output path (as gh's cmdutil.Exporter): a command hands its data to the writer of its kind
// (output/writers.ts, records-writer.ts), which draws the chosen format. A kind's writer draws the formats
// particular to it (a table, text, Markdown, CSV) and any format of its own shape (a JSON line built from
// the answer's text); JSON, which every command takes, is drawn here from the data's value.
import { safeJson } from '../core/service-text.js';
import type { Terminal } from './terminal.js';

/** How one kind of data draws the formats particular to it, each to the terminal. */
export type Drawings<D> = Readonly<Record<string, (term: Terminal, data: D) => void | Promise<void>>>;

/**
 * Draws `data` as `format`: its kind's own drawing when it has one, else JSON from its value (`valueOf`,
 * which may read: a bucket list asks for the names only when a format needs them). Among many contexts
 * (--contexts) JSON is always drawn from the value, with the context's name first (output/labelled.ts puts
 * every context's in one array).
 */
export async function writeAs<D>(term: Terminal, format: string, drawings: Drawings<D>, data: D, valueOf: (data: D) => unknown): Promise<void> {
  const own = Object.hasOwn(drawings, format) && !(isValueFormat(format) && term.label !== undefined) ? drawings[format] : undefined;
  if (own) return own(term, data);
  // The parser took only declared formats (CommandContext.outputFormat); a declared one nobody draws is a bug here.
  if (!isValueFormat(format)) throw new Error(`no writer draws -o ${format}`);
  const value = await valueOf(data);
  term.out(safeJson(term.label === undefined ? value : { context: term.label, ...(value as object) }) + '\n');
}

/** Whether `format` is drawn from the data's value alone (the data itself is stdout: no plan lines beside it). */
export function isValueFormat(format: string): boolean {
  return format === 'json';
}
