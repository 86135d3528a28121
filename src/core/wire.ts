// The wire format of bucket lists (contract section 4): one comma-joined string per list, at most 8 MiB.
import { ResponseError, UsageError } from '../errors.js';
import { visible } from './service-text.js';
import type { NameSet } from './name-set.js';

export const MAX_LIST_BYTES = 8 * 1024 * 1024;

export type BucketOp =
  | 'appendToBucketList'
  | 'deleteFromBucketList'
  | 'modifyBucketList'
  | 'replaceBucketList'
  | 'viewBucketList';

export type ListKey = 'list' | 'addList' | 'deleteList';

/**
 * Refuses a list of `bytes` (joined by commas) over the wire's limit, naming its size. `uncut`: the names
 * past the limit were counted but not de-duplicated (a manifest's list is not held past 8 MiB).
 */
export function checkListSize(bytes: number, count: number, key: ListKey, uncut = false): void {
  if (bytes > MAX_LIST_BYTES) {
    throw new UsageError(
      `${key} is ${formatBytes(bytes)} (${bytes.toLocaleString('en-US')} bytes, ${count.toLocaleString('en-US')} names` +
        `${uncut ? ', repeats past the first 8 MiB counted' : ''}); ` +
        `the limit is 8 MiB (${MAX_LIST_BYTES.toLocaleString('en-US')} bytes): nothing was sent`,
      { hint: 'Split the change into several smaller requests (append, then append again).' },
    );
  }
}

/**
 * A request body as the pieces it goes out in, one after another: an 8 MiB list is sent from the buffer the
 * name reader wrote it into (a body of its own was one more 8 MiB buffer, filled by a copy, for each request).
 */
export class WireBody {
  readonly length: number;

  constructor(readonly parts: readonly Buffer[]) {
    this.length = parts.reduce((sum, part) => sum + part.length, 0);
  }

  toString(): string {
    return Buffer.concat(this.parts, this.length).toString('utf8');
  }
}

/**
 * The JSON body of lists of names, written straight from a name set's bytes (or a plan's names joined):
 * `{"list":"a,b"}` or the modify keys, each only when it has names, and each list held to the 8 MiB limit.
 * The same bytes JSON.stringify would give.
 */
export function bodyBytes(lists: ReadonlyArray<readonly [ListKey, NameSet | readonly string[]]>): WireBody {
  const parts: Buffer[] = [];
  for (const [key, names] of lists) {
    const [bytes, count] = isNames(names)
      ? [Buffer.from(names.join(',')), names.length]
      : [names.list.subarray(0, names.byteLength), names.size];
    if (key !== 'list' && count === 0) continue;
    checkListSize(bytes.length, count, key);
    parts.push(Buffer.from(`${parts.length === 0 ? '{' : ','}"${key}":"`), jsonStringBytes(bytes), QUOTE);
  }
  parts.push(Buffer.from(parts.length === 0 ? '{}' : '}'));
  return new WireBody(parts);
}

function isNames(names: NameSet | readonly string[]): names is readonly string[] {
  return Array.isArray(names);
}

const QUOTE = Buffer.from('"');

/**
 * UTF-8 text as the inside of a JSON string. Names hold no control characters (they are refused), so only
 * `"` and `\` need escaping, and S3 names hold neither: the usual list is used as it is.
 */
function jsonStringBytes(text: Buffer): Buffer {
  if (text.indexOf(0x22) === -1 && text.indexOf(0x5c) === -1) return text;
  const out: number[] = [];
  for (const byte of text) {
    if (byte === 0x22 || byte === 0x5c) out.push(0x5c);
    out.push(byte);
  }
  return Buffer.from(out);
}

// A comma would split a name into others on the service's side; a control character cannot be meant.
// eslint-disable-next-line no-control-regex
const UNSENDABLE = /[,\u0000-\u001f\u007f-\u009f]/;

/**
 * Refuses a list holding a name that a comma-joined list cannot carry. Names read from the user never do
 * (they are refused with exit 2 when read); names taken from the service's own list can (a sync deleting
 * `a,b` would delete `a` and `b`), so such a list is an answer scpctl cannot act on: exit 7, nothing sent.
 */
export function checkSendable(names: readonly string[], key: ListKey): void {
  for (const name of names) {
    if (UNSENDABLE.test(name)) {
      throw new ResponseError(
        `the service's list holds the name "${visible(name)}", which cannot be sent back in ${key} ` +
          `(${name.includes(',') ? 'a comma would split it into other names' : 'it holds a control character'}); nothing was sent`,
        { hint: 'Remove that entry in the management console, then run the command again.' },
      );
    }
  }
}

/** A plan's modify body: names taken from the service's list are checked to be sendable first. */
export function modifyBody(add: readonly string[], del: readonly string[]): WireBody {
  checkSendable(add, 'addList');
  checkSendable(del, 'deleteList');
  return bodyBytes([['addList', add], ['deleteList', del]]);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(2)} MiB`;
}
