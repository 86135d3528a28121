// One run of one command, its line read by commander (main.ts): the warnings about the environment, the
// command's context made when it starts, signals, and every failure turned into one `scpctl: ...` line and
// its exit code, the one place errors are printed.
import { DifferencesFound, NotFoundError, exitCodeOf } from './errors.js';
import type { CommandContext, GlobalOptions } from './commands/context.js';
import type { CommandSpec } from './commands/command-spec.js';
import type { OutputSpec } from './output/formats.js';
import { Interruption } from './interrupt.js';
import type { Io } from './io.js';
import { neutralizeEnvTraps } from './settings/env-traps.js';

/** What a run needs besides its line: its streams and environment, and its signals (the process's, for the binary). */
export interface RunOptions {
  /** Where SIGINT and SIGTERM come from; none in tests that run commands in their own process. */
  signals?: NodeJS.EventEmitter;
  /** Exits the process once stdout has taken everything (the binary); without it, a signal ends the run. */
  exit?: (code: number) => void;
  /** The commands of the tree (cli.ts's COMMANDS); a test of the guide in docs/architecture.md adds one. */
  commands?: readonly CommandSpec[];
}

export interface Run {
  /** The context of the command that starts now, from its global options; signals are handled from here on. */
  context(globals: GlobalOptions, output?: OutputSpec): Promise<CommandContext>;
  /**
   * Runs `work` and gives the exit code: 0, the signal's, or the failure's once printed. `claimed` may
   * claim failures of the caller's own (commander's) and give their code, already reported.
   */
  finish(work: () => Promise<void>, claimed?: (error: unknown) => number | undefined): Promise<number>;
}

/**
 * Starts a run. The environment's traps are defused at once; their warnings wait for the line's reading:
 * `--quiet` and `--verbose` are what commander read, decided once, never guessed from
 * raw words (`-ov` is -o "v", `--context -v` a context named "-v"). A run that fails before its line is
 * read (a parse error) prints its warnings and no stack.
 */
export function startRun(io: Io, options: RunOptions): Run {
  const warnings = neutralizeEnvTraps(io.env);
  const interruption = new Interruption();
  let decided: GlobalOptions | undefined;
  const decide = (globals: GlobalOptions): void => {
    if (decided) return;
    decided = globals;
    if (!globals.quiet) for (const warning of warnings) io.stderr.write(`warning: ${warning}\n`);
  };
  let current: CommandContext | undefined;
  const context = async (globals: GlobalOptions, output?: OutputSpec): Promise<CommandContext> => {
    decide(globals);
    const { CommandContext, Terminal } = await import('./commands/context.js');
    // Signals are handled for commands that run as clients; the emulator handles its own.
    if (options.signals) listenForSignals(options.signals, interruption, io, options.exit);
    current = new CommandContext(globals, new Terminal(globals, io, interruption), interruption, io.env, io.clock, output);
    await current.preloadPipes();
    current.learnSecrets();
    return current;
  };
  return {
    context,
    async finish(work, claimed) {
      try {
        await work();
        return interruption.exitCode ?? 0;
      } catch (error) {
        if (interruption.exitCode !== undefined) return interruption.exitCode;
        const code = claimed?.(error);
        if (code !== undefined) return code;
        decide({});
        if (error instanceof NotFoundError && current) (await import('./commands/profile-suggestion.js')).suggestSeenProfile(error, current);
        const verbose = decided!.verbose === true;
        // Errors before a command started (a line commander refused, an unreadable config file) have no
        // terminal yet: the one made knows every token a command's would, since the line may hold one.
        const term = current?.term ?? (await context({}).then((made) => made.term, async () => new (await import('./output/terminal.js')).Terminal({ verbose }, io)));
        // The stack names the source files (source-mapped.ts), read only when one is printed.
        const printsStack = verbose && error instanceof Error && !(error instanceof DifferencesFound) && error.stack;
        const stack = printsStack ? (await import('./source-mapped.js')).sourceMapped(printsStack) : undefined;
        term.printError(error, stack);
        return exitCodeOf(error);
      } finally {
        decide({});
      }
    },
  };
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
