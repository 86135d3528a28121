// `scp.buckets`: view a list, and the four changes (contract sections 1, 3 and 13). Each checks the profile
// name and the names given, keeps to the 8 MiB limit before anything is sent, and the changes that can remove
// names read the list first: an emptied list needs allowEmpty, the list read is kept in the history.
import { UsageError } from '../errors.js';
import type { BucketList } from '../api/bucket-list.js';
import { planDeletion, planSync, type LiveList, type RequestPlan } from '../core/diff.js';
import { profileNameProblem } from '../core/manifest.js';
import { quoteName } from '../core/names.js';
import type { NameSet } from '../core/name-set.js';
import { maskInValue } from '../core/secrets.js';
import { retryWhilePending } from '../core/wait.js';
import { bodyBytes, type BucketOp, type WireBody } from '../core/wire.js';
import { afterPending, sendGuarded } from './guard.js';
import { invalidNamesError, namesGiven, type NamesInput } from './names.js';
import type { Session } from './session.js';

export interface ViewOptions {
  /** Seconds to wait out a pending change on the profile (the CLI's --wait); by default a pending change fails at once. */
  wait?: number;
}

export interface ChangeOptions extends ViewOptions {
  /** false lifts the S3 naming rules (the CLI's --no-validate); wire safety still holds. */
  validate?: boolean;
  /** delete, modify and replace: a result that would be empty is refused unless true. */
  allowEmpty?: boolean;
  /** false: no read first, nothing kept, no guard against emptying the list (the CLI's --no-history). */
  history?: boolean;
}

export interface ChangeResult {
  profile: string;
  operation: Exclude<BucketOp, 'viewBucketList'>;
  /** The names sent, by the body's key. */
  sent: { list?: string[]; addList?: string[]; deleteList?: string[] };
  /** The service's answer, any token it echoed masked. */
  response: unknown;
}

/** Refuses a profile name that cannot be meant: empty, with whitespace around it, or with control characters. */
export function checkProfileName(profile: string): void {
  const problem = typeof profile === 'string' ? profileNameProblem(profile) : 'is not a string';
  if (problem !== null) throw new UsageError(`the profile name ${typeof profile === 'string' ? quoteName(profile) : String(profile)} ${problem}`);
}

export class Buckets {
  constructor(private readonly session: Session) {}

  /** The profile's list: one read. */
  async view(profile: string, options: ViewOptions = {}): Promise<BucketList> {
    checkProfileName(profile);
    const client = await this.session.client();
    return this.riding(options.wait, () => client.viewList(profile));
  }

  /** Adds names (appendToBucketList). */
  async append(profile: string, names: NamesInput, options: ChangeOptions = {}): Promise<ChangeResult> {
    checkProfileName(profile);
    const list = this.names(names, 'name', options);
    return this.send(profile, 'appendToBucketList', bodyBytes([['list', list]]), { list }, options);
  }

  /** Removes names (deleteFromBucketList); the list is read first: emptying it needs allowEmpty, the list read is kept. */
  async delete(profile: string, names: NamesInput, options: ChangeOptions = {}): Promise<ChangeResult> {
    checkProfileName(profile);
    const list = this.names(names, 'name', options);
    const body = bodyBytes([['list', list]]);
    return this.send(profile, 'deleteFromBucketList', body, { list }, options, { operation: 'delete', refuseEmpty: true, plan: (live) => planDeletion(live, list) });
  }

  /** Makes the list exactly `names` (replaceBucketList); an empty one needs allowEmpty; the list read first is kept. */
  async replace(profile: string, names: NamesInput, options: ChangeOptions = {}): Promise<ChangeResult> {
    checkProfileName(profile);
    const list = this.names(names, 'name', { ...options, allowEmpty: true });
    if (list.size === 0 && !options.allowEmpty) {
      throw new UsageError(`refusing to replace the list of ${profile} with an empty list: that would remove every bucket`, { hint: 'Pass allowEmpty: true if that is what you want.' });
    }
    const body = bodyBytes([['list', list]]);
    return this.send(profile, 'replaceBucketList', body, { list }, options, {
      operation: 'replace',
      refuseEmpty: false,
      plan: (live) => ({ plan: planSync(live, list), absent: [], emptied: false }),
    });
  }

  /** Deletes, then adds, in one request (modifyBucketList); a result that would be empty needs allowEmpty. */
  async modify(profile: string, change: { add?: NamesInput; delete?: NamesInput }, options: ChangeOptions = {}): Promise<ChangeResult> {
    checkProfileName(profile);
    const validate = options.validate !== false;
    const tokens = this.session.tokens();
    const adding = namesGiven(change?.add ?? [], 'add', tokens, validate);
    const deleting = namesGiven(change?.delete ?? [], 'delete', tokens, validate);
    const invalid = invalidNamesError(validate, [adding, deleting]);
    if (invalid) throw invalid;
    const add = adding.names;
    const del = deleting.names;
    if (add.size === 0 && del.size === 0) throw new UsageError('no bucket names to add or delete: nothing to send');
    const sent: Record<string, NameSet> = {};
    if (add.size > 0) sent.addList = add;
    if (del.size > 0) sent.deleteList = del;
    const body = bodyBytes([['addList', add], ['deleteList', del]]);
    return this.send(profile, 'modifyBucketList', body, sent, options, { operation: 'modify', refuseEmpty: true, plan: (live) => planDeletion(live, del, add) });
  }

  private names(names: NamesInput, label: string, options: ChangeOptions): NameSet {
    const validate = options.validate !== false;
    const result = namesGiven(names, label, this.session.tokens(), validate);
    const invalid = invalidNamesError(validate, [result]);
    if (invalid) throw invalid;
    if (result.names.size === 0 && !options.allowEmpty) throw new UsageError('no bucket names in the input: nothing to send');
    return result.names;
  }

  /** One request; a change that can remove names goes through the guard (guard.ts) unless history is false. */
  private async send(
    profile: string,
    op: Exclude<BucketOp, 'viewBucketList'>,
    body: WireBody,
    sent: Record<string, NameSet>,
    options: ChangeOptions,
    planned?: { operation: 'replace' | 'delete' | 'modify'; refuseEmpty: boolean; plan(live: LiveList): RequestPlan },
  ): Promise<ChangeResult> {
    const client = await this.session.client();
    const request = (ride: boolean) => this.riding(ride ? options.wait : undefined, () => client.bucketOp(profile, op, body));
    const store = planned && options.history !== false ? await this.session.history() : undefined;
    const answer = !planned
      ? await request(true)
      : await sendGuarded(this.session, {
          ...planned,
          profile,
          refuseEmpty: planned.refuseEmpty && options.history !== false,
          allowEmpty: options.allowEmpty,
          keep: store !== undefined && store.keep > 0,
          read: async (pending) => (await this.riding(options.wait, afterPending(pending, () => client.viewList(profile)))).live(),
          send: request,
          waiting: options.wait !== undefined,
        });
    const names = Object.fromEntries(Object.entries(sent).map(([key, list]) => [key, list.names()]));
    return { profile, operation: op, sent: names, response: maskInValue(answer.body, [...this.session.tokens()]) };
  }

  private riding<T>(wait: number | undefined, action: () => Promise<T>): Promise<T> {
    return retryWhilePending(action, { seconds: wait, signal: this.session.signal, clock: this.session.clock });
  }
}
