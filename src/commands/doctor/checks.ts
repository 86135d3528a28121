// Doctor's checks as data: one row a check, in the order a request needs them. `skip` says why a check
// cannot run given what earlier rows found (a skipped line), `applies` leaves a row out altogether, and `run`
// adds the check's line(s) and what it found to the state. The human and JSON outputs are both read off the
// results of this table.
import { checkCaCertificates, checkClock, checkDns, checkTcp, checkTls, checkTokenAccepted } from './network-checks.js';
import { checkBaseUrl, checkConfigAndSettings, checkProxy, checkToken } from './local-checks.js';
import { checkTokenStore } from './token-store-check.js';
import type { Checks } from './results.js';
import type { DoctorState } from './state.js';

export interface CheckRow {
  name: string;
  applies?: (state: DoctorState) => boolean;
  skip?: (state: DoctorState) => string | undefined;
  run: (state: DoctorState, checks: Checks) => void | Promise<void>;
}

const noRoute = (s: DoctorState): string | undefined => (s.route ? undefined : s.base ? 'the proxy setting is unusable' : 'needs a base URL');
const canHandshake = (s: DoctorState): boolean => Boolean(s.base && s.route && s.settings);

export const CHECKS: readonly CheckRow[] = [
  { name: 'config file', run: checkConfigAndSettings },
  { name: 'base URL', skip: (s) => (s.settings ? undefined : 'the settings could not be read'), run: checkBaseUrl },
  { name: 'proxy', skip: (s) => (s.base ? undefined : 'needs a base URL'), run: checkProxy },
  { name: 'DNS', skip: noRoute, run: checkDns },
  { name: 'TCP', skip: (s) => noRoute(s) ?? (s.dnsFailed ? 'DNS failed' : undefined), run: checkTcp },
  { name: 'CA certificates', applies: (s) => canHandshake(s) && s.base!.protocol === 'https:', run: checkCaCertificates },
  {
    name: 'TLS',
    skip: (s) => {
      if (!canHandshake(s)) return noRoute(s);
      if (s.base!.protocol !== 'https:') return undefined;
      return s.caFailed ? 'the CA file is unusable' : s.reachable ? undefined : 'no TCP connection';
    },
    run: checkTls,
  },
  { name: 'token', skip: (s) => (s.settings ? undefined : 'the settings could not be read'), run: checkToken },
  { name: 'token store', applies: (s) => Boolean(s.settings), run: checkTokenStore },
  {
    name: 'token accepted',
    skip: (s) => (s.token && s.secure ? undefined : s.token ? 'the service cannot be reached' : 'needs a token'),
    run: checkTokenAccepted,
  },
  { name: 'clock', skip: (s) => (s.answer ? undefined : 'needs an answer from the service'), run: checkClock },
];
