// The plan of `buckets sync`: what to add and what to delete so that the current list equals the desired one.
import { NameSet } from './name-set.js';

/**
 * A current list as the view answer's own text holds it, when every name is plain (api/plain-list.ts) and
 * ASCII: `count` names in text[start, end), between `separator`s (`","` inside an array, `,` in one string).
 * Between `","`, text[start - 2, end + 2] is the array itself, `["…"]`: its JSON as the answer wrote it.
 * Sync diffs it where it lies: no string, no line, no copy a name.
 */
export interface SeparatedNames {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly count: number;
  readonly separator: '","' | ',';
}

/** A current list: its names, or the answer's text of them. */
export type LiveList = readonly string[] | SeparatedNames;

export interface SyncPlan {
  /** Desired names missing from the current list, in the desired list's order. */
  add: string[];
  /** Current names missing from the desired list, in the current list's order. */
  delete: string[];
}

/**
 * Linear time, with one hash table: the desired names' set (pass the one the name reader built). Each
 * current name is looked up once and marks its desired position as present; what is left unmarked is to
 * add. Repeated names on either side count once. Only the names of the plan become strings. Each current
 * name is first compared with the desired name after the last one found: lists that run side by side
 * (docs/performance.md) spare the hash table for all but the changed names.
 */
export function planSync(current: LiveList, desired: readonly string[] | NameSet): SyncPlan {
  const index = desired instanceof NameSet ? desired : NameSet.of(desired);
  const present = new Uint8Array(index.size);
  const del: string[] = [];
  let deleted: Set<string> | undefined;
  const missing = (name: string): void => {
    if (!(deleted ??= new Set()).has(name)) {
      deleted.add(name);
      del.push(name);
    }
  };
  // Each pass is a function of its own: V8 optimises a long loop while it runs, and code optimised inside
  // one function for its first loop went back to the interpreter on reaching the second (--trace-deopt).
  if (isSeparated(current)) markSeparated(current, index, present, missing);
  else markNames(current, index, present, missing);
  return { add: unmarked(index, present), delete: del };
}

/** The answer's text of the names: each looked up where it lies; only the names to delete become strings. */
function markSeparated(current: SeparatedNames, index: NameSet, present: Uint8Array, missing: (name: string) => void): void {
  // The names are ASCII (SeparatedNames), so their text encoded whole is their bytes.
  const bytes = Buffer.from(current.text.slice(current.start, current.end), 'latin1');
  const limit = bytes.length;
  const { separator } = current;
  const stop = separator.charCodeAt(0);
  let next = 0;
  for (let start = 0; start < limit; ) {
    let end = bytes.indexOf(stop, start);
    if (end === -1) end = limit;
    const position = index.indexOf(bytes, start, end, next);
    if (position !== -1) {
      present[position] = 1;
      next = position + 1;
    } else missing(bytes.toString('latin1', start, end));
    start = end + separator.length;
  }
}

/** The names, each looked up by its bytes after the desired name after the last one found (planSync). */
function markNames(current: readonly string[], index: NameSet, present: Uint8Array, missing: (name: string) => void): void {
  let next = 0;
  for (const name of current) {
    const position = index.indexOfString(name, next);
    if (position !== -1) {
      present[position] = 1;
      next = position + 1;
    } else missing(name);
  }
}

function unmarked(index: NameSet, present: Uint8Array): string[] {
  const add: string[] = [];
  for (let position = 0; position < index.size; position++) if (present[position] === 0) add.push(index.name(position));
  return add;
}

export function countNames(current: LiveList): number {
  return isSeparated(current) ? current.count : current.length;
}

export function isSeparated(current: LiveList): current is SeparatedNames {
  return !Array.isArray(current);
}

export function isInSync(plan: SyncPlan): boolean {
  return plan.add.length === 0 && plan.delete.length === 0;
}

/**
 * What a request that names the names to delete (`delete`, `modify`) does to a live list: the plan (only the
 * names it really removes or adds), the names to delete the list does not hold, and whether nothing is left.
 * The service deletes, then adds: a name both deleted and added that the list holds stays.
 */
export interface RequestPlan {
  plan: SyncPlan;
  absent: string[];
  emptied: boolean;
}

export function planDeletion(current: LiveList, deleting: NameSet, adding?: NameSet): RequestPlan {
  // Against the names to delete, "to add" is what the list lacks, "to delete" what survives.
  const { add: absent, delete: survivors } = planSync(current, deleting);
  const missing = new Set(absent);
  const removed = deleting.names().filter((name) => !missing.has(name) && (adding === undefined || adding.indexOfString(name) < 0));
  const added = adding === undefined || adding.size === 0 ? [] : planSync(current, adding).add;
  const emptied = countNames(current) > 0 && survivors.length === 0 && (adding === undefined || adding.size === 0);
  return { plan: { add: added, delete: removed }, absent, emptied };
}
