// The entry: `main(argv, io)` parses, runs the command, and turns every failure into one `scpctl: ...` line
// and its exit code, the one place errors are printed. It touches nothing outside `io`, so tests run whole
// commands in their own process; `runAsProcess` is the binary's: the process's streams, signals and exit.
import { CommanderError, type Command, type OutputConfiguration } from 'commander';
import { buildProgram } from './cli.js';
import type { CommandSpec } from './commands/command-spec.js';
import { DifferencesFound, ScpctlError, UsageError, exitCodeOf, messageOf } from './errors.js';
import type { CommandContext, GlobalOptions } from './commands/context.js';
import type { Terminal } from './output/terminal.js';
import { version } from './version.js';
import { Interruption } from './interrupt.js';
import { exitOnStdoutFailure, processIo, type Io } from './io.js';
import { neutralizeEnvTraps } from './settings/env-traps.js';

/** Prints an error the one way scpctl prints errors: `scpctl: message`, details, a hint; the stack only with -v. */
function printError(error: unknown, verbose: boolean, term: Terminal): void {
  if (error instanceof DifferencesFound) return; // an outcome for `sync --exit-code`, already described
  const stack = verbose && error instanceof Error ? error.stack : undefined;
  if (error instanceof ScpctlError) {
    term.error(error.message, { hint: error.hint, details: error instanceof UsageError ? error.details : undefined, stack });
    return;
  }
  term.error(`unexpected failure: ${messageOf(error)}`, stack ? { stack } : { hint: 'run again with --verbose for details' });
}

/** What a run needs besides argv: its streams and environment, and its signals (the process's, for the binary). */
export interface RunOptions {
  /** Where SIGINT and SIGTERM come from; none in tests that run commands in their own process. */
  signals?: NodeJS.EventEmitter;
  /** Exits the process once stdout has taken everything (the binary); without it, a signal ends the run. */
  exit?: (code: number) => void;
  /** The commands of the tree (cli.ts's COMMANDS); a test of the guide in docs/architecture.md adds one. */
  commands?: readonly CommandSpec[];
}

/** Runs one command line and returns its exit code. Nothing outside `io` is read or written. */
export async function main(argv: string[], io: Io = processIo(), options: RunOptions = {}): Promise<number> {
  // The cheapest path for the most common probe of a CLI.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(`${version()}\n`);
    return 0;
  }
  for (const warning of neutralizeEnvTraps(io.env)) {
    if (!argv.includes('-q') && !argv.includes('--quiet')) io.stderr.write(`warning: ${warning}\n`);
  }
  const interruption = new Interruption();
  let current: CommandContext | undefined;
  const context = async (command: Command): Promise<CommandContext> => {
    const globals = command.optsWithGlobals() as GlobalOptions;
    const { CommandContext, Terminal } = await import('./commands/context.js');
    // Signals are handled for commands that run as clients; the emulator handles its own.
    if (options.signals) listenForSignals(options.signals, interruption, io, options.exit);
    current = new CommandContext(globals, new Terminal(globals, io, interruption), interruption, io.env, io.clock);
    await current.preloadPipes();
    current.learnSecrets();
    return current;
  };

  const words = keepWaitArguments(helpAsFlag(shortEquals(argv)));
  const program = buildProgram({ context, io, signals: options.signals }, options.commands, words);
  const verbose = wantsVerbose(argv);
  for (const command of [program, ...allCommands(program)]) {
    command.exitOverride();
    command.showSuggestionAfterError(true);
    command.configureOutput(commanderOutput(io));
  }
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return 0;
    }
    await program.parseAsync(words, { from: 'user' });
    return interruption.exitCode ?? 0;
  } catch (error) {
    if (interruption.exitCode !== undefined) return interruption.exitCode;
    if (error instanceof CommanderError) {
      // Help and version are not failures; every other parse error is a usage error.
      return ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code) ? 0 : 2;
    }
    // Errors before a command started (an unreadable config file) have no terminal yet: make one.
    const term = current?.term ?? new (await import('./output/terminal.js')).Terminal({ verbose }, io);
    printError(error, verbose, term);
    return exitCodeOf(error);
  } finally {
    await current?.close();
  }
}

/** The binary: the process's streams (a failed write to stdout as exitOnStdoutFailure says) and signals. */
export async function runAsProcess(argv: string[]): Promise<void> {
  process.exitCode = await main(argv, processIo(exitOnStdoutFailure), { signals: process, exit: (code) => process.exit(code) });
}

/**
 * SIGINT and SIGTERM stop the run; with `exit`, the process then exits once stdout has taken everything it
 * was handed (to a slow reader that can be megabytes, which `process.exit` alone would drop). A second
 * signal while stdout drains exits at once.
 */
function listenForSignals(signals: NodeJS.EventEmitter, interruption: Interruption, io: Io, exit?: (code: number) => void): void {
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interruption.lent(signal)) return;
    if (interruption.exiting) {
      exit?.(interruption.exitCode!);
      return;
    }
    const code = interruption.interrupt(signal, io.stderr);
    if (exit) whenDrained(io.stdout, () => exit(code));
  };
  signals.on('SIGINT', onSignal);
  signals.on('SIGTERM', onSignal);
}

/** Calls `done` once everything handed to `stream` has been written (or the reader has gone away). */
function whenDrained(stream: NodeJS.WriteStream, done: () => void): void {
  if (stream.destroyed || stream.writableLength === 0) return done();
  stream.once('error', done);
  stream.write('', () => done());
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

/** `scpctl help buckets view` shows what `scpctl buckets view --help` shows (commander's help takes one word). */
export function helpAsFlag(argv: readonly string[]): string[] {
  return argv[0] === 'help' && argv.length > 2 ? [...argv.slice(1), '--help'] : [...argv];
}

/** `-v`, `--verbose`, or a cluster of short flags holding v (`-qv`), before any `--`. */
export function wantsVerbose(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '--verbose' || /^-[a-zA-Z]*v[a-zA-Z]*$/.test(arg)) return true;
  }
  return false;
}

/** Where commander writes help and its own errors, and how wide help may be. */
function commanderOutput(io: Io): OutputConfiguration {
  const scpctlPrefix = (text: string): string => text.replace(/^error: /, 'scpctl: ');
  return {
    // Help wraps at the terminal's width, and at 80 columns into a file or a pipe (contract section 12).
    // scpctl's help has no colours, so nothing to strip: commander would ask process.stdout whether it has
    // colours, making the stream that helpOut goes without (src/io.ts).
    getOutHasColors: () => false,
    getErrHasColors: () => false,
    getOutHelpWidth: () => (io.helpOut ? io.helpOut.columns : io.stdout.isTTY && io.stdout.columns) || 80,
    getErrHelpWidth: () => (io.stderr.isTTY && io.stderr.columns) || 80,
    writeOut: (text) => (io.helpOut ? io.helpOut.write(text) : io.stdout.write(text)),
    writeErr: (text) => io.stderr.write(scpctlPrefix(text)),
    outputError: (text, write) => write(scpctlPrefix(text)),
  };
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((sub) => [sub, ...allCommands(sub)]);
}
