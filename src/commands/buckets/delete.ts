import type { CommandContext } from '../context.js';
import { appendOrDelete } from './append.js';
import type { BucketOptions } from './common.js';

export function remove(ctx: CommandContext, profile: string, args: string[], options: BucketOptions): Promise<void> {
  return appendOrDelete(ctx, 'deleteFromBucketList', profile, args, options);
}
