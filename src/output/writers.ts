// One writer per kind of data (output/formats.ts's kinds), each drawing every format of its kind through
// write.ts. Commands hand their data over and never look at the format's name.
import { visibleLineBytes, visibleLines } from '../core/service-text.js';
import { alignColumns } from './text.js';
import type { Terminal } from './terminal.js';
import { isValueFormat, writeAs, type Drawings } from './write.js';

/** Rows of a few columns (config list, config get-contexts, buckets history). */
export interface Listing {
  /** The heading, in the table format only: as text every line is a row (`| head -1` is the first). */
  head: readonly string[];
  rows: ReadonlyArray<readonly string[]>;
  /** Columns aligned right (counts). */
  right?: ReadonlySet<number>;
  /** The lines, when the listing has its own layout (config list), the same as a table and as text. */
  lines?: string;
  /** What stderr says when there is no row (a table, text). */
  empty?: string;
  /** The data as JSON gives it. */
  value: unknown;
}

const aligned = (heading: boolean) => (term: Terminal, listing: Listing): void => {
  if (listing.rows.length === 0 && listing.empty !== undefined) return term.info(listing.empty);
  const text = listing.lines ?? alignColumns(term.mask.maskRows(heading ? [listing.head, ...listing.rows] : listing.rows), listing.right);
  if (text !== '') term.out(text);
};

const LISTING: Drawings<Listing> = { table: aligned(true), text: aligned(false) };

export function writeListing(term: Terminal, format: string, listing: Listing): Promise<void> {
  return writeAs(term, format, LISTING, listing, (data) => data.value);
}

/** A bucket list (buckets view), read in the shape its format draws from. */
export interface BucketListSource {
  profile: string;
  /** One name a line, as the answer holds them (bytes where they came so). */
  lines(): Promise<Buffer | readonly string[]>;
  names(): Promise<readonly string[]>;
}

const NEWLINE = Buffer.from('\n');

const BUCKET_LIST: Drawings<BucketListSource> = {
  // One name a line straight from the answer: the usual list never becomes 400,000 strings. Names from
  // the service are shown, never obeyed: a control character in one is written as an escape.
  text: async (term, list) => {
    const lines = await list.lines();
    const text = Buffer.isBuffer(lines) ? visibleLineBytes(lines) : Buffer.from(visibleLines(lines));
    if (lines.length > 0) term.out(Buffer.concat([text, NEWLINE]));
  },
  // Drawn from the answer's bytes too where the names are plain (output/bucket-table.ts).
  table: async (term, list) => {
    const lines = await list.lines();
    const { renderBucketTable } = await import('./bucket-table.js');
    await term.page(await renderBucketTable(list.profile, lines, term.tableWidth, term.paint, term.mask));
  },
};

export function writeBucketList(term: Terminal, format: string, list: BucketListSource): Promise<void> {
  return writeAs(term, format, BUCKET_LIST, list, async ({ profile, names }) => {
    const buckets = await names();
    return { profile, count: buckets.length, buckets };
  });
}

/**
 * Output drawn in two moments: lines while the work goes (a plan before it is sent, a check as it is done),
 * in the formats that show lines; the data once it is done, in the others.
 */
export interface StagedOutput<D> {
  /** Whether the chosen format shows the lines (else stdout holds the data alone). */
  readonly showsLines: boolean;
  /** Whether the format is data for a script (JSON): nobody to ask a question of. */
  readonly forScripts: boolean;
  lines(pieces: () => Iterable<string>): void;
  end(data: D): Promise<void>;
}

function staged<D>(term: Terminal, format: string, lineFormats: readonly string[], drawings: Drawings<D>, valueOf: (data: D) => unknown): StagedOutput<D> {
  const showsLines = lineFormats.includes(format);
  return {
    showsLines,
    forScripts: isValueFormat(format),
    lines(pieces) {
      if (showsLines) for (const piece of pieces()) term.out(piece);
    },
    async end(data) {
      if (!showsLines) await writeAs(term, format, drawings, data, valueOf);
    },
  };
}

/**
 * One profile's change (append, delete, replace, modify, sync, restore): the plan's lines, or its data,
 * made only when a format shows it (a sent list's names are decoded for it alone).
 */
export function changeOutput(term: Terminal, format: string): StagedOutput<() => unknown> {
  return staged(term, format, ['text', 'table'], {}, (value) => value());
}

/** A dry run's wire body, as JSON text (the name reader writes it). */
export interface DryRunBody {
  profile: string;
  operation: string;
  /** JSON text (the wire body). */
  body: { toString(): string };
}

/**
 * The body a dry run would send, in the formats that show data (nothing in the others: stderr says it), read
 * back and drawn as any JSON value is (a name's bidi controls and C1, which --no-validate sends, escaped).
 */
export async function writeDryRunBody(term: Terminal, format: string, data: DryRunBody): Promise<void> {
  if (!isValueFormat(format)) return;
  await writeAs(term, format, {}, data, ({ profile, operation, body }) => (
    { profile, operation, dryRun: true, body: JSON.parse(body.toString()) as unknown }
  ));
}

/**
 * A plan of many profiles (apply): its JSON and its Markdown, each made a piece at a time (the names of a
 * 64 MiB plan are never one string), masked piece by piece (a piece never splits a name).
 */
export interface PlanData {
  json(): AsyncIterable<string>;
  markdown(): Iterable<string>;
}

const PLAN: Drawings<PlanData> = {
  json: async (term, plan) => {
    for await (const piece of plan.json()) term.out(term.redact(piece));
  },
  markdown: (term, plan) => {
    for (const piece of plan.markdown()) term.out(term.redact(piece));
  },
};

export function planOutput(term: Terminal, format: string): StagedOutput<PlanData> {
  return staged(term, format, ['text', 'table'], PLAN, async (plan) => {
    let text = '';
    for await (const piece of plan.json()) text += piece;
    return JSON.parse(text) as unknown;
  });
}

/** doctor's checks: a line as each is done, or the whole result at the end. */
export function checksOutput(term: Terminal, format: string): StagedOutput<unknown> {
  return staged(term, format, ['text'], {}, (value) => value);
}
