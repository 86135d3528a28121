// The zsh completion script, generated from the completion model: one function per command path.
import type { CommandModel } from './model.js';
import { walk } from './model.js';
import type { DynamicKind } from './dynamic.js';

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

export function zshScript(model: CommandModel, bin: string): string {
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
