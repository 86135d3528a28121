// `scpctl doctor`: runs the table of checks (checks.ts), one line each, printed as each is done (or one JSON
// object at the end). Exit 0 when no check failed, else the exit code of the first failure's class. What the
// proxy variables mean is in api/proxy-env.ts, the TCP/TLS/CONNECT probes in api/probes.ts.
import { checksOutput } from '../../output/writers.js';
import type { CommandContext } from '../context.js';
import { CHECKS } from './checks.js';
import { ChecksFailed } from '../../errors.js';
import { Checks, formatCheck } from './results.js';
import type { DoctorState } from './state.js';

const DEFAULT_TIMEOUT_MS = 30_000;

export async function doctor(ctx: CommandContext, _options: unknown): Promise<void> {
  const output = checksOutput(ctx.term, ctx.outputFormat('checks'));
  const checks = new Checks(output.showsLines ? (result) => output.lines(() => [formatCheck(result, ctx.term.paint)]) : undefined);
  const state: DoctorState = { ctx, timeoutMs: DEFAULT_TIMEOUT_MS };
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
