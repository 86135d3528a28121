// The guard of every change that can remove names (replace, delete, modify; contract section 13): read the
// list first, refuse a result that would be empty unless allowed, keep the list read in the history, then
// send the one request. A pending answer under a wait starts over from the read, so the guard and the
// version kept are always those of the list read just before the change. The CLI adds its question (review).
import { PendingError, ScpctlError, UsageError } from '../errors.js';
import { isSeparated, type LiveList, type RequestPlan } from '../core/diff.js';
import type { WireBody } from '../core/wire.js';
import type { ScpClient } from '../api/client.js';
import type { HistoryOperation, ListJson } from '../history/store.js';
import type { Session } from './session.js';

export interface GuardedChange<T> {
  profile: string;
  operation: 'replace' | 'delete' | 'modify';
  /** What the request does to the list read. */
  plan(live: LiveList): RequestPlan;
  /** Read first and refuse an emptied list (delete, modify), unless allowEmpty. */
  refuseEmpty: boolean;
  allowEmpty?: boolean;
  /** Keep the list read in the history. */
  keep: boolean;
  /** The read; `pending`: the request just met one, to be waited out before the list is read again. */
  read(pending?: PendingError): Promise<LiveList>;
  /** The one request; `ride`: wait out a pending change here (nothing was read first). */
  send(ride: boolean): Promise<T>;
  /** Whether a pending answer is waited out. */
  waiting: boolean;
  /** Runs on the plan of each list read, before anything is kept or sent (the CLI's notice and question); `judge` forces the plan to be made. */
  review?: { judge: boolean; run(plan: RequestPlan): Promise<void> };
  /** Where a line about the version kept goes (the CLI's --verbose). */
  debug?(line: string): void;
}

export async function sendGuarded<T>(session: Session, change: GuardedChange<T>): Promise<T> {
  const reads = change.refuseEmpty || change.keep || change.review?.judge;
  if (!reads) return change.send(true);
  let pending: PendingError | undefined;
  for (;;) {
    const live = await change.read(pending);
    // replace plans only to ask: a list read only to be kept is not diffed.
    if (change.refuseEmpty || change.review?.judge) {
      const planned = change.plan(live);
      if (change.refuseEmpty) refuseEmptied(change.operation, change.profile, planned.emptied, change.allowEmpty);
      await change.review?.run(planned);
    }
    if (change.keep) await keepList(session, change.profile, change.operation, live, change.debug);
    try {
      return await change.send(false);
    } catch (error) {
      if (!(error instanceof PendingError) || !change.waiting) throw error;
      pending = error;
    }
  }
}

/**
 * The one sender of a modifyBucketList (sync, restore, apply): the list read is kept first, then the one
 * request goes through `ride`, which waits out a pending change as the caller says.
 */
export async function sendModify(
  session: Session,
  client: ScpClient,
  change: { profile: string; operation: HistoryOperation; live: LiveList; body: WireBody },
  ride: <T>(action: () => Promise<T>) => Promise<T>,
  debug?: (line: string) => void,
): Promise<void> {
  await keepList(session, change.profile, change.operation, change.live, debug);
  await ride(() => client.bucketOp(change.profile, 'modifyBucketList', change.body));
}

/**
 * Keeps the list read before a change, saying so on `debug`. A history that cannot be written is a warning and
 * does not stop the change (a read-only home folder in CI must not block a deploy); a folder that is not
 * scpctl's own does, before anything is sent (history/store.ts).
 */
async function keepList(session: Session, profile: string, operation: HistoryOperation, live: LiveList, debug?: (line: string) => void) {
  const store = await session.history();
  if (store === undefined) return;
  try {
    const entry = await store.record(profile, operation, liveNames(live), new Date(session.clock.now()));
    if (entry) debug?.(`history: kept ${entry.count} names of ${profile} as ${entry.id}`);
  } catch (error) {
    if (error instanceof ScpctlError) throw error;
    session.warn(`could not keep the list of ${profile} in the history (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); going on without it`);
  }
}

/** A list that would remove every bucket (sync, restore, replace, delete, modify): exit 2, nothing sent, unless allowed (--allow-empty). */
export function refuseEmptyList(empty: boolean, allowEmpty: boolean | undefined, message: string): void {
  if (empty && !allowEmpty) throw new UsageError(message, { hint: 'Pass --allow-empty if that is what you want.' });
}

/** A delete or modify that would leave the list empty (a rehearsal too). */
export function refuseEmptied(operation: string, profile: string, emptied: boolean, allowEmpty: boolean | undefined): void {
  refuseEmptyList(emptied, allowEmpty, `refusing to ${operation} every bucket of ${profile}: the list would be empty; nothing was sent`);
}

/**
 * A live list as the history keeps it: an array's own JSON text where the answer has it (no string a name),
 * else the names.
 */
export function liveNames(live: LiveList): readonly string[] | ListJson {
  if (!isSeparated(live)) return live;
  const { text, start, end, count, separator } = live;
  // Plain names between `","` are the inside of the answer's array (SeparatedNames): the array is the text around them.
  return separator === '","' ? { json: text.slice(start - 2, end + 2), count } : text.slice(start, end).split(separator);
}

/** `action`, whose first try is the pending answer the request just met: the wait's back-off comes before the read. */
export function afterPending<T>(pending: PendingError | undefined, action: () => Promise<T>): () => Promise<T> {
  let met = pending;
  return () => {
    if (met === undefined) return action();
    const error = met;
    met = undefined;
    return Promise.reject(error);
  };
}
