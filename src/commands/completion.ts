// `scpctl completion bash|zsh|fish`: a completion script generated from the commander command tree itself
// (commands, their flags and arguments, declared choices), so it cannot drift from what the CLI accepts.
import type { Argument, Command, Option } from 'commander';
import { CONFIG_KEYS } from '../settings/config-file.js';
import { PERIODS } from '../core/time.js';
import { outputFormatsOf } from './output-formats.js';
import type { DynamicKind } from './complete-dynamic.js';

export type Shell = 'bash' | 'zsh' | 'fish';

// Every value offered comes from what the parsers read: commander's declared choices, the -o formats each
// command passes to ctx.outputFormat (output-formats.ts), the periods parsePeriod knows, the keys
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
const DYNAMIC_OPTIONS: Record<string, DynamicKind> = { '--context': 'context' };
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
  /** The value is a file path. */
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
    const subcommands = command.commands
      .filter((c) => !(c as Command & { _hidden?: boolean })._hidden)
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
      options: options.map((o) => (o.long === '--output' ? withOutputFormats(o, path) : o)),
      args: command.registeredArguments.map(argumentModel),
      subcommands,
    };
  };
  return build(program, [], []);
}

/** -o is one global flag, but each command takes its own formats (none: nothing to offer). */
function withOutputFormats(option: OptionModel, path: string[]): OptionModel {
  const { choices: _all, ...rest } = option;
  const formats = outputFormatsOf(path.join(' '));
  return formats ? { ...rest, choices: formats } : rest;
}

function walk(node: CommandModel): CommandModel[] {
  return [node, ...node.subcommands.flatMap(walk)];
}

export function completionScript(shell: Shell, program: Command): string {
  const model = completionModel(program);
  const bin = program.name();
  switch (shell) {
    case 'bash':
      return bashScript(model, bin);
    case 'zsh':
      return zshScript(model, bin);
    case 'fish':
      return fishScript(model, bin);
  }
}

// ---- bash ----

