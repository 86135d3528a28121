// `scpctl completion bash|zsh|fish`: a completion script generated from the commander command tree itself
// (model.ts), so it cannot drift from what the CLI accepts; one file per shell.
import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionModel, type CommandModel, type Shell } from './model.js';
import { zshScript } from './zsh.js';

export { completionModel, type CommandModel, type Shell } from './model.js';

const SCRIPTS: Record<Shell, (model: CommandModel, bin: string) => string> = { bash: bashScript, zsh: zshScript, fish: fishScript };

export function completionScript(shell: Shell, program: Command): string {
  return SCRIPTS[shell](completionModel(program), program.name());
}
