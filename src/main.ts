// The entry: `main(argv, io)` reads the line with commander and runs the command (run.ts turns every failure
// into one `scpctl: ...` line and its exit code). It touches nothing outside `io`, so tests run whole
// commands in their own process; `runAsProcess` is the binary's: the process's streams, signals and exit.
import { CommanderError, type Command, type OutputConfiguration } from 'commander';
import { buildProgram } from './cli.js';
import type { GlobalOptions } from './commands/context.js';
import { UsageError } from './errors.js';
import type { OutputSpec } from './output/formats.js';
import { processIo, runInProcess, type Io } from './io.js';
import { startRun, type RunOptions } from './run.js';

/** Runs one command line and returns its exit code. Nothing outside `io` is read or written. */
export async function main(argv: string[], io: Io = processIo(), options: RunOptions = {}): Promise<number> {
  const run = startRun(io, options);
  const context = (command: Command, output?: OutputSpec) => run.context(command.optsWithGlobals() as GlobalOptions, output);
  const program = buildProgram({ context, io, signals: options.signals }, options.commands, true);
  for (const command of [program, ...allCommands(program)]) {
    command.exitOverride();
    command.configureOutput(commanderOutput(io));
  }
  return await run.finish(
    async () => parseLine(program, argv).catch((error: unknown) => Promise.reject(refusedLine(error, program))),
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
function refusedLine(error: unknown, program: Command): unknown {
  if (!(error instanceof CommanderError) || HELP_CODES.includes(error.code)) return error;
  const [message = '', ...more] = error.message.replace(/^error: /, '').split('\n');
  const suggestion = more.join(' ').replace(/^\((.*)\)$/, '$1');
  const hint = suggestion || (error.code === 'commander.unknownCommand' ? nameTheCommands(program) : undefined);
  return new UsageError(message, { hint, cause: error });
}

/** Commander's reading of the line, the one reader of it. No words, the program's help (exit 0). */
export async function parseLine(program: Command, argv: readonly string[]): Promise<void> {
  if (argv.length === 0) program.outputHelp();
  else await program.parseAsync(argv, { from: 'user' });
}

/**
 * A command word close to none (`scpctl nosuch`, and `scpctl help nosuch` alike) gets the names it could have
 * been: commander suggests only close ones, and otherwise leaves the user to guess. The command it was
 * looked for under is the last one commander's reading reached: each command's `args` are the words it
 * left for its subcommand.
 */
function nameTheCommands(program: Command): string {
  const subcommandRead = (command: Command) => command.commands.find((sub) => sub.name() === command.args[0]);
  let parent = program;
  for (let next = subcommandRead(parent); next; next = subcommandRead(parent)) parent = next;
  const names = program.createHelp().visibleCommands(parent).map((command) => command.name()).filter((name) => name !== 'help');
  const path: string[] = [];
  for (let command: Command | null = parent; command; command = command.parent) path.unshift(command.name());
  return `the commands of ${path.join(' ')} are ${names.join(', ')}`;
}

/**
 * The binary: the words of its line (after node and the script, or the executable and itself in a single
 * executable), handed to commander as they are; the process's streams (a failed write to stdout as
 * exitOnStdoutFailure says), signals and exit.
 */
export async function runAsProcess(): Promise<void> {
  const argv = process.argv.slice(2);
  await runInProcess((io, options) => main(argv, io, options));
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
