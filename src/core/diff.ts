// The plan of `buckets sync`: what to add and what to delete so that the current list equals the desired one.
import { NameSet } from './name-set.js';

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
 *
 * The service keeps a list in the order it was sent, so after a replace or a sync from the same file the
 * two lists run side by side: each current name is looked up with the position after the last one found as
 * the guess (NameSet.endOfNameAt, or indexOf for names given as strings), which spares the hash table for
 * all but the changed names; in any other order it costs one failed comparison a name.
 */
export function planSync(current: readonly string[] | Buffer, desired: readonly string[] | NameSet): SyncPlan {
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
  if (Buffer.isBuffer(current)) markLines(current, index, present, missing);
  else markNames(current, index, present, missing);
  return { add: unmarked(index, present), delete: del };
}

/** One name a line, as bytes: looked up where they lie; only the names to delete become strings. */
function markLines(current: Buffer, index: NameSet, present: Uint8Array, missing: (name: string) => void): void {
  const length = current.length;
  let next = 0;
  for (let start = 0; start < length; ) {
    // The name after the last one found is tried first, in place: when both lists are in the same order
    // (the usual case) the line's end is then known without reading the line twice.
    let end = index.endOfNameAt(next, current, start, 0x0a);
    let position = next;
    if (end === -1) {
      end = start;
      while (end < length && current[end] !== 0x0a) end++;
      position = index.indexOf(current, start, end);
    }
    if (position !== -1) {
      present[position] = 1;
      next = position + 1;
    } else missing(current.toString('utf8', start, end));
    start = end + 1;
  }
}

/**
 * The names as one buffer, so that each is hashed from bytes: when every name is ASCII (the buffer is as
 * long as the text), the i-th name starts where the lengths before it say.
 */
function markNames(current: readonly string[], index: NameSet, present: Uint8Array, missing: (name: string) => void): void {
  const joined = current.join('\n');
  const bytes = Buffer.from(joined, 'utf8');
  const ascii = bytes.length === joined.length;
  let start = 0;
  let next = 0;
  for (const name of current) {
    const end = start + name.length;
    const position = ascii ? index.indexOf(bytes, start, end, next) : index.indexOfString(name);
    start = end + 1;
    if (position !== -1) {
      present[position] = 1;
      next = position + 1;
    } else missing(name);
  }
}

/** The desired names no current name marked, in the desired order. */
function unmarked(index: NameSet, present: Uint8Array): string[] {
  const add: string[] = [];
  for (let position = 0; position < index.size; position++) if (present[position] === 0) add.push(index.name(position));
  return add;
}

/** How many names a current list holds (one a line when it is bytes). */
export function countNames(current: readonly string[] | Buffer): number {
  if (!Buffer.isBuffer(current)) return current.length;
  if (current.length === 0) return 0;
  let lines = 1;
  for (let at = current.indexOf(0x0a); at !== -1; at = current.indexOf(0x0a, at + 1)) lines++;
  return lines;
}

export function isInSync(plan: SyncPlan): boolean {
  return plan.add.length === 0 && plan.delete.length === 0;
}
