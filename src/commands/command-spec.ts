// A command declares itself (as cobra and gh commands do): its name, arguments, options with their choices,
// examples and its action, loaded only when it runs (as changesets does), so start-up pays for declarations
// only. cli.ts assembles the declarations; help, completion and parsing are all read from this one place.
import { Argument, Command, Option } from 'commander';
import type { CommandContext } from './context.js';
import type { Io } from '../io.js';
import { UsageError } from '../errors.js';
import { FORMATS, type OutputSpec } from '../output/formats.js';
import { examples } from './help-layout.js';
import type { FanOutSpec, ManyOptions } from './many-contexts.js';

export type { FanOutSpec };

export interface OptionSpec {
  /** commander's flags: `-f, --file <file>`, `--wait [seconds]`, `--no-validate`. */
  flags: string;
  description: string;
  /** The only values accepted (completion offers them). */
  choices?: readonly string[];
  default?: string;
  /** Given more than once, the values collect into an array. */
  repeatable?: boolean;
  /** The value as given to the value kept (commander's argParser). */
  parse?: (value: string) => string;
}

export interface ArgumentSpec {
  /** `<profile>`, `[bucket...]`. */
  name: string;
  description: string;
  choices?: readonly string[];
  default?: string;
}

/**
 * A command's code: the context, then commander's arguments and options in order, each typed by the action
 * itself (`(ctx, profile: string, options: SyncOptions)`). Declared as a method so that such an action is
 * accepted where the tree only knows `unknown` arguments (method parameters are compared both ways), without
 * an `any` that would let any call through.
 */
export type Action = { run(ctx: CommandContext, ...args: unknown[]): Promise<void> }['run'];

/** What a command that runs without a context (emulator, completion) gets: its arguments and the run. */
export interface DirectCall extends Omit<Runner, 'context'> {
  args: unknown[];
  command: Command;
}

export interface CommandSpec {
  name: string;
  summary: string;
  examples: readonly string[];
  args?: readonly ArgumentSpec[];
  options?: readonly OptionSpec[];
  hidden?: boolean;
  /** The heading it is listed under in `scpctl --help` (top-level commands). */
  group?: string;
  /**
   * Words past the declared arguments are a usage error whose hint this makes (`sync PROFILE FILE`, a
   * forgotten `-f`), instead of commander's bare "too many arguments".
   */
  extraArguments?: (extra: readonly string[], given: readonly string[]) => { message: string; hint: string };
  /** The command's code, loaded when it runs. */
  load?: () => Promise<Action>;
  /** Runs without a CommandContext. */
  direct?: (call: DirectCall) => Promise<void>;
  subcommands?: readonly CommandSpec[];
  /** The kind of data it prints and its default formats: its -o choices, in help and completion too. */
  output?: OutputSpec;
  /** It reads the whole command tree (completion): every branch is built for it (cli.ts's buildProgram). */
  wholeTree?: boolean;
  /**
   * false: it never needs the context's token (login, logout, most config commands), so a tokenCommand is not
   * run and the OS credential store not read at its start (CommandContext.prepareToken): fixing a hanging
   * tokenCommand with `config set` must not wait for it.
   */
  usesToken?: false;
  /** It takes --contexts: once per context matched (commands/many-contexts.ts). */
  fanOut?: FanOutSpec;
}

/** The options of a command that runs over many contexts (FanOutSpec). */
export const MANY_CONTEXTS: readonly OptionSpec[] = [
  { flags: '--contexts <patterns>', description: "run once per context matched: globs, !PATTERN excludes ('*' is all)" },
  { flags: '--parallel <n>', description: 'with --contexts: at most N contexts at once (default 4)' },
  { flags: '--fail-fast', description: 'with --contexts: start no other context after one fails' },
];

