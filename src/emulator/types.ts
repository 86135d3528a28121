// The emulator's shapes: its options, the request log's records, and what the routes see of the emulator
// (EmulatorCore).
import type { EmuEvent } from './events.js';
import type { FaultQueue } from './faults.js';
import type { ProfileSeed, ProfileStore } from './store.js';

/** As `scpctl emulator` reads them from its flags (commands/emulator/index.ts buildEmulatorOptions). */
export interface EmulatorOptions {
  /** Loopback only: 127.0.0.0/8, localhost or ::1. */
  host: string;
  /** 0: a free port. */
  port: number;
  token: string;
  /** JSON file that keeps the profiles across restarts (written atomically). */
  statePath?: string;
  /** Profiles to create; when absent and there is no state file: demo and finance, empty. */
  profiles?: ProfileSeed[];
  /** Synthetic report events, and their seed. */
  events: number;
  seed: number;
  /** How long each successful mutation leaves the profile pending; 0: never. */
  pendingMs: number;
  /** PEM certificate and key (contents, not paths): serve HTTPS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** At most `requests` API requests per `windowMs`; more get 429 with Retry-After. */
  rateLimit?: { requests: number; windowMs: number };
  /** API errors as the service answers them (http.ts errorReply). */
  http200Errors: boolean;
  /** Report pages hold at most this many records whatever `limit` says (the service often caps at 5000). */
  pageCap?: number;
  /** Where internal errors are reported (the command hands its stderr); default nowhere. */
  log?: (line: string) => void;
  /** What time it is, in milliseconds (pending changes, the rate limit, the request log); default the system's. */
  clock?: { now(): number };
}

/** One API request as the admin route /__emulator/requests shows it. */
export interface RequestRecord {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The `op` and `name` query parameters; absent when the request had none. */
  op?: string;
  name?: string;
  bodyBytes: number;
  body: string;
  /** The status answered; 0 while (or when) there is no answer, e.g. hang and reset faults. */
  status: number;
  /** Milliseconds since the epoch when the request arrived. */
  time: number;
}

/** What the routes use of the emulator. */
export interface EmulatorCore {
  readonly opts: EmulatorOptions;
  readonly store: ProfileStore;
  readonly faults: FaultQueue;
  readonly events: EmuEvent[];
  /** Unix seconds the synthetic events end at. */
  readonly now: number;
  /** Milliseconds since the epoch, by the emulator's clock. */
  clockNow(): number;
  requests: RequestRecord[];
  close(): Promise<void>;
}
