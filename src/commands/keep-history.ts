// The history as commands reach it: the store of the selected context (CommandContext.historyStore).
// Keeping a version, and whether a change reads the list first to keep it, are the library's
// (library/session.ts, library/buckets.ts).
import type { HistoryStore } from '../history/store.js';
import type { CommandContext } from './context.js';

/** The store of the selected context. */
export function historyStore(ctx: CommandContext): Promise<HistoryStore> {
  return ctx.historyStore();
}
