// The one way commands keep a list before changing it (replace, sync, apply, restore): into the history of
// the selected context, as many versions as `historyKeep` says. A history that cannot be written is said
// on stderr and does not stop the change: a read-only home folder in CI must not block a deploy. A history
// folder that is not scpctl's own (history/store.ts) does stop it, before anything is sent.
import type { HistoryStore, HISTORY_OPERATIONS } from '../history/store.js';
import type { ListJson } from '../core/wire.js';
import { ScpctlError } from '../errors.js';
import type { CommandContext } from './context.js';

/** The store, loaded only by the commands that keep or read a version (node:crypto and node:fs/promises are 3.5 ms of start-up). */
export async function historyStore(ctx: CommandContext): Promise<HistoryStore> {
  const settings = ctx.settings();
  const { HistoryStore, stateDir } = await import('../history/store.js');
  return new HistoryStore(stateDir(ctx.env), settings.context.value, settings.historyKeep.value, ctx.baseUrl().href, ctx.knownTokens());
}

/** Whether a command should read the list first only to keep it (`replace` does unless --no-history). */
export function historyWanted(ctx: CommandContext): boolean {
  return ctx.settings().historyKeep.value > 0;
}

/** Keeps the list read before a change: names, or the view answer's JSON text of them (HistoryStore.record). */
export async function keepBefore(ctx: CommandContext, profile: string, operation: (typeof HISTORY_OPERATIONS)[number], names: readonly string[] | ListJson): Promise<void> {
  const store = await historyStore(ctx);
  try {
    const entry = await store.record(profile, operation, names, new Date(ctx.clock.now()));
    if (entry) ctx.term.debug(`history: kept ${entry.count} names of ${profile} as ${entry.id}`);
  } catch (error) {
    // A folder that is not scpctl's own (a planted symlink, a shared folder) stops the change: exit 2.
    if (error instanceof ScpctlError) throw error;
    ctx.term.warn(`could not keep the list of ${profile} in the history (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); going on without it`);
  }
}
