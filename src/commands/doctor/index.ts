// `scpctl doctor`: runs its checks as data, one row a check in the order a request needs them, one line each,
// printed as each is done (or one JSON object at the end). `skip` says why a check cannot run given what
// earlier rows found (a skipped line), `applies` leaves a row out altogether, and `run` adds the check's
// line(s) and what it found to the state. Exit 0 when no check failed, else the exit code of the first
// failure's class. What the proxy variables mean is in api/proxy-env.ts, the TCP/TLS/CONNECT probes in api/probes.ts.
import { checksOutput } from '../../output/writers.js';
import type { CommandContext } from '../context.js';
import { ChecksFailed } from '../../errors.js';
import { DEFAULT_TIMEOUT_SECONDS } from '../../settings/resolve.js';
import { checkCaCertificates, checkClock, checkDns, checkTcp, checkTls, checkTokenAccepted } from './network-checks.js';
import { checkBaseUrl, checkConfigAndSettings, checkProxy, checkToken, checkTokenStore } from './local-checks.js';
import { Checks, formatCheck, type DoctorState } from './state.js';

export interface CheckRow {
  name: string;
  applies?: (state: DoctorState) => boolean;
  skip?: (state: DoctorState) => string | undefined;
  run: (state: DoctorState, checks: Checks) => void | Promise<void>;
}

const noRoute = (s: DoctorState): string | undefined => (s.route ? undefined : s.base ? 'the proxy setting is unusable' : 'needs a base URL');
const canHandshake = (s: DoctorState): boolean => Boolean(s.base && s.route && s.settings);
const noSettings = (s: DoctorState): string | undefined => (s.settings ? undefined : 'the settings could not be read');

export const CHECKS: readonly CheckRow[] = [
  { name: 'config file', run: checkConfigAndSettings },
  { name: 'base URL', skip: noSettings, run: checkBaseUrl },
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
  { name: 'token', skip: noSettings, run: checkToken },
  { name: 'token store', applies: (s) => Boolean(s.settings), run: checkTokenStore },
  {
    name: 'token accepted',
    skip: (s) => (!s.settings?.token ? 'needs a token' : s.secure ? undefined : 'the service cannot be reached'),
    run: checkTokenAccepted,
  },
  { name: 'clock', skip: (s) => (s.answer ? undefined : 'needs an answer from the service'), run: checkClock },
];

export async function doctor(ctx: CommandContext, _options: unknown): Promise<void> {
  const output = checksOutput(ctx.term, ctx.outputFormat('checks'));
  const checks = new Checks(output.showsLines ? (result) => output.lines(() => [formatCheck(result, ctx.term.paint)]) : undefined);
  const state: DoctorState = { ctx, timeoutMs: DEFAULT_TIMEOUT_SECONDS * 1000 };
  for (const row of CHECKS) {
    if (row.applies && !row.applies(state)) continue;
    const because = row.skip?.(state);
    if (because !== undefined) checks.skip(row.name, because);
    else await row.run(state, checks);
  }

  const failed = checks.results.filter((r) => r.status === 'fail');
  const skipped = checks.results.filter((r) => r.status === 'skip');
  await output.end({ ok: failed.length === 0, checks: checks.results });
  if (failed.length === 0) {
    ctx.term.success('all checks passed');
    return;
  }
  const message =
    `doctor: ${failed.length} check${failed.length === 1 ? '' : 's'} failed (first: ${failed[0]!.name})` +
    (skipped.length ? `, ${skipped.length} skipped` : '');
  throw new ChecksFailed(message, checks.firstFailureCode ?? 1);
}
