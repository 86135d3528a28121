// The bash completion script: case tables generated from the completion model, and one function that
// walks the words typed so far and offers what the tables say.
import type { ArgumentModel, CommandModel, OptionModel } from './model.js';
import { walk } from './model.js';

/** A word for a bash `case` pattern or `echo`, single-quoted. */
function shq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function bashScript(model: CommandModel, bin: string): string {
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
${bashWalk(fn)}
${bashChoose(fn, bin)}`;
}

/**
 * Fills COMPREPLY with the candidates ($1) that start with the word typed ($2), each prefixed by $3. They are
 * offered as they are: split into words without any expansion (compgen -W would expand $(...) in a
 * candidate, and a profile name comes from the service's console), matched by a literal prefix.
 */
function bashOffer(fn: string): string {
  return `${fn}_offer() {
  local -a words=()
  local candidate
  IFS=$' \\t\\n' read -r -d '' -a words <<< "$1" || true
  COMPREPLY=()
  for candidate in "\${words[@]}"; do
    [[ $candidate == "$2"* ]] && COMPREPLY+=("$3$candidate")
  done
}
`;
}

/** The helpers and the first half of the completion function: walk the words before the cursor. */
function bashWalk(fn: string): string {
  return `${fn}_has() {
  [[ " $1 " == *" $2 "* ]]
}

${bashOffer(fn)}
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
`;
}

/** The second half: what the word under the cursor may be, and the candidates offered (subcommands, flags or values). */
function bashChoose(fn: string, bin: string): string {
  return `  local prefix='' candidates=''
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
  fi
  ${fn}_offer "$candidates" "$cur" "$prefix"
  return 0
}

complete -F ${fn} ${bin}
`;
}
