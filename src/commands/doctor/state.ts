// What doctor's checks have found so far: each check reads what it needs from here and adds what it found,
// so the order of the table in checks.ts is the only order there is.
import type { HttpResponse } from '../../api/transport.js';
import type { Route } from '../../api/probes.js';
import type { ResolvedSettings } from '../../settings/resolve.js';
import type { CommandContext } from '../context.js';

export interface SettingsState {
  resolved: ResolvedSettings;
  /** Reading the token (file) failed; everything else resolved. */
  tokenError?: unknown;
}

export interface Answer {
  headers: HttpResponse['headers'];
  /** Local time when the answer arrived. */
  receivedAt: number;
}

export interface DoctorState {
  readonly ctx: CommandContext;
  settings?: SettingsState;
  base?: URL;
  /** How TCP and TLS reach the service: directly, or through the proxy. */
  route?: Route;
  timeoutMs: number;
  dnsFailed?: boolean;
  reachable?: boolean;
  caFailed?: boolean;
  /** Requests can reach the service: TLS verified, or plain http on loopback. */
  secure?: boolean;
  token?: boolean;
  answer?: Answer;
}
