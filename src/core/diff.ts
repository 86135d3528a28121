// The plan of `buckets sync`: what to add and what to delete so that the current list equals the desired one.
import { NameSet } from './name-bytes.js';

export interface SyncPlan {
  /** Desired names missing from the current list, in the desired list's order. */
  add: string[];
  /** Current names missing from the desired list, in the current list's order. */
  delete: string[];
}

/**
 * Linear time, with one hash table: the desired names' set (pass the one the name reader built). Each
 * current name is looked up once and marks its desired position as present; what is left unmarked is to
 * add. Repeated names on either side count once. Only the names of the plan become strings.
 */
export function planSync(current: readonly string[], desired: readonly string[] | NameSet): SyncPlan {
  const index = desired instanceof NameSet ? desired : NameSet.of(desired);
  const present = new Uint8Array(index.size);
  const del: string[] = [];
  let deleted: Set<string> | undefined;
  // The current names as one buffer, so that each is hashed from bytes: when every name is ASCII (the
  // buffer is as long as the text), the i-th name starts where the lengths before it say.
  const joined = current.join('\n');
  const bytes = Buffer.from(joined, 'utf8');
  const ascii = bytes.length === joined.length;
  let start = 0;
  for (const name of current) {
    const end = start + name.length;
    const position = ascii ? index.indexOf(bytes, start, end) : index.indexOfString(name);
    start = end + 1;
    if (position !== -1) present[position] = 1;
    else if (!(deleted ??= new Set()).has(name)) {
      deleted.add(name);
      del.push(name);
    }
  }
  const add: string[] = [];
  for (let position = 0; position < index.size; position++) if (present[position] === 0) add.push(index.name(position));
  return { add, delete: del };
}

export function isInSync(plan: SyncPlan): boolean {
  return plan.add.length === 0 && plan.delete.length === 0;
}
