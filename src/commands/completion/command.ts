// `scpctl completion SHELL` prints a fixed script; the hidden `scpctl __complete -- WORDS...` it calls at
// each Tab reads the command tree itself (candidates.ts).
import type { CommandSpec } from '../command-spec.js';

export const completionCommand: CommandSpec = {
  name: 'completion',
  summary: 'print a shell completion script',
  group: 'Setup:',
  args: [{ name: '<shell>', description: 'bash, zsh or fish', choices: ['bash', 'zsh', 'fish'] }],
  examples: ['scpctl completion bash > /etc/bash_completion.d/scpctl', 'scpctl completion zsh > "${fpath[1]}/_scpctl"'],
  direct: async ({ args, io }) => {
    const { SCRIPTS } = await import('./scripts.js');
    io.stdout.write(SCRIPTS[args[0] as keyof typeof SCRIPTS]);
  },
};

export const dynamicCompletionCommand: CommandSpec = {
  name: '__complete',
  wholeTree: true,
  hidden: true,
  summary: 'print what a Tab offers after the words typed, the last being the word completed: a kind line, then one a line',
  args: [{ name: '[words...]', description: 'the words after scpctl, up to the cursor' }],
  examples: ['scpctl __complete -- buckets v', "scpctl __complete -- --context ''"],
  direct: async ({ args, program, io }) => {
    const { completeWords } = await import('./candidates.js');
    io.stdout.write(completeWords(program, args[0] as string[], io.env).map((line) => `${line}\n`).join(''));
  },
};
