// `buckets append|delete|replace|modify`: names in, one request out. All but append read the list first
// (the change pipeline): it is kept in the history, emptying it by a delete or modify needs --allow-empty,
// and at a terminal what would be removed is asked about first (`replace finance old new` read as a swap
// would remove every other name).
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../context.js';
import { listRequest, modifyRequest } from '../../library/buckets.js';
import { beginMutation, sendMutation, type BucketOptions } from './common.js';
import { acceptNames, collectNames, readNames } from './input.js';

export interface ModifyOptions extends BucketOptions {
  add?: string[];
  addFile?: string[];
  delete?: string[];
  deleteFile?: string[];
}

async function listChange(
  ctx: CommandContext,
  op: 'appendToBucketList' | 'deleteFromBucketList' | 'replaceBucketList',
  profile: string,
  args: string[],
  options: BucketOptions,
): Promise<void> {
  const how = beginMutation(ctx, profile, options);
  const { names } = await collectNames(ctx, { args, files: options.file ?? [], stdinFallback: true, literal: options.literal }, options.validate !== false);
  // The request's body is made (the 8 MiB check) before the read costs a request: refused input sends
  // nothing (contract section 3), which is why the read does not start while the names are read.
  await sendMutation(ctx, profile, listRequest(profile, op, names, options.allowEmpty), how);
}

export function append(ctx: CommandContext, profile: string, args: string[], options: BucketOptions): Promise<void> {
  return listChange(ctx, 'appendToBucketList', profile, args, options);
}

export function remove(ctx: CommandContext, profile: string, args: string[], options: BucketOptions): Promise<void> {
  return listChange(ctx, 'deleteFromBucketList', profile, args, options);
}

export function replace(ctx: CommandContext, profile: string, args: string[], options: BucketOptions): Promise<void> {
  return listChange(ctx, 'replaceBucketList', profile, args, options);
}

/** `buckets modify`: one request that deletes, then adds (the service's order). */
export async function modify(ctx: CommandContext, profile: string, options: ModifyOptions): Promise<void> {
  const how = beginMutation(ctx, profile, options);
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
  await sendMutation(ctx, profile, modifyRequest(adding.names, deleting.names), how);
}
