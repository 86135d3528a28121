// `scpctl completion bash|zsh|fish`: a completion script generated from the commander command tree itself
// (model.ts), so it cannot drift from what the CLI accepts; one file per shell.
import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionModel, type Shell } from './model.js';
import { zshScript } from './zsh.js';

export { completionModel, type CommandModel, type Shell } from './model.js';

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
