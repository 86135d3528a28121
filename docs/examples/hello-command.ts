// A whole new command, as docs/architecture.md's guide builds it. The declaration is what start-up loads;
// the action is the code, loaded only when the command runs (in a real command it lives in its own module
// and `load` imports it).
import type { CommandSpec } from '../../src/commands/command-spec.js';
import type { CommandContext } from '../../src/commands/context.js';
import { UsageError } from '../../src/errors.js';

export interface HelloOptions {
  shout?: boolean;
}

/** The action: the context first, then the arguments and the options, typed. */
export async function hello(ctx: CommandContext, name: string, options: HelloOptions): Promise<void> {
  if (name.trim() === '') throw new UsageError('hello: the name is empty');
  const greeting = `hello, ${name}`;
  ctx.term.out(`${options.shout ? greeting.toUpperCase() : greeting}\n`);
}

export const helloCommand: CommandSpec = {
  name: 'hello',
  summary: 'greet someone (an example of a command)',
  group: 'Setup:',
  args: [{ name: '<name>', description: 'who to greet' }],
  options: [{ flags: '--shout', description: 'in capitals' }],
  examples: ['scpctl hello world', 'scpctl hello world --shout'],
  load: async () => hello,
};
