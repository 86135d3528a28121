// The three completion scripts, fixed: each only asks `scpctl __complete -- WORDS...` (candidates.ts) at
// each Tab and offers its lines as they are. No candidate is ever split, globbed or expanded by the shell
// (no `compgen -W`, no unquoted $(...)): a name from the service's console is text (contract section 13).
const BASH = `# scpctl completion for bash: each Tab asks \`scpctl __complete\` (a hidden command) what to offer.
# Install for your user:   scpctl completion bash > ~/.local/share/bash-completion/completions/scpctl
# or in ~/.bashrc:         source <(scpctl completion bash)

_scpctl() {
  local kind='' line
  local -a lines=()
  COMPREPLY=()
  while IFS= read -r line; do
    if [[ -z $kind ]]; then kind="$line"; else lines+=("$line"); fi
  done < <(command scpctl __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
  if [[ $kind == files ]]; then
    compopt -o filenames 2>/dev/null
    while IFS= read -r line; do COMPREPLY+=("$line"); done < <(compgen -f -- "\${lines[0]}")
  else
    # A command's or flag's description follows a tab: bash shows none.
    for line in "\${lines[@]}"; do COMPREPLY+=("\${line%%$'\\t'*}"); done
  fi
  return 0
}

complete -F _scpctl scpctl
`;

const ZSH = `#compdef scpctl
# scpctl completion for zsh: each Tab asks \`scpctl __complete\` (a hidden command) what to offer.
# Install: scpctl completion zsh > "\${fpath[1]}/_scpctl"   (then start a new shell)
# or in ~/.zshrc, after compinit:  source <(scpctl completion zsh)

_scpctl() {
  local -a lines names shown
  local line
  lines=("\${(@f)$(command scpctl __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if [[ $lines[1] == files ]]; then
    compset -P '--[^=]#='
    _files
    return
  fi
  for line in "\${(@)lines[2,-1]}"; do
    names+=("\${line%%$'\\t'*}")
    shown+=("\${line/$'\\t'/  -- }")
  done
  compadd -l -d shown -- "\${names[@]}"
}

if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _scpctl "$@"
else
  compdef _scpctl scpctl
fi
`;

const FISH = `# scpctl completion for fish: each Tab asks \`scpctl __complete\` (a hidden command) what to offer.
# Install: scpctl completion fish > ~/.config/fish/completions/scpctl.fish

function __scpctl_complete
    set -l words (commandline -opc)
    set -e words[1]
    set -l current (commandline -ct)
    set -l lines (command scpctl __complete -- $words "$current" 2>/dev/null)
    if test "$lines[1]" = files
        __fish_complete_path "$current"
    else
        printf '%s\\n' $lines[2..-1]
    end
end

complete -c scpctl -f -a '(__scpctl_complete)'
`;

export const SCRIPTS = { bash: BASH, zsh: ZSH, fish: FISH };
