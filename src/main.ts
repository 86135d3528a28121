// The entry: `main(argv, io)` reads the line with commander and runs the command (run.ts turns every failure
// into one `scpctl: ...` line and its exit code). It touches nothing outside `io`, so tests run whole
// commands in their own process; `runAsProcess` is the binary's: the process's streams, signals and exit.
import { CommanderError, type Command, type OutputConfiguration } from 'commander';
import { COMMANDS, buildProgram } from './cli.js';
import type { CommandSpec } from './commands/command-spec.js';
import type { GlobalOptions } from './commands/context.js';
import { version } from './version.js';
import { UsageError } from './errors.js';
import { processIo, runInProcess, type Io } from './io.js';
import { quickCall, runQuick } from './quick.js';
import { startRun, type RunOptions } from './run.js';

/** Runs one command line and returns its exit code. Nothing outside `io` is read or written. */
export async function main(argv: string[], io: Io = processIo(), options: RunOptions = {}): Promise<number> {
  // The cheapest path for the most common probe of a CLI.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(`${version()}\n`);
    return 0;
  }
  // A line of the quick path runs as commander would run it, without commander (quick.ts).
  const quick = options.commands ? undefined : quickCall(argv);
  if (quick) return await runQuick(quick, io, options);
  const run = startRun(io, options);
  const context = (command: Command) => run.context(command.optsWithGlobals() as GlobalOptions);
  const words = keepWaitArguments(helpAsFlag(shortEquals(argv), options.commands));
  const program = buildProgram({ context, io, signals: options.signals }, options.commands, words);
  for (const command of [program, ...allCommands(program)]) {
    command.exitOverride();
    command.showSuggestionAfterError(true);
    command.configureOutput(commanderOutput(io));
  }
  return await run.finish(
    async () => {
      if (argv.length === 0) program.outputHelp();
      else await program.parseAsync(words, { from: 'user' }).catch((error: unknown) => Promise.reject(refusedLine(error, program, words)));
    },
    // Help and version are not failures.
    (error) => (error instanceof CommanderError && HELP_CODES.includes(error.code) ? 0 : undefined),
  );
}

const HELP_CODES = ['commander.helpDisplayed', 'commander.version', 'commander.help'];

/**
 * A line commander refuses, as a usage error that run.ts prints as it prints every error: the words it
 * quotes are the user's (`--token=VALUE`, though there is no such flag, or a name holding an escape
 * sequence), so they are masked and made visible like any other message. Its suggestion becomes the hint.
 */
function refusedLine(error: unknown, program: Command, words: readonly string[]): unknown {
  if (!(error instanceof CommanderError) || HELP_CODES.includes(error.code)) return error;
  const [message = '', ...more] = error.message.replace(/^error: /, '').split('\n');
  const suggestion = more.join(' ').replace(/^\((.*)\)$/, '$1');
  const hint = suggestion || (error.code === 'commander.unknownCommand' ? nameTheCommands(message, program, words) : undefined);
  return new UsageError(message, { hint, cause: error });
}

/**
 * A command word close to none (`scpctl nosuch`, and `scpctl help nosuch` alike) gets the names it could have
 * been: commander suggests only close ones, and otherwise leaves the user to guess.
 */
function nameTheCommands(message: string, program: Command, words: readonly string[]): string | undefined {
  const unknown = /unknown command '(.*)'/.exec(message)?.[1];
  if (unknown === undefined) return undefined;
  let parent = program;
  for (const word of words.slice(0, words.indexOf(unknown))) parent = parent.commands.find((command) => command.name() === word) ?? parent;
  const names = program.createHelp().visibleCommands(parent).map((command) => command.name()).filter((name) => name !== 'help');
  const path: string[] = [];
  for (let command: Command | null = parent; command; command = command.parent) path.unshift(command.name());
  return `the commands of ${path.join(' ')} are ${names.join(', ')}`;
}

