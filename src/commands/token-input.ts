// Reading a token for `login` and `config set token`: a hidden prompt on a terminal, standard input with
// --with-token. Never from argv.
import { AuthError, UsageError } from '../errors.js';
import { promptHidden } from '../output/prompt.js';
import { readInput } from '../files/read-input.js';
import type { CommandContext } from './context.js';

export async function readTokenInput(ctx: CommandContext, withToken: boolean | undefined): Promise<string> {
  let token: string;
  if (withToken) token = (await readInput(ctx.term.stdin)).toString().trim();
  else if (ctx.term.stdinIsTTY && ctx.term.stderrIsTTY) token = (await promptHidden('API token: ', ctx.term.stdin, ctx.term.stderr)).trim();
  else {
    throw new UsageError('standard input is not a terminal: pass --with-token to read the token from it', {
      hint: 'echo "$TOKEN" | scpctl login --with-token',
    });
  }
  if (token === '') throw new AuthError('the token given is empty');
  if (/\s/.test(token)) throw new UsageError('the token contains whitespace; paste it whole, on one line');
  return token;
}
