// The history as commands reach it: the store of the selected context (CommandContext.historyStore), and
// whether a change reads the list first only to keep it. Keeping itself is the library's (library/session.ts).
import type { HistoryStore } from '../history/store.js';
import type { CommandContext } from './context.js';

/** The store of the selected context. */
export function historyStore(ctx: CommandContext): Promise<HistoryStore> {
  return ctx.historyStore();
}

/** Whether a command should read the list first only to keep it (`replace` does unless --no-history). */
export function historyWanted(ctx: CommandContext): boolean {
  return ctx.settings().historyKeep.value > 0;
}
