// The one way commands keep a list before changing it (replace, sync, apply, restore): into the history of
// the selected context, as many versions as `historyKeep` says. A history that cannot be written is said
// on stderr and does not stop the change: a read-only home folder in CI must not block a deploy.
import { HistoryStore, stateDir } from '../history/store.js';
import type { CommandContext } from './context.js';

export function historyStore(ctx: CommandContext): HistoryStore {
  const settings = ctx.settings();
  return new HistoryStore(stateDir(ctx.env), settings.context.value, settings.historyKeep.value, ctx.baseUrl().href);
}

/** Whether a command should read the list first only to keep it (`replace` does unless --no-history). */
export function historyWanted(ctx: CommandContext): boolean {
  return ctx.settings().historyKeep.value > 0;
}

export async function keepBefore(ctx: CommandContext, profile: string, operation: string, names: readonly string[]): Promise<void> {
  const store = historyStore(ctx);
  try {
    const entry = await store.record(profile, operation, names);
    if (entry) ctx.term.debug(`history: kept ${names.length} names of ${profile} as ${entry.id}`);
  } catch (error) {
    ctx.term.warn(`could not keep the list of ${profile} in the history (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); going on without it`);
  }
}