/** The binary: the process's streams (a failed write to stdout as exitOnStdoutFailure says), signals and exit. */
export async function runAsProcess(argv: string[]): Promise<void> {
  await runInProcess((io, options) => main(argv, io, options));
}

/**
 * `--wait [SECONDS]` takes only a number: commander would take whatever word follows an optional value
 * (`buckets append --wait finance a` would wait "finance" seconds on profile "a"). A `--wait` followed by
 * a word that is not a number moves to the end of the options (before any `--`), where it stands alone.
 */
export function keepWaitArguments(argv: readonly string[]): string[] {
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  const moved: string[] = [];
  const kept: string[] = [];
  for (let i = 0; i < end; i++) {
    const next = argv[i + 1];
    const standsAlone = i + 1 >= end || next === undefined || next.startsWith('-') || /^\d+(\.\d+)?$/.test(next);
    if (argv[i] === '--wait' && !standsAlone) moved.push('--wait');
    else kept.push(argv[i]!);
  }
  return [...kept, ...moved.slice(0, 1), ...argv.slice(end)];
}

/**
 * `-o=csv` as `--output=csv` and `-ocsv` already are: commander would take "=csv" as the value of -o. Only
 * short options that take a value, and only before any `--`.
 */
export function shortEquals(argv: readonly string[]): string[] {
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  return argv.flatMap((arg, i) => (i < end && /^-o=/.test(arg) ? ['-o', arg.slice(3)] : [arg]));
}

/**
 * `scpctl help buckets view` shows what `scpctl buckets view --help` shows (commander's help takes one word).
 * A word that names no command (`help nosuch`, `help buckets veiw`) is left for commander to refuse as
 * `scpctl nosuch` is, exit 2 with its closest names: commander's own help would show the parent's help, exit 0.
 */
export function helpAsFlag(argv: readonly string[], commands: readonly CommandSpec[] = COMMANDS): string[] {
  if (argv[0] !== 'help' || argv.length < 2) return [...argv];
  if (argv[1] === 'help') return ['--help'];
  // --help goes before any `--`: after it, it would be one more argument of a command that then runs
  // (`help -- config rename-context work` renamed the context to "--help").
  const words = argv.slice(1);
  const end = words.includes('--') ? words.indexOf('--') : words.length;
  const asHelp = [...words.slice(0, end), '--help', ...words.slice(end)];
  let level: readonly CommandSpec[] | undefined = commands;
  let parent: CommandSpec | undefined;
  for (const word of words) {
    if (level === undefined || word.startsWith('-')) break;
    const spec: CommandSpec | undefined = level.find((candidate) => candidate.name === word);
    // (Never without --help where the parent could run with the word as its argument.)
    if (spec === undefined) return parent?.load || parent?.direct ? asHelp : words;
    parent = spec;
    level = spec.subcommands;
  }
  return asHelp;
}

/** Where commander writes help and its own errors, and how wide help may be. */
function commanderOutput(io: Io): OutputConfiguration {
  return {
    // Help wraps at the terminal's width, and at 80 columns into a file or a pipe (contract section 12).
    // scpctl's help has no colours, so nothing to strip: commander would ask process.stdout whether it has
    // colours, making the stream that helpOut goes without (src/io.ts).
    getOutHasColors: () => false,
    getErrHasColors: () => false,
    getOutHelpWidth: () => (io.helpOut ? io.helpOut.columns : io.stdout.isTTY && io.stdout.columns) || 80,
    getErrHelpWidth: () => (io.stderr.isTTY && io.stderr.columns) || 80,
    writeOut: (text) => (io.helpOut ? io.helpOut.write(text) : io.stdout.write(text)),
    writeErr: (text) => io.stderr.write(text),
    // Its errors are thrown, and printed by run.ts (refusedLine).
    outputError: () => {},
  };
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((sub) => [sub, ...allCommands(sub)]);
}
