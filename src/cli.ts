// The command tree: the global options, then every command's own declaration (commands/<noun>/command.ts),
// grouped for help. Nothing here knows what a command does.
import { Command } from 'commander';
import { addCommands, toOption, type CommandSpec, type Runner } from './commands/command-spec.js';
import { HELP_LAYOUT, examples } from './commands/help-layout.js';
import { applyCommand } from './commands/apply/command.js';
import { bucketsCommand } from './commands/buckets/command.js';
import { completionCommand, dynamicCompletionCommand } from './commands/completion/command.js';
import { configCommand } from './commands/config/command.js';
import { doctorCommand } from './commands/doctor/command.js';
import { emulatorCommand } from './commands/emulator/command.js';
import { loginCommand, logoutCommand } from './commands/login/command.js';
import { reportCommand } from './commands/report/command.js';
import type { CommandContext } from './commands/context.js';
import { version } from './version.js';
import { processIo } from './io.js';
import { GLOBAL_OPTIONS } from './commands/global-options.js';

/** In the order completion offers them (`scpctl --help` lists them under their groups). */
export const COMMANDS: readonly CommandSpec[] = [
  bucketsCommand,
  applyCommand,
  reportCommand,
  loginCommand,
  logoutCommand,
  configCommand,
  doctorCommand,
  emulatorCommand,
  completionCommand,
  dynamicCompletionCommand,
];

/**
 * The tree. `run` says how a parse becomes a call: the context of a command and the run's streams; without
 * it (help and completion tests) a command that needs one says so. With `lazy` (a run), each command is
 * declared whole only when commander reads that the line runs it, or lists it in help (addCommands).
 */
export function buildProgram(
  run: Omit<Runner, 'program'> = { context: noContext, io: processIo() },
  commands: readonly CommandSpec[] = COMMANDS,
  lazy = false,
): Command {
  const program = new Command('scpctl');
  // Flags every command accepts (commands/global-options.ts): commander reads them before or after the subcommand.
  for (const option of GLOBAL_OPTIONS) program.addOption(toOption(option));
  program
    .description('Keep storage constraint profile bucket lists and pull event reports.')
    .version(version(), '-V, --version', 'print the version')
    .configureHelp(HELP_LAYOUT)
    .addHelpText('after', examples(['scpctl login --base-url https://tenant.example.com', 'scpctl buckets view finance', 'scpctl report --type alert --groupby user --period 7d']));
  addCommands(program, commands, { ...run, program }, lazy);
  program.commandsGroup('Help:').helpCommand(true);
  // `help CMD [SUBCMD]` as commander reads it (global options anywhere) is the line helpLine says, read
  // again: commander's own help command takes one word. Hidden, so that help and completion list commander's.
  program
    .command('help [command...]', { hidden: true })
    .helpOption(false)
    .allowUnknownOption()
    .action(async (words: string[]) => void (await program.parseAsync(helpLine(words, commands), { from: 'user' })));
  return program;
}

/**
 * `help WORDS` shows what `WORDS --help` shows. A word that names no command (`help nosuch`, `help buckets
 * veiw`) is left for commander to refuse as `scpctl nosuch` is, exit 2 with its closest names, unless the
 * command before it takes it as an argument (`help apply FILE`).
 */
function helpLine(words: readonly string[], commands: readonly CommandSpec[]): string[] {
  if (words[0] === 'help') return ['--help'];
  let level: readonly CommandSpec[] | undefined = commands;
  let parent: CommandSpec | undefined;
  for (const word of words) {
    if (level === undefined || word.startsWith('-')) break;
    const spec: CommandSpec | undefined = level.find((candidate) => candidate.name === word);
    if (spec === undefined) return parent?.load || parent?.direct ? [...words, '--help'] : [...words];
    parent = spec;
    level = spec.subcommands;
  }
  return [...words, '--help'];
}

async function noContext(): Promise<CommandContext> {
  throw new Error('this program was built without a way to run commands');
}
