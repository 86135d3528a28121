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
import { afterPending, refuseEmptyList, sendGuarded, type GuardedChange } from './guard.js';
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

/** A change that can remove names: what it does to the list read, whether an emptied list is refused, how many names it deletes. */
export interface PlannedRequest {
  operation: 'replace' | 'delete' | 'modify';
  refuseEmpty: boolean;
  named: number;
  plan(live: LiveList): RequestPlan;
}

type ChangeOp = Exclude<BucketOp, 'viewBucketList'>;

/**
 * One of the four changes, the CLI's and the library's: the lists sent (each only when not empty), the wire
 * body (made, so held to the 8 MiB limit, before anything is read), and the plan of one that can remove names.
 */
export interface ChangeRequest {
  op: ChangeOp;
  sent: Record<string, NameSet>;
  body: WireBody;
  planned?: PlannedRequest;
}

type ListOp = 'appendToBucketList' | 'deleteFromBucketList' | 'replaceBucketList';

/** append, delete and replace: no names is nothing to send, and for replace (unless allowed) a wiped list. */
export function listRequest(profile: string, op: ListOp, list: NameSet, allowEmpty: boolean | undefined): ChangeRequest {
  if (list.size === 0 && op !== 'replaceBucketList') throw new UsageError('no bucket names in the input: nothing to send');
  const refusal = `refusing to replace the list of ${profile} with an empty list: that would remove every bucket`;
  refuseEmptyList(list.size === 0, allowEmpty, refusal);
  const request: ChangeRequest = { op, sent: { list }, body: bodyBytes([['list', list]]) };
  if (op === 'deleteFromBucketList') {
    request.planned = { operation: 'delete', refuseEmpty: true, named: list.size, plan: (live) => planDeletion(live, list) };
  }
  if (op === 'replaceBucketList') {
    const plan = (live: LiveList): RequestPlan => ({ plan: planSync(live, list), absent: [], emptied: false });
    request.planned = { operation: 'replace', refuseEmpty: false, named: 0, plan };
  }
  return request;
}

/** The service deletes, then adds: the list is emptied only when nothing is added and every name goes. */
export function modifyRequest(add: NameSet, del: NameSet): ChangeRequest {
  if (add.size === 0 && del.size === 0) throw new UsageError('no bucket names to add or delete: nothing to send');
  const sent: Record<string, NameSet> = {};
  if (add.size > 0) sent.addList = add;
  if (del.size > 0) sent.deleteList = del;
  const planned: PlannedRequest = { operation: 'modify', refuseEmpty: true, named: del.size, plan: (live) => planDeletion(live, del, add) };
  return { op: 'modifyBucketList', sent, body: bodyBytes([['addList', add], ['deleteList', del]]), planned };
}

/** What a change returns (and the CLI's --json prints): the names sent, a modify's both lists (an empty one as []), the answer masked. */
export function changeResult(profile: string, request: ChangeRequest, answer: BucketAnswer, tokens: readonly string[]): ChangeResult {
  const listed = Object.fromEntries(Object.entries(request.sent).map(([key, list]) => [key, list.names()]));
  const sent = request.op === 'modifyBucketList' ? { addList: listed.addList ?? [], deleteList: listed.deleteList ?? [] } : listed;
  return { profile, operation: request.op, sent, response: maskInValue(answer.body, [...tokens]) };
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
    return this.listChange(profile, 'appendToBucketList', names, options);
  }

  /** Removes names (deleteFromBucketList); the list is read first: emptying it needs allowEmpty, the list read is kept. */
  async delete(profile: string, names: NamesInput, options: ChangeOptions = {}): Promise<ChangeResult> {
    return this.listChange(profile, 'deleteFromBucketList', names, options);
  }

  /** Makes the list exactly `names` (replaceBucketList); an empty one needs allowEmpty; the list read first is kept. */
  async replace(profile: string, names: NamesInput, options: ChangeOptions = {}): Promise<ChangeResult> {
    return this.listChange(profile, 'replaceBucketList', names, options);
  }

  /** Deletes, then adds, in one request (modifyBucketList); a result that would be empty needs allowEmpty. */
  async modify(profile: string, change: { add?: NamesInput; delete?: NamesInput }, options: ChangeOptions = {}): Promise<ChangeResult> {
    const [add, del] = this.read(profile, options, [[change?.add ?? [], 'add'], [change?.delete ?? [], 'delete']]);
    return this.send(profile, modifyRequest(add!, del!), options);
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

  private listChange(profile: string, op: ListOp, names: NamesInput, options: ChangeOptions): Promise<ChangeResult> {
    const [list] = this.read(profile, options, [[names, 'name']]);
    return this.send(profile, listRequest(profile, op, list!, options.allowEmpty), options);
  }

  private async send(profile: string, request: ChangeRequest, options: ChangeOptions): Promise<ChangeResult> {
    return changeResult(profile, request, await this.sendRequest(profile, request, options), this.session.tokens());
  }

  /**
   * Sends one change; a `planned` one (a change that can remove names) goes through the guard (guard.ts)
   * unless history is false: the list read first, an emptied list refused, the list kept. `review` is the
   * CLI's notice and question on the plan of each list read.
   */
  async sendRequest(profile: string, request: ChangeRequest, options: ChangeOptions, review?: GuardedChange<unknown>['review']): Promise<BucketAnswer> {
    const { op, body, planned } = request;
    const client = await this.session.client();
    const sendOnce = (ride: boolean) => this.ride(profile, ride ? options.wait : undefined, () => client.bucketOp(profile, op, body), `${op} ${profile}`);
    if (!planned) return sendOnce(true);
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
      send: sendOnce,
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
