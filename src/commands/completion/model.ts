// The completion model: the command tree as the scripts see it (commands, their flags and arguments, and
// the values each takes), read from the commander tree itself so it cannot drift from what the CLI accepts.
import type { Argument, Command, Option } from 'commander';
import { CONFIG_KEYS } from '../../settings/config-file.js';
import { PERIODS } from '../../core/time.js';
import { outputFormatsOf } from '../command-spec.js';
import type { DynamicKind } from './dynamic.js';

export type Shell = 'bash' | 'zsh' | 'fish';

// Every value offered comes from what the parsers read: commander's declared choices, the -o formats each
// command declares (CommandSpec.output, output/formats.ts), the periods parsePeriod knows, the keys
// normalizeConfigKey accepts. test/e2e/completion-values.test.ts runs each one through the CLI.

/** Values commander does not declare as choices (they are checked in the commands), keyed by long flag. */
const OPTION_VALUES: Record<string, readonly string[]> = {
  '--period': [...Object.keys(PERIODS), ...Object.values(PERIODS).map(String)],
};

/** Values of positional arguments commander does not declare as choices, keyed by argument name. */
const ARGUMENT_VALUES: Record<string, readonly string[]> = {
  key: [...CONFIG_KEYS, ...CONFIG_KEYS.map(kebabCase).filter((k) => !(CONFIG_KEYS as readonly string[]).includes(k))],
};

/** Values known only at run time, asked of `scpctl __complete KIND` by the scripts. */
const DYNAMIC_OPTIONS: Record<string, DynamicKind> = { '--context': 'context', '--contexts': 'context' };
const DYNAMIC_ARGUMENTS: Record<string, DynamicKind> = { profile: 'profile', context: 'context' };

function kebabCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

export interface OptionModel {
  /** `-o`, `--output`: short first. */
  flags: string[];
  long?: string;
  short?: string;
  description: string;
  /** Whether the flag takes a value: `<v>` required, `[v]` optional. */
  value: 'none' | 'required' | 'optional';
  /** The value's name in the help (`url`, `file`). */
  valueName: string;
  choices?: readonly string[];
  files: boolean;
  /** The values are asked of `scpctl __complete` when completing. */
  dynamic?: DynamicKind;
}

export interface ArgumentModel {
  name: string;
  description: string;
  variadic: boolean;
  choices?: readonly string[];
  dynamic?: DynamicKind;
}

export interface CommandModel {
  /** Names from the top, without `scpctl`: `[]`, `['buckets']`, `['buckets', 'view']`. */
  path: string[];
  name: string;
  description: string;
  /** Every flag accepted here: the command's own and its ancestors' (commander parses those anywhere), and help. */
  options: OptionModel[];
  args: ArgumentModel[];
  subcommands: CommandModel[];
}

const HELP_OPTION: OptionModel = {
  flags: ['-h', '--help'],
  long: '--help',
  short: '-h',
  description: 'display help for command',
  value: 'none',
  valueName: '',
  files: false,
};

function optionModel(option: Option): OptionModel {
  const valueName = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? '';
  const value = option.required ? 'required' : option.optional ? 'optional' : 'none';
  const choices = option.argChoices ?? (option.long ? OPTION_VALUES[option.long] : undefined);
  const dynamic = option.long ? DYNAMIC_OPTIONS[option.long] : undefined;
  return {
    flags: [option.short, option.long].filter((f): f is string => Boolean(f)),
    long: option.long,
    short: option.short,
    description: option.description,
    value,
    valueName,
    ...(choices ? { choices } : {}),
    files: value !== 'none' && /file/i.test(valueName),
    ...(dynamic ? { dynamic } : {}),
  };
}

function argumentModel(argument: Argument): ArgumentModel {
  const choices = argument.argChoices ?? ARGUMENT_VALUES[argument.name()];
  const dynamic = DYNAMIC_ARGUMENTS[argument.name()];
  return {
    name: argument.name(),
    description: argument.description,
    variadic: argument.variadic,
    ...(choices ? { choices } : {}),
    ...(dynamic ? { dynamic } : {}),
  };
}

/** The tree as completion needs it. A command with subcommands also gets commander's implicit `help`. */
export function completionModel(program: Command): CommandModel {
  const build = (command: Command, path: string[], inherited: OptionModel[]): CommandModel => {
    const options: OptionModel[] = [];
    const seen = new Set<string>();
    for (const option of [...command.options.filter((o) => !o.hidden).map(optionModel), ...inherited, HELP_OPTION]) {
      if (option.flags.some((f) => seen.has(f))) continue;
      option.flags.forEach((f) => seen.add(f));
      options.push(option);
    }
    const passDown = options.filter((o) => o !== HELP_OPTION && o.long !== '--version');
    // Commander's public view of what help lists (hidden commands left out); its implicit help command is
    // modelled below, with the command names as its choices.
    const subcommands = command
      .createHelp()
      .visibleCommands(command)
      .filter((c) => command.commands.includes(c))
      .map((c) => build(c, [...path, c.name()], passDown));
    if (subcommands.length > 0 && !subcommands.some((c) => c.name === 'help')) {
      subcommands.push({
        path: [...path, 'help'],
        name: 'help',
        description: 'display help for command',
        options: [...passDown, HELP_OPTION],
        args: [{ name: 'command', description: 'the command', variadic: false, choices: subcommands.map((c) => c.name) }],
        subcommands: [],
      });
    }
    return {
      path,
      name: command.name(),
      description: command.description(),
      // -o is one global flag, but each command takes its own formats (none: nothing to offer).
      options: options.map((o) => (o.long === '--output' ? { ...o, choices: outputFormatsOf(command) } : o)),
      args: command.registeredArguments.map(argumentModel),
      subcommands,
    };
  };
  return build(program, [], []);
}

export function walk(node: CommandModel): CommandModel[] {
  return [node, ...node.subcommands.flatMap(walk)];
}
