// The wire format of bucket lists (contract section 4): one comma-joined string per list, at most 8 MiB.
import { UsageError } from '../errors.js';

export const MAX_LIST_BYTES = 8 * 1024 * 1024;

export type BucketOp =
  | 'appendToBucketList'
  | 'deleteFromBucketList'
  | 'modifyBucketList'
  | 'replaceBucketList'
  | 'viewBucketList';

export type BucketBody = { list: string } | { addList?: string; deleteList?: string } | Record<string, never>;

/** Joins names for the wire and refuses a list over the limit, naming its size. */
export function joinList(names: readonly string[], key: 'list' | 'addList' | 'deleteList'): string {
  const joined = names.join(',');
  const bytes = Buffer.byteLength(joined, 'utf8');
  if (bytes > MAX_LIST_BYTES) {
    throw new UsageError(
      `${key} is ${formatBytes(bytes)} (${bytes.toLocaleString('en-US')} bytes, ${names.length.toLocaleString('en-US')} names); ` +
        `the limit is 8 MiB (${MAX_LIST_BYTES.toLocaleString('en-US')} bytes): nothing was sent`,
      { hint: 'Split the change into several smaller requests (append, then append again).' },
    );
  }
  return joined;
}

export function listBody(names: readonly string[]): { list: string } {
  return { list: joinList(names, 'list') };
}

/** The modify body carries each key only when it has names (contract section 4). */
export function modifyBody(add: readonly string[], del: readonly string[]): { addList?: string; deleteList?: string } {
  const body: { addList?: string; deleteList?: string } = {};
  if (add.length > 0) body.addList = joinList(add, 'addList');
  if (del.length > 0) body.deleteList = joinList(del, 'deleteList');
  return body;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(2)} MiB`;
}
