// One profile's entry of a saved plan: its fields (profile, fingerprint) parsed with its lists left empty,
// and its names cut into groups of about GROUP_BYTES, each parsed when it is reached. A profile adding 8 MiB
// of names is then never 400,000 strings held at once: each group's become garbage before the next is made,
// young enough to cost the collector nothing (contract section 13).
import { PlanScanner, type ByteRange } from './plan-scan.js';

/** About this many bytes of names a group: some 10,000 names, parsed at once. */
const GROUP_BYTES = 256 * 1024;
/** An entry's fields besides its names: a profile's name and a fingerprint. */
const FIELD_BYTES = 256 * 1024;

export interface EntryGroups {
  add: ByteRange[];
  delete: ByteRange[];
  /** How many names each list holds: the seal covers the count before the names (saved-plan.ts). */
  counts: { add: number; delete: number };
}

/**
 * A scanner of one entry's bytes, fed in order from file offset `offset`: its `finish` gives the fields
 * ("add" and "delete" read as `[]` when they are lists), and `groups` fills as it reads.
 */
export function entryScanner(offset: number): { scanner: PlanScanner; groups: EntryGroups } {
  const groups: EntryGroups = { add: [], delete: [], counts: { add: 0, delete: 0 } };
  const scanner = new PlanScanner({
    lists: ['add', 'delete'],
    headBytes: FIELD_BYTES,
    itemBytes: Infinity,
    maxItems: Infinity,
    onItem: (list, start, end) => {
      const key = list as 'add' | 'delete';
      const ranges = groups[key];
      groups.counts[key]++;
      const last = ranges.at(-1);
      // Names lie one after another: a group runs from its first to its last, the commas between them included.
      if (last !== undefined && offset + end - last.start <= GROUP_BYTES) last.end = offset + end;
      else ranges.push({ start: offset + start, end: offset + end });
    },
  });
  return { scanner, groups };
}

/** A group's names (values not yet checked); a SyntaxError if the bytes are not JSON. */
export function parseGroup(bytes: Buffer): unknown[] {
  return JSON.parse(`[${bytes.toString('utf8')}]`) as unknown[];
}