/** A word for a bash `case` pattern or `echo`, single-quoted. */
function shq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function bashScript(model: CommandModel, bin: string): string {
  const nodes = walk(model);
  const fn = `_${bin.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const key = (node: CommandModel): string => shq(node.path.join(' '));
  const caseOf = (name: string, comment: string, arms: string[]): string =>
    `# ${comment}\n${fn}_${name}() {\n  case "$1" in\n${arms.join('\n')}\n  esac\n}\n`;

  const subcommands = caseOf('subcommands', 'the subcommands at a command path ($1)',
    nodes.filter((n) => n.subcommands.length).map((n) => `    ${key(n)}) echo ${shq(n.subcommands.map((s) => s.name).join(' '))} ;;`));
  const options = caseOf('options', 'the flags accepted at a command path ($1)',
    nodes.map((n) => `    ${key(n)}) echo ${shq(n.options.flatMap((o) => o.flags).join(' '))} ;;`));
  const takesValue = caseOf('value_flags', 'flags that take a value at a command path ($1): "required" ($2 = r) or "optional" ($2 = o)',
    nodes.flatMap((n) => {
      const of = (kind: OptionModel['value']): string => n.options.filter((o) => o.value === kind).flatMap((o) => o.flags).join(' ');
      return [`    ${key(n)})`, `      if [[ $2 == r ]]; then echo ${shq(of('required'))}; else echo ${shq(of('optional'))}; fi ;;`];
    }));
  const optionValues = caseOf('option_values', 'the values of flag $2 at a command path ($1); __files__ means file names, __dynamic__ KIND asks scpctl __complete KIND',
    nodes.flatMap((n) => {
      const arms = n.options
        .filter((o) => o.choices || o.files || o.dynamic)
        .map((o) => `        ${o.flags.map(shq).join('|')}) echo ${o.choices ? shq(o.choices.join(' ')) : o.dynamic ? shq(`__dynamic__ ${o.dynamic}`) : '__files__'} ;;`);
      return arms.length ? [`    ${key(n)})`, '      case "$2" in', ...arms, '      esac ;;'] : [];
    }));
  const argumentValues = caseOf('argument_values', 'the values of positional argument number $2 (from 0) at a command path ($1)',
    nodes.flatMap((n) => {
      if (!n.args.some((a) => a.choices || a.dynamic)) return [];
      const values = (a: ArgumentModel): string =>
        a.choices ? `echo ${shq(a.choices.join(' '))} ` : a.dynamic ? `echo ${shq(`__dynamic__ ${a.dynamic}`)} ` : '';
      const arms = n.args.map((a, i) => `        ${a.variadic ? '*' : i}) ${values(a)};;`);
      return [`    ${key(n)})`, '      case "$2" in', ...arms, '      esac ;;'];
    }));

  return `# ${bin} completion for bash, generated from the command tree by \`${bin} completion bash\`.
# Install for your user:   ${bin} completion bash > ~/.local/share/bash-completion/completions/${bin}
# or in ~/.bashrc:         source <(${bin} completion bash)

${subcommands}
${options}
${takesValue}
${optionValues}
${argumentValues}
${fn}_has() {
  [[ " $1 " == *" $2 "* ]]
}

${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local path='' value_of='' context='' argc=0 i word
  # Walk the words before the cursor: descend into subcommands, skip flag values, count positionals.
  for (( i = 1; i < COMP_CWORD; i++ )); do
    word="\${COMP_WORDS[i]}"
    if [[ -n $value_of ]]; then
      # "--type=alert" may arrive as three words when = is a word break.
      if [[ $word != = ]]; then
        [[ $value_of == --context ]] && context="$word"
        value_of=''
      fi
      continue
    fi
    case "$word" in
      --context=*) context="\${word#--context=}" ;;
      --*=*) ;;
      -*)
        if ${fn}_has "$(${fn}_value_flags "$path" r)" "$word"; then
          value_of="$word"
        elif ${fn}_has "$(${fn}_value_flags "$path" o)" "$word" && [[ $((i + 1)) -lt $COMP_CWORD && \${COMP_WORDS[i+1]} != -* ]]; then
          i=$((i + 1))
        fi ;;
      *)
        if ${fn}_has "$(${fn}_subcommands "$path")" "$word"; then
          path="\${path:+$path }$word"
          argc=0
        else
          argc=$((argc + 1))
        fi ;;
    esac
  done

  local prefix='' candidates=''
  if [[ $cur == = && -n $value_of ]]; then
    cur=''
  elif [[ -z $value_of && $cur == --*=* ]]; then
    value_of="\${cur%%=*}"
    prefix="\${value_of}="
    cur="\${cur#*=}"
  fi

  if [[ -n $value_of ]]; then
    candidates="$(${fn}_option_values "$path" "$value_of")"
    if [[ $candidates == __files__ ]]; then
      compopt -o filenames 2>/dev/null
      local IFS=$'\\n'
      COMPREPLY=( $(compgen -f -- "$cur") )
      return 0
    fi
  elif [[ $cur == -* ]]; then
    candidates="$(${fn}_options "$path")"
  else
    candidates="$(${fn}_subcommands "$path")"
    [[ -n $candidates ]] || candidates="$(${fn}_argument_values "$path" "$argc")"
  fi
  if [[ $candidates == __dynamic__\\ * ]]; then
    # Known only now (contexts, profiles seen before): ask scpctl, in the context the words name.
    local -a context_flag=()
    [[ -n $context ]] && context_flag=(--context "$context")
    candidates="$(command ${bin} "\${context_flag[@]}" __complete "\${candidates#__dynamic__ }" 2>/dev/null)"
    local IFS=$'\\n'
  fi
  COMPREPLY=( $(compgen -W "$candidates" -- "$cur") )
  if [[ -n $prefix ]]; then
    COMPREPLY=( "\${COMPREPLY[@]/#/$prefix}" )
  fi
  return 0
}

complete -F ${fn} ${bin}
`;
}

// ---- zsh ----

