// The quick path: the line that shell loops and CI steps run hundreds of times, `buckets view PROFILE`, read
// without commander and run without the tree of every command. The shim runs it from a bundle of its own
// (dist/quick.cjs, scripts/bundle.mjs): a third of the code to read and compile, and no commander to build,
// which is what keeps a small view near a ten-line node:http script (docs/performance.md).
// Commander stays the parser of record. quickCall takes a line only in a shape whose reading by commander is
// certain, and test/unit/quick.test.ts holds the two equal on every line it takes; any other line
// (help, --verbose, --wait, a mistake) gives undefined and is commander's.
import type { CommandContext, GlobalOptions } from './commands/context.js';
import type { Io } from './io.js';
import { startRun, type RunOptions } from './run.js';

export interface QuickCall {
  /** The command, as OUTPUT_FORMATS keys it. */
  readonly path: keyof typeof QUICK_ACTIONS;
  /** Its arguments, and its own options, as commander hands them to its action. */
  readonly args: readonly string[];
  readonly options: Record<string, unknown>;
  /** What commander's optsWithGlobals gives the context: the program's options and the command's. */
  readonly globals: GlobalOptions;
}

type QuickAction = (ctx: CommandContext, ...rest: never[]) => Promise<void>;

/** The actions of the quick path: the very functions the command's declaration loads (quick.test.ts). */
export const QUICK_ACTIONS = {
  'buckets view': async (): Promise<QuickAction> => (await import('./commands/buckets/view.js')).view,
} as const;

/** The global options a quick line may carry: flags, and options with a value (as the next word or after `=`). */
const FLAGS: Readonly<Record<string, 'json' | 'quiet'>> = { '--json': 'json', '-q': 'quiet', '--quiet': 'quiet' };
const VALUES: Readonly<Record<string, 'output'>> = { '-o': 'output', '--output': 'output' };

/** The call a line makes, if it is one of the quick path's; undefined for every other line. */
export function quickCall(argv: readonly string[]): QuickCall | undefined {
  if (argv[0] !== 'buckets' || argv[1] !== 'view') return undefined;
  // What commander sets unasked: --no-color's default.
  const globals: Record<string, unknown> = { color: true };
  const args: string[] = [];
  for (let i = 2; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith('-')) {
      args.push(word);
      continue;
    }
    const equals = word.startsWith('--') ? word.indexOf('=') : -1;
    const name = equals > 0 ? word.slice(0, equals) : word;
    const key = FLAGS[name] ?? VALUES[name];
    // Anything else, and any option given twice, is commander's to read.
    if (!key || key in globals) return undefined;
    if (FLAGS[name]) {
      if (equals > 0) return undefined;
      globals[key] = true;
      continue;
    }
    const value = equals > 0 ? word.slice(equals + 1) : argv[++i];
    if (value === undefined || value === '' || value.startsWith('-')) return undefined;
    globals[key] = value;
  }
  return args.length === 1 ? { path: 'buckets view', args, options: {}, globals: globals as GlobalOptions } : undefined;
}

/** Runs a quick line as main.ts runs a line commander has read: the same run (run.ts), the same action. */
export async function runQuick(call: QuickCall, argv: readonly string[], io: Io, options: RunOptions): Promise<number> {
  const run = startRun(argv, io, options);
  return await run.finish(async () => {
    const ctx = await run.context(call.globals);
    const action = await QUICK_ACTIONS[call.path]();
    await (action as (ctx: CommandContext, ...rest: unknown[]) => Promise<void>)(ctx, ...call.args, call.options);
  });
}
