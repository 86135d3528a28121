// The -o formats each command accepts, by command path. The command passes its entry to ctx.outputFormat and
// shell completion offers the same entry, so completion can never offer a format the command refuses.
// A command without an entry takes no -o (completion offers nothing for it).
const BUCKET_FORMATS = ['table', 'text', 'json'] as const;
const MUTATION_FORMATS = ['json', 'text', 'table'] as const;
const LISTING_FORMATS = ['table', 'text', 'json'] as const;

export const OUTPUT_FORMATS = {
  'buckets view': BUCKET_FORMATS,
  'buckets append': MUTATION_FORMATS,
  'buckets delete': MUTATION_FORMATS,
  'buckets replace': MUTATION_FORMATS,
  'buckets modify': MUTATION_FORMATS,
  'buckets sync': MUTATION_FORMATS,
  'buckets history': MUTATION_FORMATS,
  'buckets restore': MUTATION_FORMATS,
  apply: ['json', 'text', 'table', 'markdown'],
  report: ['table', 'json', 'ndjson', 'csv'],
  'config list': LISTING_FORMATS,
  'config get-contexts': LISTING_FORMATS,
  doctor: ['text', 'json'],
} as const satisfies Record<string, readonly string[]>;

/** The formats of a command path (`buckets view`), or none. */
export function outputFormatsOf(path: string): readonly string[] | undefined {
  return (OUTPUT_FORMATS as Record<string, readonly string[]>)[path];
}
