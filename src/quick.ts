// The quick path: the line that shell loops and CI steps run hundreds of times, `buckets view PROFILE` with
// any of the global options, read without commander and run without the tree of every command. The shim
// runs it from a bundle of its own (dist/quick.cjs, scripts/bundle.mjs): a third of the code to read and
// compile, and no commander to build, which is what keeps a small view near a ten-line node:http script
// (docs/performance.md).
// Commander stays the parser of record. quickCall takes a line only in a shape whose reading by commander is
// certain, and test/unit/quick.test.ts holds the two equal on every line it takes; any other line (help,
// --verbose, --wait, `--`, a mistake) gives undefined and is commander's.
import type { GlobalOptions } from './commands/context.js';
import { GLOBAL_OPTIONS } from './commands/global-options.js';
import type { Io } from './io.js';
import { startRun, type RunOptions } from './run.js';

/** A line of the quick path: `buckets view PROFILE`, and what commander's optsWithGlobals would give. */
export interface QuickCall {
  readonly profile: string;
  readonly globals: GlobalOptions;
}

interface QuickOption {
  /** The key commander gives it: `--base-url` is baseUrl, `--no-color` is color. */
  readonly key: string;
  readonly takesValue: boolean;
  /** `--no-color` sets color to false, and commander sets it to true unasked. */
  readonly negated: boolean;
}

/**
 * The global options by every name they are written with, read from their declaration as commander reads
 * it: `-o, --output <format>` is -o and --output, taking a value. Left out, and so left to commander:
 * --verbose, which wants the whole bundle (its source map names the files of a stack trace), and any option
 * whose value may be left out (`[value]`: commander then decides whether the next word is it).
 */
const OPTIONS = new Map<string, QuickOption>(
  GLOBAL_OPTIONS.filter((spec) => !spec.flags.includes('--verbose') && !spec.flags.includes('[')).flatMap((spec) => {
    const [, short, long, value] = /^(?:(-\w), )?--([\w-]+)( <.*)?$/.exec(spec.flags)!;
    const negated = long!.startsWith('no-');
    const key = (negated ? long!.slice(3) : long!).replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
    const option: QuickOption = { key, takesValue: value !== undefined, negated };
    return [[`--${long}`, option], ...(short ? [[short, option] as const] : [])];
  }),
);

/**
 * The view's action, loaded as its declaration loads it (quick.test.ts holds them the same function). Not
 * through the declaration's table, which would bring every bucket command into the quick bundle.
 */
export const loadView = async () => (await import('./commands/buckets/view.js')).view;

/** The call a line makes, if it is one of the quick path's; undefined for every other line. */
export function quickCall(argv: readonly string[]): QuickCall | undefined {
  if (argv[0] !== 'buckets' || argv[1] !== 'view') return undefined;
  const globals: Record<string, unknown> = {};
  const given = new Set<string>();
  const profiles: string[] = [];
  for (let i = 2; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith('-')) {
      profiles.push(word);
      continue;
    }
    const equals = word.startsWith('--') ? word.indexOf('=') : -1;
    const option = OPTIONS.get(equals > 0 ? word.slice(0, equals) : word);
    // Anything else, and any option given twice, is commander's to read.
    if (!option || given.has(option.key)) return undefined;
    given.add(option.key);
    if (!option.takesValue) {
      if (equals > 0) return undefined;
      globals[option.key] = !option.negated;
      continue;
    }
    const value = equals > 0 ? word.slice(equals + 1) : argv[++i];
    if (value === undefined || value === '' || value.startsWith('-')) return undefined;
    globals[option.key] = value;
  }
  if (profiles.length !== 1) return undefined;
  // What commander sets unasked: a --no-x option's default, true.
  for (const option of OPTIONS.values()) if (option.negated && !given.has(option.key)) globals[option.key] = true;
  return { profile: profiles[0]!, globals: globals as GlobalOptions };
}

/** Runs a quick line as main.ts runs a line commander has read: the same run (run.ts), the same action. */
export async function runQuick(call: QuickCall, io: Io, options: RunOptions): Promise<number> {
  const run = startRun(io, options);
  return await run.finish(async () => {
    const ctx = await run.context(call.globals);
    const view = await loadView();
    await view(ctx, call.profile, {});
  });
}
