// The plan of `buckets sync`: what to add and what to delete so that the current list equals the desired one.

export interface SyncPlan {
  /** Desired names missing from the current list, in the desired list's order. */
  add: string[];
  /** Current names missing from the desired list, in the current list's order. */
  delete: string[];
}

/**
 * Linear time: one Set per side (pass `desiredSet` when the caller already has one). Repeated names on
 * either side count once.
 */
export function planSync(current: readonly string[], desired: readonly string[], desiredSet: ReadonlySet<string> = new Set(desired)): SyncPlan {
  const currentSet = new Set(current);
  const add: string[] = [];
  const del: string[] = [];
  for (const name of desiredSet) if (!currentSet.has(name)) add.push(name);
  for (const name of currentSet) if (!desiredSet.has(name)) del.push(name);
  return { add, delete: del };
}

export function isInSync(plan: SyncPlan): boolean {
  return plan.add.length === 0 && plan.delete.length === 0;
}