/** How a run turns commander's parse into a call: a context for `load`, the program for `direct`. */
export interface Runner {
  context(command: Command, output?: OutputSpec): Promise<CommandContext>;
  program: Command;
  io: Io;
  /** The run's SIGINT and SIGTERM (the process's, for the binary): a direct command such as the emulator stops on them. */
  signals?: NodeJS.EventEmitter;
}

export const WAIT: OptionSpec = { flags: '--wait [seconds]', description: 'when a change is pending, retry until it clears (default 120 s)' };
/** sync, restore, apply: show the plan and change nothing. */
export const PLAN_ONLY: OptionSpec = { flags: '--dry-run', description: 'print the plan, change nothing' };
/** Every command that can remove names: at a terminal it asks first, unless this answers. */
export const YES: OptionSpec = { flags: '-y, --yes', description: 'do not ask before removing names (or changing several contexts) at a terminal' };
export const EXIT_CODE: OptionSpec = { flags: '--exit-code', description: 'exit 8 when differences were found or applied' };

/**
 * The commands of `specs` under `parent`. With `lazy`, each is first there by name and summary (what a
 * suggestion for a mistyped command needs), and declared whole only once commander has read that the line
 * runs it (its preSubcommand hook), or before its help or `parent`'s is printed: commander's tree of every
 * option is a millisecond and a half of each start (docs/performance.md), and commander stays the one
 * reader of the line. A command that reads the whole tree (completion) has every command declared before
 * it runs. Gives what declares every command still pending.
 */
export function addCommands(parent: Command, specs: readonly CommandSpec[], runner: Runner, lazy = false): () => void {
  const pending = new Map<Command, CommandSpec>();
  const declarePending = (command: Command, whole: boolean): (() => void) | undefined => {
    const spec = pending.get(command);
    if (spec === undefined) return undefined;
    pending.delete(command);
    return declare(command, spec, runner, !whole);
  };
  for (const spec of specs) {
    const command = parent.command(spec.name, { hidden: spec.hidden }).description(spec.summary);
    if (spec.group) command.helpGroup(spec.group);
    if (!lazy) {
      declare(command, spec, runner, false);
      continue;
    }
    pending.set(command, spec);
    // (Its own help, as `buckets help view` prints it, lists its subcommands too: declared here, since a
    // listener added while the event is emitted is not called for it.)
    command.on('beforeHelp', () => declarePending(command, false)?.());
  }
  const declareAll = (): void => {
    for (const each of [...pending.keys()]) declarePending(each, false);
  };
  if (!lazy) return declareAll;
  parent.hook('preSubcommand', (_, command) => {
    if (pending.get(command)?.wholeTree) for (const each of [...pending.keys()]) declarePending(each, true);
    declarePending(command, false);
  });
  parent.on('beforeHelp', declareAll);
  return declareAll;
}

/**
 * Declares `command` as `spec` says: its arguments, options, help text, subcommands and action. Gives what
 * declares its subcommands still pending (addCommands).
 */
