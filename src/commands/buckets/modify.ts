import { UsageError } from '../../errors.js';
import type { CommandContext } from '../context.js';
import { modifyRequest } from '../../library/buckets.js';
import { beginMutation, sendMutation, type BucketOptions } from './common.js';
import { acceptNames, readNames } from './input.js';

export interface ModifyOptions extends BucketOptions {
  add?: string[];
  addFile?: string[];
  delete?: string[];
  deleteFile?: string[];
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
