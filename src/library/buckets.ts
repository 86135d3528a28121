// `scp.buckets`: view a list, and the four changes (contract sections 1, 3 and 13), each checking the profile
// name and the names given, within the 8 MiB limit, before anything is sent; guard.ts guards the removals.
import { UsageError } from '../errors.js';
import type { BucketList } from '../api/bucket-list.js';
import type { BucketAnswer } from '../api/client.js';
import { planDeletion, planSync, type LiveList, type RequestPlan } from '../core/diff.js';
import { profileNameProblem } from '../core/manifest.js';
import { quoteName } from '../core/names.js';
import type { NameSet } from '../core/name-set.js';
import { maskInValue } from '../core/secrets.js';
import { SECRET_NAME_REASON, holdsSecret } from '../core/secret-names.js';
import { retryWhilePending } from '../core/wait.js';
import { bodyBytes, type BucketOp, type WireBody } from '../core/wire.js';
import { afterPending, sendGuarded, type GuardedChange } from './guard.js';
import { invalidNamesError, namesGiven } from './names.js';
import type { Session } from './session.js';
import type { ChangeOptions, ChangeResult, NamesInput, ViewOptions } from './public.js';

/**
 * Refuses a profile name that cannot be meant: empty, with whitespace around it, or with control characters;
 * or one holding a known token, which would rest on disk in the history's folder names and headers (contract
 * 13). Every bucket call checks it first.
 */
export function checkProfileName(profile: string, secrets: readonly string[]): void {
  if (typeof profile === 'string' && holdsSecret(profile, secrets)) throw new UsageError(`the profile name is ${SECRET_NAME_REASON}; nothing was sent`);
  const problem = typeof profile === 'string' ? profileNameProblem(profile) : 'is not a string';
  if (problem !== null) throw new UsageError(`the profile name ${typeof profile === 'string' ? quoteName(profile) : String(profile)} ${problem}`);
}

/**
 * A modify's request (the CLI's and the library's): the lists sent, each only when not empty, the wire body,
 * and what it does to the list read (the service deletes, then adds: empty only when nothing is added and
 * every name goes).
 */
export function modifyRequest(add: NameSet, del: NameSet): { sent: Record<string, NameSet>; body: WireBody; plan(live: LiveList): RequestPlan } {
  if (add.size === 0 && del.size === 0) throw new UsageError('no bucket names to add or delete: nothing to send');
  const sent: Record<string, NameSet> = {};
  if (add.size > 0) sent.addList = add;
  if (del.size > 0) sent.deleteList = del;
  return { sent, body: bodyBytes([['addList', add], ['deleteList', del]]), plan: (live) => planDeletion(live, del, add) };
}

/** A change that can remove names: what it does to the list read, and whether an emptied list is refused. */
export interface PlannedRequest {
  operation: 'replace' | 'delete' | 'modify';
  refuseEmpty: boolean;
  plan(live: LiveList): RequestPlan;
}

/** The CLI's part in a call: how a pending change is ridden out (spinner, lines), where the version kept is said. */
export interface BucketHooks {
  ride?<T>(profile: string, wait: number | undefined, action: () => Promise<T>, what: string): Promise<T>;
  debug?(line: string): void;
}

/** Waits out a pending change quietly, for `wait` seconds as --wait takes them (0 to 86400). */
export function rideQuietly<T>(session: Session, wait: number | undefined, action: () => Promise<T>): Promise<T> {
  if (wait !== undefined && (typeof wait !== 'number' || !(wait >= 0 && wait <= 86_400))) {
    throw new UsageError(`wait: ${String(wait)} is not a number of seconds (0 to 86400)`);
  }
  return retryWhilePending(action, { seconds: wait, signal: session.signal, clock: session.clock });
}

export class Buckets {
  constructor(
    private readonly session: Session,
    private readonly hooks: BucketHooks = {},
  ) {}

  async view(profile: string, options: ViewOptions = {}): Promise<BucketList> {
    checkProfileName(profile, this.session.tokens());
    const client = await this.session.client();
    return this.ride(profile, options.wait, () => client.viewList(profile), `viewBucketList ${profile}`);
  }

  async append(profile: string, names: NamesInput, options: ChangeOptions = {}): Promise<ChangeResult> {
    return this.send(profile, 'appendToBucketList', { list: this.list(profile, names, options) }, options);
  }

  /** Removes names (deleteFromBucketList); the list is read first: emptying it needs allowEmpty, the list read is kept. */
  async delete(profile: string, names: NamesInput, options: ChangeOptions = {}): Promise<ChangeResult> {
    const list = this.list(profile, names, options);
    return this.send(profile, 'deleteFromBucketList', { list }, options, { operation: 'delete', refuseEmpty: true, plan: (live) => planDeletion(live, list) });
  }

