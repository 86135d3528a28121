// The emulator's storage constraint profiles: bucket lists, pending changes, and the optional
// state file that lets them survive restarts.

import { readPlainFile } from '../files/plain-file.js';
import { writeFileAtomically } from '../files/atomic-write.js';

export const DEFAULT_PROFILES: readonly string[] = ['demo', 'finance'];

export interface ProfileSeed {
  name: string;
  buckets?: string[];
}

export interface ProfileSnapshot {
  name: string;
  buckets: string[];
  /** Milliseconds since the epoch until which a change is pending; 0 when none ever was. */
  pendingUntil: number;
}

interface Profile {
  // The array keeps the order; the set makes membership tests O(1) so that lists of
  // hundreds of thousands of names are handled in linear time.
  buckets: string[];
  set: Set<string>;
  pendingUntil: number;
}

interface StateFile {
  version: 1;
  profiles: Record<string, { buckets: string[]; pendingUntil: number }>;
}

/** Splits a wire list on commas; surrounding whitespace and empty entries are ignored. */
export function splitList(list: string): string[] {
  const out: string[] = [];
  for (const part of list.split(',')) {
    const name = part.trim();
    if (name !== '') out.push(name);
  }
  return out;
}

function makeProfile(names: Iterable<string>, pendingUntil = 0): Profile {
  // One insertion a name (a Set keeps the first of repeats, in order): on a 400,000-name replace, asking
  // has() before add() doubled the emulator's busiest 200 ms.
  const set = new Set<string>(names);
  return { buckets: [...set], set, pendingUntil };
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

export class ProfileStore {
  private readonly profiles = new Map<string, Profile>();

  private constructor(private readonly statePath: string | undefined) {}

  /**
   * With a state file that exists, its profiles win; `seeds` only add profiles it lacks, so that
   * re-running the same command line does not undo changes made through the API.
   * Without one, the seeds (or, when none are given, the empty profiles demo and finance) are used
   * and the state file, if named, is written at once.
   */
  static open(opts: { statePath?: string; seeds?: readonly ProfileSeed[] } = {}): ProfileStore {
    const store = new ProfileStore(opts.statePath);
    const loaded = opts.statePath !== undefined && store.load(opts.statePath);
    const seeds: readonly ProfileSeed[] = opts.seeds ?? (loaded ? [] : DEFAULT_PROFILES.map((name) => ({ name })));
    let added = false;
    for (const seed of seeds) {
      if (!store.profiles.has(seed.name)) {
        store.profiles.set(seed.name, makeProfile(seed.buckets ?? []));
        added = true;
      }
    }
    if (!loaded || added) store.save();
    return store;
  }

  private load(path: string): boolean {
    let text: string;
    try {
      // Never a blocking open: a FIFO named as the state file would hold the emulator's start and its signals.
      const bytes = readPlainFile(path);
      if (bytes === undefined) return false;
      text = bytes.toString('utf8');
    } catch (err) {
      throw new Error(`cannot read state file ${path}: ${(err as Error).message}`);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new Error(`state file ${path} is not valid JSON: ${(err as Error).message}`);
    }
    const profiles = (data as Partial<StateFile> | null)?.profiles;
    if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles)) {
      throw new Error(`state file ${path} has no "profiles" object`);
    }
    for (const [name, p] of Object.entries(profiles as Record<string, unknown>)) {
      const rec = p as { buckets?: unknown; pendingUntil?: unknown } | null;
      if (!rec || !isStringArray(rec.buckets)) {
        throw new Error(`state file ${path}: profile '${name}' needs a "buckets" array of strings`);
      }
      const pendingUntil = typeof rec.pendingUntil === 'number' ? rec.pendingUntil : 0;
      this.profiles.set(name, makeProfile(rec.buckets, pendingUntil));
    }
    return true;
  }

  /** Writes the state file, if any, atomically: a temporary file beside it, then a rename. */
  save(): void {
    if (this.statePath === undefined) return;
    const state: StateFile = {
      version: 1,
      // fromEntries defines own properties, so even a profile named "__proto__" round-trips.
      profiles: Object.fromEntries(
        [...this.profiles].map(([name, p]) => [name, { buckets: p.buckets, pendingUntil: p.pendingUntil }]),
      ),
    };
    writeFileAtomically(this.statePath, JSON.stringify(state) + '\n');
  }

  /** Whether changes are written to a state file (and so may fail to be). */
  get persistent(): boolean {
    return this.statePath !== undefined;
  }

  has(name: string): boolean {
    return this.profiles.has(name);
  }

  names(): string[] {
    return [...this.profiles.keys()];
  }

  snapshot(name: string): ProfileSnapshot | undefined {
    const p = this.profiles.get(name);
    return p && { name, buckets: [...p.buckets], pendingUntil: p.pendingUntil };
  }

  isPending(name: string, nowMs: number): boolean {
    const p = this.profiles.get(name);
    return p !== undefined && p.pendingUntil > nowMs;
  }

  /** The live list; callers must not change it. */
  view(name: string): readonly string[] {
    return this.get(name).buckets;
  }

  /** Adds names not already present, after the existing ones. Returns the new size. */
  append(name: string, names: readonly string[]): number {
    const p = this.get(name);
    for (const n of names) {
      if (!p.set.has(n)) {
        p.set.add(n);
        p.buckets.push(n);
      }
    }
    return p.buckets.length;
  }

  /** Removes names. Returns the new size. */
  remove(name: string, names: readonly string[]): number {
    const p = this.get(name);
    let removed = 0;
    for (const n of names) if (p.set.delete(n)) removed++;
    // The set now holds exactly the survivors, so one pass over the array keeps their order.
    if (removed > 0) p.buckets = p.buckets.filter((n) => p.set.has(n));
    return p.buckets.length;
  }

  /** Sets the whole list (deduplicated, order kept). Returns the new size. */
  replace(name: string, names: readonly string[]): number {
    const fresh = makeProfile(names, this.get(name).pendingUntil);
    this.profiles.set(name, fresh);
    return fresh.buckets.length;
  }

  /** Deletes first, then adds, as the API describes modifyBucketList. */
  modify(name: string, deleteNames: readonly string[], addNames: readonly string[]): number {
    this.remove(name, deleteNames);
    return this.append(name, addNames);
  }

  /** Creates or replaces a profile (not pending). */
  put(name: string, buckets: readonly string[]): void {
    this.profiles.set(name, makeProfile(buckets));
  }

  setPendingUntil(name: string, untilMs: number): void {
    this.get(name).pendingUntil = untilMs;
  }

  private get(name: string): Profile {
    const p = this.profiles.get(name);
    if (!p) throw new Error(`profile '${name}' is missing from the store`);
    return p;
  }
}
