// The emulator's storage constraint profiles: bucket lists, pending changes, and the optional
// state file that lets them survive restarts.

import { readPlainFile } from '../files/plain-file.js';
import { writeFileAtomically } from '../files/atomic-write.js';
import { ApiError } from './http.js';

export interface ProfileSeed {
  name: string;
  buckets?: string[];
}

export interface Profile {
  // A Set keeps the first of repeats in insertion order and answers membership in O(1), so that lists of
  // hundreds of thousands of names are handled in linear time.
  buckets: Set<string>;
  /** Milliseconds since the epoch until which a change is pending; 0 when none ever was. */
  pendingUntil: number;
}

/** Splits a wire list on commas; surrounding whitespace and empty entries are ignored. */
export function splitList(list: string): string[] {
  return list.split(',').map((part) => part.trim()).filter((name) => name !== '');
}

export class ProfileStore {
  private readonly profiles = new Map<string, Profile>();

  private constructor(readonly statePath: string | undefined) {}

  /**
   * With a state file that exists, its profiles win; `seeds` only add profiles it lacks, so that
   * re-running the same command line does not undo changes made through the API.
   * Without one, the seeds (or, when none are given, the empty profiles demo and finance) are used
   * and the state file, if named, is written at once.
   */
  static open(statePath: string | undefined, seeds: readonly ProfileSeed[] | undefined): ProfileStore {
    const store = new ProfileStore(statePath);
    const loaded = statePath !== undefined && store.load(statePath);
    const wanted: readonly ProfileSeed[] = seeds ?? (loaded ? [] : [{ name: 'demo' }, { name: 'finance' }]);
    const added = wanted.filter((seed) => !store.profiles.has(seed.name));
    for (const seed of added) store.put(seed.name, seed.buckets ?? []);
    if (!loaded || added.length > 0) store.save();
    return store;
  }

  private load(path: string): boolean {
    let data: unknown;
    try {
      // Never a blocking open: a FIFO named as the state file would hold the emulator's start and its signals.
      const bytes = readPlainFile(path);
      if (bytes === undefined) return false;
      data = JSON.parse(bytes.toString('utf8'));
    } catch (err) {
      const what = err instanceof SyntaxError ? `state file ${path} is not valid JSON` : `cannot read state file ${path}`;
      throw new Error(`${what}: ${(err as Error).message}`);
    }
    const profiles = (data as { profiles?: unknown } | null)?.profiles;
    if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles)) {
      throw new Error(`state file ${path} has no "profiles" object`);
    }
    for (const [name, p] of Object.entries(profiles as Record<string, unknown>)) {
      const rec = p as { buckets?: unknown; pendingUntil?: unknown } | null;
      if (!Array.isArray(rec?.buckets) || !rec.buckets.every((b) => typeof b === 'string')) {
        throw new Error(`state file ${path}: profile '${name}' needs a "buckets" array of strings`);
      }
      this.put(name, rec.buckets as string[], typeof rec.pendingUntil === 'number' ? rec.pendingUntil : 0);
    }
    return true;
  }

  /** Writes the state file, if any, atomically: a temporary file beside it, then a rename. */
  save(): void {
    if (this.statePath === undefined) return;
    // fromEntries defines own properties, so even a profile named "__proto__" round-trips.
    const profiles = Object.fromEntries(
      [...this.profiles].map(([name, p]) => [name, { buckets: [...p.buckets], pendingUntil: p.pendingUntil }]),
    );
    writeFileAtomically(this.statePath, JSON.stringify({ version: 1, profiles }) + '\n');
  }

  names(): string[] {
    return [...this.profiles.keys()];
  }

  /** The profile, or the API's 404 for it. */
  get(name: string): Profile {
    const p = this.profiles.get(name);
    if (!p) throw new ApiError(404, 'Not Found', `Profile '${name}' does not exist`);
    return p;
  }

  snapshot(name: string): { name: string; buckets: string[]; pendingUntil: number } {
    const { buckets, pendingUntil } = this.get(name);
    return { name, buckets: [...buckets], pendingUntil };
  }

  /** Creates or replaces a profile. */
  put(name: string, buckets: readonly string[], pendingUntil = 0): void {
    this.profiles.set(name, { buckets: new Set(buckets), pendingUntil });
  }
}
