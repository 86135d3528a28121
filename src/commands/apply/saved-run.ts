// `apply --plan`: each profile of a saved plan checked against its live list and sent, its names read again
// from the plan file (saved-plan-file.ts) for each step, within a memory budget of one large profile. The
// library's steps (library/plan.ts) run it: its concurrency, its failure of one profile, its one sender of a modify.
import { PlanConflictError } from '../../errors.js';
import { fingerprintList } from '../../core/fingerprint.js';
import { MemoryBudget, mapPool } from '../../core/pool.js';
import { WireBody, checkListSize } from '../../core/wire.js';
import type { ScpClient } from '../../api/client.js';
import { CONCURRENCY, applyWork, stepOrFailure, type Ride } from '../../library/plan.js';
import type { Session } from '../../library/session.js';
import type { CommandContext } from '../context.js';
import type { NameGroups, ProfileOutline } from '../../core/plan.js';
import type { SavedPlanFile } from './saved-plan-file.js';

/**
 * Profiles of a saved plan whose entries (the plan file's bytes of them) add up to this much are read, viewed
 * and sent at once; a larger one alone. Several small profiles go together; the live lists and bodies of the
 * large ones (a profile of 8 MiB of names costs some 60 MB while its live list is compared) one at a time.
 */
const BUDGET_BYTES = 8 * 1024 * 1024;

/** A profile of a saved plan in the run: its outline, its names in the file. */
export interface SavedWork extends ProfileOutline {
  /** The list read, kept in the history before the change (planned profiles only). */
  live?: string[];
  /** Its body, made (and checked) from the plan's names when it is sent. */
  body?(): WireBody;
}

/** A saved plan: each profile's live list checked against the plan's fingerprint (or found already applied). */
export function planSaved(ctx: CommandContext, client: ScpClient, saved: SavedPlanFile, ride: Ride, tick: () => void): Promise<SavedWork[]> {
  const budget = new MemoryBudget(BUDGET_BYTES);
  return mapPool(saved.profiles, CONCURRENCY, async (planned, index) => {
    const { profile, fingerprint, added, deleted, entryBytes } = planned;
    const asPlanned: SavedWork = { profile, status: 'planned', added, deleted, names: () => saved.names(index) };
    // A failed profile keeps its planned changes in the report: they are what was not applied.
    const work = await stepOrFailure(() => budget.use(entryBytes, async (): Promise<SavedWork> => {
      const live = (await ride(profile, () => client.viewList(profile))).names();
      if (fingerprintList(live) !== fingerprint) {
        if (!isPlanResult(live, { fingerprint, ...saved.names(index) })) {
          throw new PlanConflictError(`the live list of ${profile} changed since the plan was made; left alone`);
        }
        ctx.term.info(`${profile}: already applied (the live list already equals what the plan makes of it)`);
        return { ...asPlanned, added: 0, deleted: 0, names: () => ({ add: [], delete: [] }), status: 'unchanged' };
      }
      if (added === 0 && deleted === 0) return { ...asPlanned, status: 'unchanged' };
      // What modifyBody would refuse when it is made, refused now: the profile fails before anything is printed.
      checkListSize(planned.wireBytes.add, added, 'addList');
      checkListSize(planned.wireBytes.delete, deleted, 'deleteList');
      return { ...asPlanned, status: 'planned', live, body: () => savedBody(saved, index) };
    }), (error): SavedWork => ({ ...asPlanned, status: 'failed', error }));
    tick();
    return work;
  });
}

/** One modify per planned profile through the library's one sender, within the budget; a failure is that profile's outcome. */
export async function applySaved(session: Session, client: ScpClient, work: SavedWork[], saved: SavedPlanFile, ride: Ride): Promise<void> {
  const budget = new MemoryBudget(BUDGET_BYTES);
  await applyWork(session, client, work, ride, (index, send) => budget.use(saved.profiles[index]!.entryBytes, send));
}

/**
 * The body of profile `index`: made now from the plan's names, a group at a time, as the bytes
 * JSON.stringify would make of `{addList, deleteList}` (no string of a whole list, nor of the body). Its
 * names are those checked sendable when the plan was read (their digests hold them so), its lists' sizes
 * those planSaved checked.
 */
function savedBody(saved: SavedPlanFile, index: number): WireBody {
  const { added, deleted } = saved.profiles[index]!;
  const names = saved.names(index);
  const parts: Buffer[] = [];
  for (const [key, groups, count] of [['addList', names.add, added], ['deleteList', names.delete, deleted]] as const) {
    if (count === 0) continue;
    parts.push(Buffer.from(`${parts.length === 0 ? '{' : ','}"${key}":"`));
    let comma = '';
    for (const group of groups) {
      parts.push(Buffer.from(`${comma}${JSON.stringify(group.join(',')).slice(1, -1)}`));
      comma = ',';
    }
    parts.push(Buffer.from('"'));
  }
  parts.push(Buffer.from(parts.length === 0 ? '{}' : '}'));
  return new WireBody(parts);
}

/**
 * Whether `live` is what applying `planned` to the list it was made from gives: every added name there, no
 * deleted one, and the list before (live without the added names, with the deleted ones) the one the plan
 * was made from. A plan run again after it succeeded is then "already applied", not a conflict (exit 9).
 * The plan's names come a group at a time: only the deleted ones are held (to make the list before).
 */
export function isPlanResult(live: readonly string[], planned: { fingerprint: string } & NameGroups): boolean {
  const names = new Set(live);
  const deleted: string[] = [];
  for (const group of planned.delete) {
    for (const name of group) {
      if (names.has(name)) return false;
      deleted.push(name);
    }
  }
  for (const group of planned.add) if (!group.every((name) => names.has(name))) return false;
  // Only then taken out (a name added twice is there both times it is looked for): what is left is the list before.
  for (const group of planned.add) for (const name of group) names.delete(name);
  return fingerprintList([...names, ...deleted]) === planned.fingerprint;
}