function declare(command: Command, spec: CommandSpec, runner: Runner, lazy: boolean): () => void {
  for (const arg of spec.args ?? []) {
    const argument = new Argument(arg.name, arg.description);
    if (arg.choices) argument.choices(arg.choices);
    if (arg.default !== undefined) argument.default(arg.default);
    command.addArgument(argument);
  }
  for (const option of [...(spec.options ?? []), ...manyContextOptions(spec)]) command.addOption(toOption(option));
  if (spec.options?.includes(WAIT)) {
    // Commander takes any word after an option whose value may be left out; --wait takes a number only.
    const read = command.parseOptions.bind(command);
    command.parseOptions = (words: string[]) => read(keepWaitArguments(words));
  }
  // The main kind's alone: completion offers only what the command takes without its alternate's option.
  const formats = spec.output && FORMATS[spec.output.kind];
  if (formats) declaredFormats.set(command, formats);
  const alternate = spec.output?.alternate;
  const also = alternate ? `; with ${alternate.option}: ${FORMATS[alternate.kind].join(', ')}` : '';
  // Commander ends each added text with a line break: one more here would make two blank lines before Examples.
  if (formats) command.addHelpText('after', `\nOutput formats (-o): ${formats.join(', ')}${also}`);
  if (spec.examples.length > 0) command.addHelpText('after', examples(spec.examples));
  const declareSubcommands = addCommands(command, spec.subcommands ?? [], runner, lazy);
  const { load, direct, extraArguments } = spec;
  if (extraArguments) command.allowExcessArguments(true);
  if (load) {
    command.action(async (...args: unknown[]) => {
      const declared = spec.args?.length ?? 0;
      const words = (args[args.length - 1] as Command).args;
      if (extraArguments && words.length > declared) {
        const { message, hint } = extraArguments(words.slice(declared), words.slice(0, declared));
        throw new UsageError(message, { hint });
      }
      const ctx = await runner.context(args[args.length - 1] as Command, spec.output);
      const options = args[args.length - 2] as ManyOptions;
      const many = spec.fanOut !== undefined && options.contexts !== undefined;
      // Many contexts: each fetches its own token (many-contexts.ts), the selected one's is not needed.
      if (spec.usesToken !== false && !many) await ctx.prepareToken();
      const action = await load();
      const call = (each: CommandContext): Promise<void> => action(each, ...args.slice(0, -2), options);
      if (many) return (await import('./many-contexts.js')).eachContext(ctx, { ...spec.fanOut!, output: spec.output }, options, call);
      if (options.parallel !== undefined || options.failFast) throw new UsageError(`${options.failFast ? '--fail-fast' : '--parallel'} goes with --contexts`);
      await call(ctx);
    });
  } else if (direct) {
    command.action((...args: unknown[]) =>
      direct({ args: args.slice(0, -1), command: args[args.length - 1] as Command, program: runner.program, io: runner.io, signals: runner.signals }));
  }
  return declareSubcommands;
}

/** --contexts and its company; a change without -y of its own (append) takes it for the question before several contexts. */
function manyContextOptions(spec: CommandSpec): readonly OptionSpec[] {
  if (!spec.fanOut) return [];
  return spec.fanOut.changes && !spec.options?.includes(YES) ? [...MANY_CONTEXTS, YES] : MANY_CONTEXTS;
}

/**
 * `--wait [SECONDS]` takes only a number: commander would take whatever word follows an optional value
 * (`buckets append --wait finance a` would wait "finance" seconds on profile "a"). In the words commander
 * hands a command that takes --wait, a `--wait` followed by a word that is not a number moves to the end of
 * the options (before any `--`), where it stands alone.
 */
export function keepWaitArguments(words: readonly string[]): string[] {
  const end = words.includes('--') ? words.indexOf('--') : words.length;
  const moved: string[] = [];
  const kept: string[] = [];
  for (let i = 0; i < end; i++) {
    const next = words[i + 1];
    const standsAlone = i + 1 >= end || next === undefined || next.startsWith('-') || /^\d+(\.\d+)?$/.test(next);
    if (words[i] === '--wait' && !standsAlone) moved.push('--wait');
    else kept.push(words[i]!);
  }
  return [...kept, ...moved.slice(0, 1), ...words.slice(end)];
}

const declaredFormats = new WeakMap<Command, readonly string[]>();

/** The -o formats a declared command takes (its spec's output), or none; completion reads them here. */
export function outputFormatsOf(command: Command): readonly string[] | undefined {
  return declaredFormats.get(command);
}

/** The commander option of a declaration: its choices, its default, and values that collect when repeated. */
export function toOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.choices) option.choices(spec.choices);
  if (spec.default !== undefined) option.default(spec.default);
  const parse = spec.parse ?? ((value: string) => value);
  if (spec.repeatable) option.argParser((value: string, previous: string[] = []) => [...previous, parse(value)]);
  else if (spec.parse) option.argParser(spec.parse);
  return option;
}
