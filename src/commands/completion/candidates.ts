// What a Tab offers, answered at Tab time by `scpctl __complete -- WORDS...` from commander's own tree (as
// cobra and gh do), so completion cannot drift from what the CLI accepts. WORDS are those after `scpctl`, the
// last the one being completed. The first line of the answer says what follows: `words`, then one candidate a
// line (with a tab and its description for a command or flag, which zsh and fish show), or `files`, then the
// text the shell is to complete as a file name.
import type { Command, Option } from 'commander';
import { CONFIG_KEYS, configPath, readConfig } from '../../settings/config-file.js';
import { resolveContext } from '../../settings/resolve.js';
import { isOfferable, seenProfiles } from '../../settings/seen-profiles.js';
import { PERIODS } from '../../core/time.js';
import { holdsSecret } from '../../core/secret-names.js';
import { contextNames } from '../config/contexts.js';
import { keepWaitArguments, outputFormatsOf } from '../command-spec.js';

// Every value offered comes from what the parsers read: commander's declared choices, the -o formats each
// command declares (CommandSpec.output), the periods parsePeriod knows, the keys normalizeConfigKey accepts.
// test/e2e/completion-values.test.ts runs each one through the CLI.
const PERIOD_WORDS = [...Object.keys(PERIODS), ...Object.values(PERIODS).map(String)];
const KEY_WORDS = [...CONFIG_KEYS, ...CONFIG_KEYS.map((key) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)).filter((key) => !(CONFIG_KEYS as readonly string[]).includes(key))];

/** Where the words before the cursor lead. */
interface Position {
  command: Command;
  /** The positional arguments typed after it. */
  argc: number;
  /** The command `help` was typed under (commander's implicit help command has no parent). */
  helpOf?: Command;
  /** The flag whose value the next word is. */
  valueFlag?: Option;
  /** The --context the words name: the profiles offered are those seen there. */
  context?: string;
}

export function completeWords(program: Command, words: readonly string[], env: NodeJS.ProcessEnv): string[] {
  // Read as commander is made to read them: a --wait followed by no number stands alone.
  const at = walk(program, keepWaitArguments(words.slice(0, -1)));
  let word = words.at(-1) ?? '';
  let prefix = '';
  if (at.valueFlag && word === '=') {
    word = '';
  } else if (!at.valueFlag && /^--[^=]+=/.test(word)) {
    prefix = word.slice(0, word.indexOf('=') + 1);
    at.valueFlag = optionsAt(at.command).find((option) => option.long === prefix.slice(0, -1));
    word = word.slice(prefix.length);
  }
  const offer = (candidates: readonly string[]): string[] => ['words', ...candidates.filter((c) => c.startsWith(word)).map((c) => prefix + c)];
  if (at.valueFlag) {
    const values = optionValues(at.valueFlag, at, env);
    return values === 'files' ? ['files', word] : offer(values);
  }
  if (word.startsWith('-')) return offer(optionsAt(at.command).flatMap((o) => [o.short, o.long].filter(Boolean).map((flag) => `${flag}\t${o.description}`)));
  const subcommands = subcommandsOf(at.command);
  if (subcommands.length > 0) return offer(subcommands.map((c) => `${c.name()}\t${c.description()}`));
  return offer(argumentValues(at, env));
}

/** Descends into subcommands, skips flag values, counts positionals: the words as commander would read them. */
function walk(program: Command, words: readonly string[]): Position {
  const at: Position = { command: program, argc: 0 };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (at.valueFlag) {
      // "--type=alert" arrives as three words where = breaks words.
      if (word === '=') continue;
      if (at.valueFlag.long === '--context') at.context = word;
      at.valueFlag = undefined;
    } else if (word.startsWith('--context=')) {
      at.context = word.slice('--context='.length);
    } else if (word.startsWith('-') && !word.includes('=')) {
      const option = optionsAt(at.command).find((o) => o.short === word || o.long === word);
      if (option?.required) at.valueFlag = option;
      else if (option?.optional && i + 1 < words.length && !words[i + 1]!.startsWith('-')) i++;
    } else if (!word.startsWith('-')) {
      const subcommand = subcommandsOf(at.command).find((c) => c.name() === word);
      if (subcommand === undefined) at.argc++;
      else Object.assign(at, { command: subcommand, argc: 0, helpOf: word === 'help' ? at.command : undefined });
    }
  }
  return at;
}

/** What help lists: hidden commands left out, commander's implicit help in. */
function subcommandsOf(command: Command): Command[] {
  return command.createHelp().visibleCommands(command);
}

/** A command's own flags and --help, then its ancestors' (but --version), the nearest first where flags collide. */
function optionsAt(command: Command): Option[] {
  const seen = new Set<string>();
  const options: Option[] = [];
  for (let level: Command | null = command; level; level = level.parent) {
    const own = level === command ? command.createHelp().visibleOptions(command) : level.options.filter((o) => !o.hidden && o.long !== '--version');
    for (const option of own) {
      const flags = [option.short, option.long].filter((flag): flag is string => Boolean(flag));
      if (flags.some((flag) => seen.has(flag))) continue;
      flags.forEach((flag) => seen.add(flag));
      options.push(option);
    }
  }
  return options;
}

function optionValues(option: Option, at: Position, env: NodeJS.ProcessEnv): readonly string[] | 'files' {
  // -o is one global flag, but each command takes its own formats (none: nothing to offer).
  if (option.long === '--output') return outputFormatsOf(at.command) ?? [];
  if (option.argChoices) return option.argChoices;
  if (option.long === '--period') return PERIOD_WORDS;
  if (option.long === '--context' || option.long === '--contexts') return remembered('context', at, env);
  return /[<[][^>\]]*file[^>\]]*[>\]]/i.test(option.flags) ? 'files' : [];
}

function argumentValues(at: Position, env: NodeJS.ProcessEnv): readonly string[] {
  if (at.helpOf) return at.argc === 0 ? subcommandsOf(at.helpOf).map((c) => c.name()).filter((name) => name !== 'help') : [];
  const args = at.command.registeredArguments;
  const argument = args[at.argc] ?? (args.at(-1)?.variadic ? args.at(-1) : undefined);
  if (argument?.argChoices) return argument.argChoices;
  const name = argument?.name();
  if (name === 'key') return KEY_WORDS;
  return name === 'profile' || name === 'context' ? remembered(name, at, env) : [];
}

/**
 * The contexts of the config store, or the profiles seen before in the context in effect; never an error
 * (a shell is waiting). Only names a shell may be offered (seen-profiles.ts), and none holding a token of
 * the environment or the store (a name kept by an older scpctl might): a token file is not read here (a FIFO
 * would hold up the waiting shell).
 */
function remembered(kind: 'context' | 'profile', at: Position, env: NodeJS.ProcessEnv): string[] {
  try {
    const data = readConfig(configPath(env));
    const names = kind === 'context' ? contextNames(data) : seenProfiles(resolveContext({ context: at.context }, env, data).value, env);
    const tokens = [env.SCPCTL_TOKEN, ...Object.values(data.contexts).map((values) => values.token)].filter((token): token is string => Boolean(token));
    return names.filter((name) => isOfferable(name) && !holdsSecret(name, tokens));
  } catch {
    return [];
  }
}
