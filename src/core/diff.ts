// The plan of `buckets sync`: what to add and what to delete so that the current list equals the desired one.
import { NameIndex } from './name-index.js';

export interface SyncPlan {
  /** Desired names missing from the current list, in the desired list's order. */
  add: string[];
  /** Current names missing from the desired list, in the current list's order. */
  delete: string[];
}

/**
 * Linear time, with one hash table: the desired names' index (pass the one the name reader built). Each
 * current name is looked up once and marks its desired position as present; what is left unmarked is to
 * add. Repeated names on either side count once.
 */
export function planSync(current: readonly string[], desired: readonly string[] | NameIndex): SyncPlan {
  const index = desired instanceof NameIndex ? desired : NameIndex.of(desired);
  const present = new Uint8Array(index.size);
  const del: string[] = [];
  let deleted: Set<string> | undefined;
  for (const name of current) {
    const position = index.indexOf(name);
    if (position !== -1) present[position] = 1;
    else if (!(deleted ??= new Set()).has(name)) {
      deleted.add(name);
      del.push(name);
    }
  }
  const add = index.names.filter((_, position) => present[position] === 0);
  return { add, delete: del };
}

export function isInSync(plan: SyncPlan): boolean {
  return plan.add.length === 0 && plan.delete.length === 0;
}
