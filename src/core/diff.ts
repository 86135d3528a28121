// The plan of `buckets sync`: what to add and what to delete so that the current list equals the desired one.

export interface SyncPlan {
  /** Desired names missing from the current list, in the desired list's order. */
  add: string[];
  /** Current names missing from the desired list, in the current list's order. */
  delete: string[];
}

/**
 * Linear time, with one hash table: the desired names' positions (pass `desiredPositions` when the caller
 * already has them, as the name reader does). Each current name is looked up once and marks its desired
 * position as present; what is left unmarked is to add. Repeated names on either side count once.
 */
export function planSync(
  current: readonly string[],
  desired: readonly string[],
  desiredPositions: ReadonlyMap<string, number> = positionsOf(desired),
): SyncPlan {
  const present = new Uint8Array(desired.length);
  const del: string[] = [];
  let deleted: Set<string> | undefined;
  for (const name of current) {
    const position = desiredPositions.get(name);
    if (position !== undefined) present[position] = 1;
    else if (!(deleted ??= new Set()).has(name)) {
      deleted.add(name);
      del.push(name);
    }
  }
  const add: string[] = [];
  // A repeated desired name is left unmarked at its later positions; only its first position counts.
  const repeats = desiredPositions.size !== desired.length;
  for (let i = 0; i < desired.length; i++) {
    if (present[i] === 0 && (!repeats || desiredPositions.get(desired[i]!) === i)) add.push(desired[i]!);
  }
  return { add, delete: del };
}

/** First position of each name (a repeated desired name counts once). */
function positionsOf(names: readonly string[]): Map<string, number> {
  const positions = new Map<string, number>();
  names.forEach((name, i) => {
    if (!positions.has(name)) positions.set(name, i);
  });
  return positions;
}

export function isInSync(plan: SyncPlan): boolean {
  return plan.add.length === 0 && plan.delete.length === 0;
}
