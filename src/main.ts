// The entry: `main(argv)` parses, runs the command, and turns every failure into one `scpctl: ...` line and
// its exit code. The one place errors are printed.
import { CommanderError, type Command } from 'commander';
import { buildProgram } from './cli.js';
import { DifferencesFound, ScpctlError, UsageError, exitCodeOf } from './errors.js';
import type { CommandContext, GlobalOptions } from './commands/context.js';
import type { Terminal } from './output/terminal.js';
import { version } from './version.js';
import { installInterruptHandlers, interruptSignal } from './interrupt.js';
import { neutralizeEnvTraps } from './settings/env-traps.js';

let currentContext: CommandContext | undefined;

/** The context of a command about to run: its merged global options, its terminal, the interrupt signal. */
async function createContext(command: Command): Promise<CommandContext> {
  const options = command.optsWithGlobals() as GlobalOptions;
  const { CommandContext, Terminal } = await import('./commands/context.js');
  currentContext = new CommandContext(options, new Terminal(options), interruptSignal);
  await currentContext.preloadPipes();
  return currentContext;
}

/** Prints an error the one way scpctl prints errors: `scpctl: message`, details, a hint; the stack only with -v. */
function printError(error: unknown, verbose: boolean, term: Terminal): void {
  if (error instanceof DifferencesFound) return; // an outcome for `sync --exit-code`, already described
  const stack = verbose && error instanceof Error ? error.stack : undefined;
  if (error instanceof ScpctlError) {
    term.error(error.message, { hint: error.hint, details: error instanceof UsageError ? error.details : undefined, stack });
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  term.error(`unexpected failure: ${message.split('\n')[0]}`, stack ? { stack } : { hint: 'run again with --verbose for details' });
}

export async function main(argv: string[]): Promise<void> {
  // The cheapest path for the most common probe of a CLI.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    process.stdout.write(`${version()}\n`);
    return;
  }
  installInterruptHandlers();
  for (const warning of neutralizeEnvTraps(process.env)) {
    if (!argv.includes('-q') && !argv.includes('--quiet')) process.stderr.write(`warning: ${warning}\n`);
  }
  // A closed pipe (`scpctl buckets view p | head`) is the reader's choice, not an error.
  // Any other failure to write the data (a full disk) is one line, like every other error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    process.stderr.write(`scpctl: cannot write the output: ${error.code ?? error.message}\n`);
    process.exit(1);
  });

  const program = buildProgram(createContext);
  const verbose = wantsVerbose(argv);
  program.exitOverride();
  program.configureOutput({
    writeErr: (text) => process.stderr.write(text.replace(/^error: /, 'scpctl: ')),
    outputError: (text, write) => write(text.replace(/^error: /, 'scpctl: ')),
  });
  for (const command of allCommands(program)) {
    command.exitOverride();
    command.showSuggestionAfterError(true);
    command.configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'scpctl: ')) });
  }
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return;
    }
    await program.parseAsync(keepWaitArguments(argv), { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are not failures; every other parse error is a usage error.
      const benign = ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code);
      process.exitCode = benign ? 0 : 2;
      return;
    }
    // Errors before a command started (an unreadable config file) have no terminal yet: make one.
    const term = currentContext?.term ?? new (await import('./output/terminal.js')).Terminal({ verbose });
    printError(error, verbose, term);
    process.exitCode = exitCodeOf(error);
  }
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

/** `-v`, `--verbose`, or a cluster of short flags holding v (`-qv`), before any `--`. */
export function wantsVerbose(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '--verbose' || /^-[a-zA-Z]*v[a-zA-Z]*$/.test(arg)) return true;
  }
  return false;
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((sub) => [sub, ...allCommands(sub)]);
}
