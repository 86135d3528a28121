// The emulator's shapes: its options, the running server's handle, the request log's records, and what the
// route modules see of the emulator (EmulatorCore).
import type { ServerResponse } from 'node:http';
import type { EmuEvent } from './events.js';
import type { FaultQueue } from './faults.js';
import type { Reply } from './http.js';
import type { ProfileSeed, ProfileStore } from './store.js';

export interface EmulatorOptions {
  /** Loopback only: 127.0.0.0/8, localhost or ::1. Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port (the command passes 8787). */
  port?: number;
  /** Default "emulator-token". */
  token?: string;
  /** The key the admin routes (/__emulator/...) require as `Authorization: Bearer KEY`; default random per run. */
  adminKey?: string;
  /** JSON file that keeps the profiles across restarts (written atomically). */
  statePath?: string;
  /** Profiles to create; when absent and there is no state file: demo and finance, empty. */
  profiles?: ProfileSeed[];
  /** Number of synthetic report events, default 2000. */
  events?: number;
  /** Seed of the synthetic events, default 1. */
  seed?: number;
  /** How long each successful mutation leaves the profile pending, default 0 (never). */
  pendingMs?: number;
  /** PEM certificate and key (contents, not paths): serve HTTPS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** At most `requests` API requests per `windowMs`; more get 429 with Retry-After. */
  rateLimit?: { requests: number; windowMs: number };
  /**
   * Answer API errors as the service does: HTTP 200 with `{"status":"error","errorCode":..,"errors":[..]}`,
   * but a rejected token with HTTP 403. Rate limiting (429), oversize bodies (413) and faults keep their status.
   */
  http200Errors?: boolean;
  /** Report pages hold at most this many records whatever `limit` says (the service often caps at 5000). */
  pageCap?: number;
  /** Unix seconds the synthetic events end at; default the start time. */
  now?: number;
  /** Where internal errors are reported; default standard error. */
  log?: (line: string) => void;
  /** What time it is, in milliseconds (pending changes, the rate limit, the request log); default the system's. */
  clock?: { now(): number };
}

export interface RunningEmulator {
  /** e.g. http://127.0.0.1:8787 (no trailing slash). */
  url: string;
  host: string;
  port: number;
  token: string;
  /** What the admin routes require (`Authorization: Bearer KEY`): random per run unless given. */
  adminKey: string;
  /** Unix seconds the synthetic events end at (timeperiod windows are relative to it). */
  now: number;
  /** Names of the profiles now held. */
  profileNames(): string[];
  /** Stops listening and destroys every open socket, hung ones included. */
  close(): Promise<void>;
  /** Settles when the server has closed, however that happened (close() or POST /__emulator/shutdown). */
  closed: Promise<void>;
}

/** One API request as the admin route /__emulator/requests shows it. */
export interface RequestRecord {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The `op` query parameter; absent when the request had none. */
  op?: string;
  /** The `name` query parameter; absent when the request had none. */
  name?: string;
  bodyBytes: number;
  body: string;
  /** The status answered; 0 while (or when) there is no answer, e.g. hang and reset faults. */
  status: number;
  /** Milliseconds since the epoch when the request arrived. */
  time: number;
}

/** What the routes use of the emulator: its state, its options, and how it answers. */
export interface EmulatorCore {
  readonly opts: EmulatorOptions & { token: string };
  readonly store: ProfileStore;
  readonly faults: FaultQueue;
  readonly events: EmuEvent[];
  /** Unix seconds the synthetic events end at. */
  readonly now: number;
  readonly tokenHash: Buffer;
  readonly pendingMs: number;
  /** Milliseconds since the epoch, by the emulator's clock. */
  clockNow(): number;
  /** The request log the admin route shows. */
  requests: RequestRecord[];
  /** Where internal errors are reported. */
  log(line: string): void;
  send(res: ServerResponse, record: RequestRecord | undefined, reply: Reply, delayMs?: number): void;
  close(): Promise<void>;
}
