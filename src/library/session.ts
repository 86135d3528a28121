// What the library's calls share once connect() has resolved the tenant: the clients (one paced at the
// client-side rate, for plan and apply), every token to mask, the history, the time and the abort signal.
// The CLI makes one from its CommandContext, so that a command and a library call run the same code.
import type { ScpClient } from '../api/client.js';
import type { Clock } from '../core/clock.js';
import type { HistoryStore } from '../history/store.js';

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
