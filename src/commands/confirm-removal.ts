// The question before a change that removes names (contract section 7): at a terminal, what each profile
// loses (the count and the first names), then `Remove N names from PROFILE? [y/N]`; anything but y or yes
// is exit 1 with nothing sent. Not at a terminal (a pipe, CI, --json), or with --yes, nothing is asked.
import { NothingChanged } from '../errors.js';
import { visible } from '../core/service-text.js';
import { promptVisible } from '../output/prompt.js';
import type { CommandContext } from './context.js';

/** The names shown of each profile's removals; the count says how many more. */
const SHOWN = 20;

export interface Removal {
  profile: string;
  /** The names removed, or the first of them (at least SHOWN) when `count` says how many. */
  names: readonly string[];
  count?: number;
}

export interface AskOptions {
  /** `-y, --yes`: the answer is yes. */
  yes?: boolean;
  /** --json output: a script's, nobody to ask. */
  json: boolean;
}

export function asksFirst(ctx: CommandContext, how: AskOptions): boolean {
  return !how.yes && !how.json && ctx.term.asks;
}

const plural = (n: number): string => `${n} name${n === 1 ? '' : 's'}`;

/** Asks once for every profile in `removals` (apply: one question for the whole plan); a no throws NothingChanged. */
export async function confirmRemoval(ctx: CommandContext, removals: readonly Removal[], how: AskOptions): Promise<void> {
  const counted = removals.map(({ profile, names, count }) => ({ profile, names, count: count ?? names.length }));
  const removing = counted.filter((removal) => removal.count > 0);
  if (removing.length === 0 || !asksFirst(ctx, how)) return;
  for (const { profile, names, count } of removing) {
    ctx.term.ask(`${profile}: ${plural(count)} to remove`);
    for (const name of names.slice(0, SHOWN)) ctx.term.ask(`  - ${name}`);
    if (count > SHOWN) ctx.term.ask(`  … and ${count - SHOWN} more`);
  }
  const total = removing.reduce((sum, removal) => sum + removal.count, 0);
  const where = removing.length === 1 ? removing[0]!.profile : `${removing.length} profiles`;
  // The profile name is the service's or the user's text: shown, never obeyed, a token in it masked.
  await askYes(ctx, `Remove ${plural(total)} from ${where}? [y/N] `);
}

/**
 * --contexts: a change to several contexts asks once, naming them, before any is started (never a question
 * per context, nor several at once); the questions of each context's removals are not asked then.
 */
export async function confirmContexts(ctx: CommandContext, contexts: readonly string[], how: AskOptions): Promise<void> {
  // --json too: it is the one guard of a change to several tenants (their removals are not asked), and
  // someone is at the terminal; the question goes to stderr, so the JSON on stdout stays whole.
  if (contexts.length < 2 || !asksFirst(ctx, { ...how, json: false })) return;
  await askYes(ctx, `Change ${contexts.length} contexts (${contexts.join(', ')})? [y/N] `);
}

/** The question, shown, never obeyed (a token in it masked); anything but y or yes throws NothingChanged. */
async function askYes(ctx: CommandContext, text: string): Promise<void> {
  const question = ctx.term.redact(visible(text));
  const answer = await promptVisible(question, ctx.term.stdin, ctx.term.stderr, 'nothing changed');
  if (!/^\s*y(es)?\s*$/i.test(answer ?? '')) throw new NothingChanged('nothing changed');
}
