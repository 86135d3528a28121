// What the library's calls share once connect() has resolved the tenant: the clients (one paced at the
// client-side rate, for plan and apply), every token to mask, the history, the time and the abort signal.
// The CLI makes one from its CommandContext, so that a command and a library call run the same code.
import type { ScpClient } from '../api/client.js';
import type { Clock } from '../core/clock.js';
import type { ListJson } from '../core/wire.js';
import { ScpctlError } from '../errors.js';
import type { HistoryOperation, HistoryStore } from '../history/store.js';

export interface Session {
  client(): Promise<ScpClient>;
  /** A client whose every request keeps to the client-side rate (24 in 5 s unless SCPCTL_RATE says): plan and apply. */
  pacedClient(): Promise<ScpClient>;
  /** Every token known: masked in every message, refused as a bucket name. */
  tokens(): readonly string[];
  /** The history of lists kept before a change; undefined keeps none. */
  history(): Promise<HistoryStore | undefined>;
  /** What the CLI says on stderr (a history that cannot be written); the library hands it to onWarning, or drops it. */
  warn(message: string): void;
  readonly clock: Clock;
  readonly signal?: AbortSignal;
}

/**
 * Keeps the list read before a change. A history that cannot be written is a warning and does not stop the
 * change (a read-only home folder in CI must not block a deploy); a folder that is not scpctl's own does,
 * before anything is sent (history/store.ts).
 */
export async function keepList(session: Session, profile: string, operation: HistoryOperation, names: readonly string[] | ListJson): Promise<string | undefined> {
  const store = await session.history();
  if (store === undefined) return undefined;
  try {
    const entry = await store.record(profile, operation, names, new Date(session.clock.now()));
    return entry && `history: kept ${entry.count} names of ${profile} as ${entry.id}`;
  } catch (error) {
    if (error instanceof ScpctlError) throw error;
    session.warn(`could not keep the list of ${profile} in the history (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); going on without it`);
    return undefined;
  }
}
