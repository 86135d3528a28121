// `scpctl completion SHELL` and the hidden `scpctl __complete KIND [PREFIX]` the scripts call for values
// known only at run time (contexts, profiles seen before). Both read the command tree itself.
import type { CommandSpec } from '../command-spec.js';

export const completionCommand: CommandSpec = {
  name: 'completion',
  wholeTree: true,
  summary: 'print a shell completion script',
  group: 'Setup:',
  args: [{ name: '<shell>', description: 'bash, zsh or fish', choices: ['bash', 'zsh', 'fish'] }],
  examples: ['scpctl completion bash > /etc/bash_completion.d/scpctl', 'scpctl completion zsh > "${fpath[1]}/_scpctl"'],
  direct: async ({ args, program, io }) => {
    const { completionScript } = await import('./index.js');
    io.stdout.write(completionScript(args[0] as 'bash' | 'zsh' | 'fish', program));
  },
};

export const dynamicCompletionCommand: CommandSpec = {
  name: '__complete',
  wholeTree: true,
  hidden: true,
  summary: 'print completion candidates of a kind (context, profile), one a line',
  args: [
    { name: '<kind>', description: 'context or profile' },
    { name: '[prefix]', description: 'what has been typed of the value', default: '' },
  ],
  examples: ['scpctl __complete context', 'scpctl __complete profile fin'],
  direct: async ({ args, command, io }) => {
    const { dynamicCandidates } = await import('./dynamic.js');
    const names = dynamicCandidates(args[0] as string, args[1] as string, command.optsWithGlobals(), io.env);
    io.stdout.write(names.map((name) => `${name}\n`).join(''));
  },
};
