// The -o formats, by kind of data. A command declares its kind once (CommandSpec.output): the parser's check
// (CommandContext.outputFormat), its help, shell completion and the writer all read that one declaration, so
// completion can never offer a format the command refuses. The writer of a kind (output/writers.ts) draws
// each format listed here for it; JSON from the data's value in write.ts (a manifest's in manifest-writer.ts).
export const FORMATS = {
  /** A bucket list (buckets view). */
  bucketList: ['table', 'text', 'json'],
  /** One profile's change or its plan (append, delete, replace, modify, sync, restore). */
  change: ['json', 'text', 'table'],
  /** A plan of many profiles (apply). */
  plan: ['json', 'text', 'table', 'markdown'],
  /** Report records, streamed page by page. */
  records: ['table', 'json', 'ndjson', 'csv'],
  /** Rows of a few columns (config list, config get-contexts, buckets history). */
  listing: ['table', 'text', 'json'],
  /** doctor's checks. */
  checks: ['text', 'json'],
  /** A manifest of live lists (apply --export). */
  manifest: ['yaml', 'json'],
} as const satisfies Record<string, readonly string[]>;

export type DataKind = keyof typeof FORMATS;
export type FormatOf<K extends DataKind> = (typeof FORMATS)[K][number];

/** What a command declares of its output: the kind of data it prints and its default format, at a terminal and into a pipe. */
export interface OutputSpec<K extends DataKind = DataKind> {
  kind: K;
  terminal: FormatOf<K>;
  piped: FormatOf<K>;
  /** Another kind the command prints under one option (apply --export: a manifest), with its own formats. */
  alternate?: OutputSpec & { option: string };
}
