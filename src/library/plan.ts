// Allowlists as code (contract section 10), the part both faces share: read every profile's live list and
// diff it with its desired one, then one modifyBucketList per differing profile, the list read kept first.
// One failing profile never stops the others: its failure is its outcome. The CLI's apply prints, asks and
// saves plans around these; the library's plan() and apply() return them.
import { Interrupted, exitCodeOf, messageOf } from '../errors.js';
import type { ScpClient } from '../api/client.js';
import { planSync, isInSync } from '../core/diff.js';
import { fingerprintList } from '../core/fingerprint.js';
import type { ProfilePlan } from '../core/plan.js';
import { mapPool } from '../core/pool.js';
import { checkListSize, modifyBody, type WireBody } from '../core/wire.js';
import type { DesiredProfile } from './manifest-file.js';
import type { Session } from './session.js';
import { sendModify } from './guard.js';

/** Requests in flight at once; the rate limiter decides the pace, this only bounds open sockets. */
export const CONCURRENCY = 8;

/** A profile's plan and what its run needs beyond it: the body to send, the live list to keep. */
export interface Work extends ProfilePlan {
  body?: WireBody;
  live?: string[];
}

/** Runs a step against a profile, waiting out a pending change as the caller says (a line, a spinner, nothing). */
export type Ride = <T>(profile: string, action: () => Promise<T>) => Promise<T>;

/** Each desired profile's live list read and diffed; `tick` after each (the CLI's progress). */
export function planProfiles(client: ScpClient, desired: readonly DesiredProfile[], ride: Ride, tick: () => void = () => {}): Promise<Work[]> {
  return mapPool(desired, CONCURRENCY, async (want) => {
    const work = await stepOrFailure(async (): Promise<Work> => {
      // A desired list no list can hold fails before the diff makes a string of each of its names.
      const beyond = want.beyond ?? { bytes: 0, names: 0 };
      checkListSize(want.names.byteLength + beyond.bytes, want.names.size + beyond.names, 'list', want.beyond !== undefined);
      const live = (await ride(want.profile, () => client.viewList(want.profile))).names();
      const plan = planSync(live, want.names);
      // The body made (and checked: wire-safe names, the 8 MiB limit) now fails an oversized change before anything is sent.
      const body = isInSync(plan) ? undefined : modifyBody(plan.add, plan.delete);
      return { profile: want.profile, ...plan, fingerprint: fingerprintList(live), status: body ? 'planned' : 'unchanged', body, live };
    }, (error): Work => ({ profile: want.profile, add: [], delete: [], status: 'failed', error }));
    tick();
    return work;
  });
}

/** Runs one profile's step; its failure becomes its outcome (made by `failed`), except an interruption, which stops the run. */
export async function stepOrFailure<T>(step: () => Promise<T>, failed: (error: { message: string; exitCode: number }) => T): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof Interrupted) throw error;
    return failed({ message: messageOf(error), exitCode: exitCodeOf(error) });
  }
}

/** A profile as applyWork sends it: a body made now, or when it is sent (a saved plan's, read again from its file). */
type Sendable = Pick<ProfilePlan, 'profile' | 'status' | 'error'> & { live?: string[]; body?: Work['body'] | (() => WireBody) };

/**
 * One modify per planned profile, the list it read kept first; each outcome written into its item, its
 * body and list let go. `within` holds each send (a saved plan's memory budget).
 */
export async function applyWork(session: Session, client: ScpClient, work: Sendable[], ride: Ride, within = (_: number, send: () => Promise<void>) => send()): Promise<void> {
  await mapPool(work, CONCURRENCY, async (item, index) => {
    const { profile, body, live } = item;
    if (item.status !== 'planned' || body === undefined) return;
    const done = await stepOrFailure<Pick<Work, 'status' | 'error'>>(async () => {
      await within(index, () => {
        // A saved plan's body is made only within its budget.
        const made = typeof body === 'function' ? body() : body;
        return sendModify(session, client, { profile, operation: 'apply', live: live ?? [], body: made }, (action) => ride(profile, action));
      });
      return { status: 'applied' };
    }, (error) => ({ status: 'failed', error }));
    Object.assign(item, done, { live: undefined, body: undefined });
  });
}

/** The first failed profile as an error carrying its exit code (section 10: manifest order), or null. */
export function firstFailure(work: ReadonlyArray<Pick<ProfilePlan, 'profile' | 'status' | 'error'>>): { message: string; exitCode: number } | null {
  const first = work.find((w) => w.status === 'failed');
  if (!first) return null;
  const failed = work.filter((w) => w.status === 'failed').length;
  return {
    message: `${failed} of ${work.length} profile${work.length === 1 ? '' : 's'} failed; the first: ${first.profile} (exit ${first.error!.exitCode})`,
    exitCode: first.error!.exitCode,
  };
}