  /** Makes the list exactly `names` (replaceBucketList); an empty one needs allowEmpty; the list read first is kept. */
  async replace(profile: string, names: NamesInput, options: ChangeOptions = {}): Promise<ChangeResult> {
    const list = this.list(profile, names, { ...options, allowEmpty: true });
    if (list.size === 0 && !options.allowEmpty) {
      throw new UsageError(`refusing to replace the list of ${profile} with an empty list: that would remove every bucket`, { hint: 'Pass allowEmpty: true if that is what you want.' });
    }
    return this.send(profile, 'replaceBucketList', { list }, options, {
      operation: 'replace',
      refuseEmpty: false,
      plan: (live) => ({ plan: planSync(live, list), absent: [], emptied: false }),
    });
  }

  /** Deletes, then adds, in one request (modifyBucketList); a result that would be empty needs allowEmpty. */
  async modify(profile: string, change: { add?: NamesInput; delete?: NamesInput }, options: ChangeOptions = {}): Promise<ChangeResult> {
    const [add, del] = this.read(profile, options, [[change?.add ?? [], 'add'], [change?.delete ?? [], 'delete']]);
    const { sent, plan } = modifyRequest(add!, del!);
    return this.send(profile, 'modifyBucketList', sent, options, { operation: 'modify', refuseEmpty: true, plan });
  }

  /** The profile name checked, then each of the names given read: every invalid one of them in one error. */
  private read(profile: string, options: ChangeOptions, given: ReadonlyArray<readonly [NamesInput, string]>): NameSet[] {
    checkProfileName(profile, this.session.tokens());
    const validate = options.validate !== false;
    const tokens = this.session.tokens();
    const results = given.map(([names, label]) => namesGiven(names, label, tokens, validate));
    const invalid = invalidNamesError(validate, results, tokens);
    if (invalid) throw invalid;
    return results.map((result) => result.names);
  }

  /** The one list of append, delete and replace; none at all is refused unless allowEmpty. */
  private list(profile: string, names: NamesInput, options: ChangeOptions): NameSet {
    const [list] = this.read(profile, options, [[names, 'name']]);
    if (list!.size === 0 && !options.allowEmpty) throw new UsageError('no bucket names in the input: nothing to send');
    return list!;
  }

  /** One request (its body the lists `sent`); its result with the names sent and the answer (masked). */
  private async send(profile: string, op: Exclude<BucketOp, 'viewBucketList'>, sent: Record<string, NameSet>, options: ChangeOptions, planned?: PlannedRequest): Promise<ChangeResult> {
    const body = bodyBytes(Object.entries(sent) as Parameters<typeof bodyBytes>[0]);
    const answer = await this.sendBody(profile, op, body, options, planned);
    const names = Object.fromEntries(Object.entries(sent).map(([key, list]) => [key, list.names()]));
    return { profile, operation: op, sent: names, response: maskInValue(answer.body, [...this.session.tokens()]) };
  }

  /**
   * Sends one change, its body made and checked; a `planned` one (a change that can remove names) goes through
   * the guard (guard.ts) unless history is false: the list read first, an emptied list refused, the list
   * kept. `review` is the CLI's notice and question on the plan of each list read.
   */
  async sendBody(profile: string, op: Exclude<BucketOp, 'viewBucketList'>, body: WireBody, options: ChangeOptions, planned?: PlannedRequest, review?: GuardedChange<unknown>['review']): Promise<BucketAnswer> {
    const client = await this.session.client();
    const request = (ride: boolean) => this.ride(profile, ride ? options.wait : undefined, () => client.bucketOp(profile, op, body), `${op} ${profile}`);
    if (!planned) return request(true);
    const guarded = options.history !== false;
    const keep = guarded && ((await this.session.history())?.keep ?? 0) > 0;
    return sendGuarded(this.session, {
      operation: planned.operation,
      plan: planned.plan,
      profile,
      refuseEmpty: guarded && planned.refuseEmpty,
      allowEmpty: options.allowEmpty,
      keep,
      read: async (pending) => (await this.ride(profile, options.wait, afterPending(pending, () => client.viewList(profile)), `viewBucketList ${profile}`)).live(),
      send: request,
      waiting: options.wait !== undefined,
      review,
      debug: this.hooks.debug,
    });
  }

  /** How a step rides out a pending change: the caller's way (the CLI's spinner and lines), else quietly. */
  private ride<T>(profile: string, wait: number | undefined, action: () => Promise<T>, what: string): Promise<T> {
    return this.hooks.ride ? this.hooks.ride(profile, wait, action, what) : rideQuietly(this.session, wait, action);
  }
}
