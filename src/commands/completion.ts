import type { Command } from 'commander';

export function completionScript(shell: 'bash' | 'zsh' | 'fish', _program: Command): string {
  return `# scpctl completion for ${shell}: not implemented yet\n`;
}
