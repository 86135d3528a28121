// A profile the service says does not exist (exit 4) gets a hint naming the closest profiles this context
// has seen (contract section 12): the profiles-seen file (settings/seen-profiles.ts) remembers each name a
// bucket command succeeded on, per context.
import { NotFoundError } from '../errors.js';
import { closestNames } from '../core/closest.js';
import { seenProfiles } from '../settings/seen-profiles.js';
import type { CommandContext } from './context.js';

/** Puts the suggestion in front of the error's hint, when the error names a profile and one seen is close. */
export function suggestSeenProfile(error: unknown, ctx: CommandContext): void {
  if (!(error instanceof NotFoundError) || error.profile === undefined) return;
  let context: string;
  try {
    context = ctx.contextName();
  } catch {
    return; // a broken config store costs only the suggestion
  }
  const names = closestNames(error.profile, seenProfiles(context, ctx.env));
  if (names.length === 0) return;
  const quoted = names.map((name) => `"${name}"`);
  const choice = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
  error.hint = `Did you mean ${choice}? (seen before in context ${context})${error.hint ? ` ${error.hint}` : ''}`;
}
