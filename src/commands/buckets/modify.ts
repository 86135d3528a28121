import { UsageError } from '../../errors.js';
import { bodyBytes } from '../../core/wire.js';
import type { NameSet } from '../../core/name-set.js';
import type { CommandContext } from '../context.js';
import { planDeletion, type LiveList } from '../../core/diff.js';
import { checkDiffFlags, checkProfileName, mutationFormat, parseWait, sendMutation, type BucketOptions } from './common.js';
import { acceptNames, readNames } from './input.js';

export interface ModifyOptions extends BucketOptions {
  add?: string[];
  addFile?: string[];
  delete?: string[];
  deleteFile?: string[];
}

/** `buckets modify`: one request that deletes, then adds (the service's order). */
export async function modify(ctx: CommandContext, profile: string, options: ModifyOptions): Promise<void> {
  checkProfileName(profile, ctx.knownTokens());
  const wait = parseWait(options.wait);
  const format = mutationFormat(ctx, 'modify');
  checkDiffFlags(options);
  const validate = options.validate !== false;
  const given = [options.add, options.addFile, options.delete, options.deleteFile].some((list) => (list ?? []).length > 0);
  if (!given) throw new UsageError('modify needs at least one of --add, --add-file, --delete, --delete-file');
  // Both lists are read before either is judged, so that one error reports the invalid names of both.
  const adding = await readNames(ctx, { args: options.add ?? [], files: options.addFile ?? [], argLabel: '--add', fileFlag: '--add-file', stdinFallback: false, literal: options.literal }, validate);
  const deleting = await readNames(
    ctx,
    { args: options.delete ?? [], files: options.deleteFile ?? [], argLabel: '--delete', fileFlag: '--delete-file', stdinFallback: false, literal: options.literal },
    validate,
  );
  acceptNames(ctx, validate, adding, deleting);
  const add = adding.names;
  const del = deleting.names;
  if (add.size === 0 && del.size === 0) throw new UsageError('no bucket names to add or delete: nothing to send');
  const sent: Record<string, NameSet> = {};
  if (add.size > 0) sent.addList = add;
  if (del.size > 0) sent.deleteList = del;
  const body = bodyBytes([['addList', add], ['deleteList', del]]);
  // The service deletes, then adds: the result is empty only when nothing is added and every name goes.
  const planned = { operation: 'modify' as const, plan: (live: LiveList) => planDeletion(live, del, add), refuseEmpty: true, named: del.size };
  await sendMutation(ctx, profile, 'modifyBucketList', body, sent, { format, wait, options, planned });
}