/** Text inside single quotes in zsh: ' closes, so it becomes '\\''. */
function zq(text: string): string {
  return text.replace(/'/g, `'\\''`);
}

/** A description inside an _arguments `[...]`: brackets and backslashes escaped. */
function zdesc(text: string): string {
  return zq(text.replace(/\\/g, '\\\\').replace(/([[\]])/g, '\\$1'));
}

function zshAction(values: readonly string[] | undefined, files: boolean, dynamic?: DynamicKind): string {
  if (values) return `(${values.map((v) => v.replace(/([\s()\\:'])/g, '\\$1')).join(' ')})`;
  if (dynamic) return `{_scpctl__dynamic ${dynamic}}`;
  return files ? '_files' : ' ';
}

function zshOptionSpecs(node: CommandModel): string[] {
  return node.options.map((o) => {
    const exclusive = o.flags.length > 1 ? `(${o.flags.join(' ')})` : '';
    const message = (o.valueName || 'value').replace(/:/g, '');
    const arg = o.value === 'required' ? `:${message}:${zshAction(o.choices, o.files, o.dynamic)}` : o.value === 'optional' ? `::${message}:${zshAction(o.choices, o.files, o.dynamic)}` : '';
    const withValue = (flag: string): string => (o.value === 'none' ? flag : flag.startsWith('--') ? `${flag}=` : `${flag}+`);
    const spec = (flag: string): string => `${withValue(flag)}[${zdesc(o.description)}]${zq(arg)}`;
    if (o.flags.length === 1) return `'${spec(o.flags[0]!)}'`;
    // '(-o --output)'{-o+,--output=}'[description]:format:(...)'
    return `'${exclusive}'{${o.flags.map(withValue).join(',')}}'[${zdesc(o.description)}]${zq(arg)}'`;
  });
}

function zshFunctionName(bin: string, node: CommandModel): string {
  return ['_' + bin, ...node.path].join('_').replace(/[^A-Za-z0-9_]/g, '_');
}

function zshFunction(bin: string, node: CommandModel): string {
  const name = zshFunctionName(bin, node);
  const specs = zshOptionSpecs(node);
  if (node.subcommands.length === 0) {
    const args = node.args.map((a, i) => {
      const position = a.variadic ? '*' : String(i + 1);
      return `'${position}:${zq(a.name.replace(/:/g, ''))}:${zq(zshAction(a.choices, false, a.dynamic))}'`;
    });
    return `${name}() {\n  _arguments -s -S \\\n    ${[...specs, ...args].join(' \\\n    ')}\n}\n`;
  }
  const described = node.subcommands.map((s) => `'${zq(s.name.replace(/:/g, '\\:'))}:${zq(s.description)}'`);
  const dispatch = node.subcommands.map((s) => `        ${s.name}) ${zshFunctionName(bin, s)} ;;`);
  const title = [bin, ...node.path].join(' ');
  return `${name}() {
  local curcontext="$curcontext" state line
  typeset -A opt_args
  _arguments -C -s -S \\
    ${[...specs, `'1: :->command'`, `'*:: :->argument'`].join(' \\\n    ')}
  case $state in
    command)
      local -a commands
      commands=(
        ${described.join('\n        ')}
      )
      _describe -t commands '${zq(title)} command' commands ;;
    argument)
      curcontext="\${curcontext%:*:*}:${zq(title.replace(/ /g, '-'))}-$line[1]:"
      case $line[1] in
${dispatch.join('\n')}
      esac ;;
  esac
}
`;
}

function zshScript(model: CommandModel, bin: string): string {
  const functions = walk(model).reverse().map((node) => zshFunction(bin, node));
  const top = zshFunctionName(bin, model);
  return `#compdef ${bin}
# ${bin} completion for zsh, generated from the command tree by \`${bin} completion zsh\`.
# Install: ${bin} completion zsh > "\${fpath[1]}/_${bin}"   (then start a new shell)
# or in ~/.zshrc, after compinit:  source <(${bin} completion zsh)

# Values known only at run time (contexts, profiles seen before), asked of ${bin} itself.
_scpctl__dynamic() {
  local -a candidates
  candidates=(\${(f)"$(command ${bin} __complete $1 2>/dev/null)"})
  compadd -a candidates
}

${functions.join('\n')}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  ${top} "$@"
else
  compdef ${top} ${bin}
fi
`;
}

// ---- fish ----

/** A fish single-quoted string: backslash and ' are escaped. */
function fq(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function fishScript(model: CommandModel, bin: string): string {
  const nodes = walk(model);
  const fn = `__${bin.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const at = (node: CommandModel, argIndex?: number | '*'): string =>
    fq(`${fn}_at ${fq(node.path.join(' '))}${argIndex === undefined ? '' : ` ${argIndex}`}`);

  const subcommandArms = nodes
    .filter((n) => n.subcommands.length)
    .map((n) => `        case ${fq(n.path.join(' '))}\n            printf '%s\\n' ${n.subcommands.map((s) => fq(s.name)).join(' ')}`);
  const valueFlagArms = nodes.map((n) => {
    const flags = n.options.filter((o) => o.value === 'required').flatMap((o) => o.flags);
    return `        case ${fq(n.path.join(' '))}\n            printf '%s\\n' ${flags.map(fq).join(' ')}`;
  });

  const lines: string[] = [`complete -c ${bin} -f`];
  for (const node of nodes) {
    for (const sub of node.subcommands) {
      lines.push(`complete -c ${bin} -n ${at(node, 0)} -a ${fq(sub.name)} -d ${fq(sub.description)}`);
    }
    for (const o of node.options) {
      const flags = [o.short ? `-s ${o.short.slice(1)}` : '', o.long ? `-l ${o.long.slice(2)}` : ''].filter(Boolean).join(' ');
      const value =
        o.value === 'none' ? '' : o.choices ? ` -x -a ${fq(o.choices.join(' '))}` : o.dynamic ? ` -x -a ${fq(`(${bin} __complete ${o.dynamic})`)}` : o.files ? ' -r -F' : ' -x';
      lines.push(`complete -c ${bin} -n ${at(node)} ${flags}${value} -d ${fq(o.description)}`);
    }
    node.args.forEach((a, i) => {
      const values = a.choices ? a.choices.join(' ') : a.dynamic ? `(${bin} __complete ${a.dynamic})` : undefined;
      if (values) lines.push(`complete -c ${bin} -n ${at(node, a.variadic ? '*' : i)} -a ${fq(values)} -d ${fq(a.description || a.name)}`);
    });
  }

  return `# ${bin} completion for fish, generated from the command tree by \`${bin} completion fish\`.
# Install: ${bin} completion fish > ~/.config/fish/completions/${bin}.fish

# The subcommands at a command path.
function ${fn}_subcommands
    switch "$argv[1]"
${subcommandArms.join('\n')}
    end
end

# The flags that take a value at a command path.
function ${fn}_value_flags
    switch "$argv[1]"
${valueFlagArms.join('\n')}
    end
end

# True when the words before the cursor lead to command path $argv[1]
# (and, with $argv[2], when the next positional argument has that index, from 0; * for any).
function ${fn}_at
    set -l words (commandline -opc)
    set -e words[1]
    set -l path ''
    set -l argc 0
    set -l skip 0
    for word in $words
        if test $skip -eq 1
            set skip 0
            continue
        end
        switch $word
            case '--*=*'
            case '-*'
                if contains -- $word (${fn}_value_flags "$path")
                    set skip 1
                end
            case '*'
                if contains -- $word (${fn}_subcommands "$path")
                    set path (string trim -- "$path $word")
                    set argc 0
                else
                    set argc (math $argc + 1)
                end
        end
    end
    test "$path" = "$argv[1]"; or return 1
    test (count $argv) -lt 2; and return 0
    test "$argv[2]" = '*'; or test "$argv[2]" = "$argc"
end

${lines.join('\n')}
`;
}
