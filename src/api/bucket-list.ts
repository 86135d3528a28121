// A profile's bucket list as one view read it: the one value every reader of a list takes (the library's
// `buckets.view`, the CLI's view, sync, delete, modify, apply, history). Where the answer's names are plain
// its forms are made from the answer's own text (bucket-list-scan.ts): `view -o text` writes them as lines
// and sync diffs them where they lie, without a string a name; a name is made only when one is asked for.
import type { HttpResponse } from './transport.js';
import { scanBucketList, type ScannedList } from './bucket-list-scan.js';
import { planSync, type LiveList, type SyncPlan } from '../core/diff.js';
import { fingerprintList } from '../core/fingerprint.js';

export class BucketList implements Iterable<string> {
  private held: string[] | undefined;
  private lookup: Set<string> | undefined;

  private constructor(
    readonly profile: string,
    private readonly scanned: ScannedList | undefined,
    names: string[] | undefined,
  ) {
    this.held = names;
  }

  /** A view answer's list: scanned where it has a usual shape, else read by `ordinary`, which fails on anything it cannot understand. */
  static read(profile: string, response: HttpResponse, what: string, ordinary: () => string[]): BucketList {
    const scanned = scanBucketList(response, what);
    return scanned === null ? new BucketList(profile, undefined, ordinary()) : new BucketList(profile, scanned, undefined);
  }

  get size(): number {
    return this.held?.length ?? this.scanned!.count();
  }

  /** The names in the service's order, as a new array (changing it changes nothing here). */
  names(): string[] {
    return [...this.own()];
  }

  has(name: string): boolean {
    this.lookup ??= new Set(this.own());
    return this.lookup.has(name);
  }

  [Symbol.iterator](): Iterator<string> {
    return this.own()[Symbol.iterator]();
  }

  /** One name a line, each ending with a newline (empty for an empty list): what `view -o text` prints, unescaped. */
  lines(): string {
    const lines = this.lineForm();
    return lines.length === 0 ? '' : `${Buffer.isBuffer(lines) ? lines.toString('utf8') : lines.join('\n')}\n`;
  }

  /** The wire form of `list`, `addList` and `deleteList` (contract section 4). */
  wire(): string {
    return this.own().join(',');
  }

  /** A digest of the sorted set of names: the same for the same names in any order (what saved plans bind to). */
  fingerprint(): string {
    return fingerprintList(this.own());
  }

  /** What to add to this list and delete from it to make it `desired` (sync's plan): add in desired's order, delete in this list's. */
  diff(desired: BucketList | Iterable<string>): SyncPlan {
    return planSync(this.live(), desired instanceof BucketList ? desired.own() : [...desired]);
  }

  /**
   * The names one a line (no final newline) as bytes straight from the answer when the list is plain, else
   * the names (one of them may hold a newline, which joined lines would hide). For `view`'s text and table.
   */
  lineForm(): Buffer | string[] {
    return this.scanned?.lines() ?? this.own();
  }

  /** The list as sync's diff takes it: the answer's text of the names when plain and ASCII, else the names. */
  live(): LiveList {
    return this.scanned?.separated() ?? this.own();
  }

  private own(): string[] {
    this.held ??= this.scanned!.names();
    return this.held;
  }
}
