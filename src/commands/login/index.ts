import { AuthError } from '../../errors.js';
import { configPath } from '../../settings/config-file.js';
import { overridingTokenVariables, storedTokenWarnings } from '../../settings/token-source.js';
import { removeToken, saveToken, storeChoice } from './token-store.js';
import type { CommandContext } from '../context.js';
import { readTokenInput } from '../token-input.js';

/** `login`: stores the base URL and the token in the selected context, after one request proves the token. */
export async function login(ctx: CommandContext, options: { withToken?: boolean; verify?: boolean; tokenStore?: string }): Promise<void> {
  const choice = storeChoice(options.tokenStore, ctx.env);
  const settings = ctx.settings({ creating: true });
  const baseUrl = ctx.baseUrl(); // required and checked as every command checks it (plain http, proxies)
  const token = await readTokenInput(ctx, options.withToken);
  ctx.term.addSecret(token);
  if (options.verify !== false) {
    const client = await ctx.clientFor(baseUrl, token);
    const spinner = ctx.term.spinner(`checking the token against ${baseUrl.host}`);
    try {
      await client.report([['timeperiod', '3600'], ['limit', '1']]);
    } catch (error) {
      // The usual hint (run `scpctl login`) is no help in the middle of `login`.
      if (error instanceof AuthError) {
        throw new AuthError(`the service rejected the token (${error.message}); nothing was stored`, {
          hint: 'Copy the token again (it is shown once, when created) and rerun this command; --no-verify stores it unchecked.',
        });
      }
      throw error;
    } finally {
      spinner.stop();
    }
  }
  const context = settings.context.value;
  const stored = baseUrl.href.replace(/\/$/, '');
  const saved = await saveToken(ctx.env, context, token, choice, { baseUrl: stored });
  const where = saved.where === 'keyring' ? `the OS credential store (the base URL in ${configPath(ctx.env)})` : configPath(ctx.env);
  ctx.term.success(`logged in to ${stored} (context ${context}${options.verify === false ? ', token not checked' : ''}); saved in ${where}`);
  // The one line of a machine with no store (a CI runner): the token is in the 0600 file, as before.
  if (saved.fallback) ctx.term.warn(`${saved.fallback}; the token is in the config file (mode 0600)`);
  // A stale SCPCTL_TOKEN would otherwise make every later command say to run login again.
  for (const warning of storedTokenWarnings(ctx.env)) ctx.term.warn(warning);
}

/** `logout`: forgets the token of the selected context; the base URL stays. */
export async function logout(ctx: CommandContext): Promise<void> {
  const context = ctx.contextName();
  const had = await removeToken(ctx.env, context);
  const from = had === 'keyring' ? ' (the OS credential store)' : '';
  ctx.term.info(had ? `✔ token removed from context ${context}${from}` : `no token was stored in context ${context}`);
  for (const variable of overridingTokenVariables(ctx.env)) ctx.term.warn(`${variable} is still set in this environment and will keep being used`);
}
