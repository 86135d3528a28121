// The fish completion script, generated from the completion model: one `complete` line per flag, value and
// subcommand, each guarded by a test of the command path typed so far.
import type { CommandModel } from './model.js';
import { walk } from './model.js';

/** A fish single-quoted string: backslash and ' are escaped. */
function fq(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function fishScript(model: CommandModel, bin: string): string {
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

${fishPathTest(fn)}

${lines.join('\n')}
`;
}

/** The fish function that says whether the words typed lead to a command path (and argument index). */
function fishPathTest(fn: string): string {
  return `# True when the words before the cursor lead to command path $argv[1]
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
end`;
}
