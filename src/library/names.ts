// Names given to the library as values (an array, or one string with the usual separators) read by the one
// name reader, with the rules of contract section 3: checked, de-duplicated, a token refused as a name;
// invalid ones are one usage error listing them, as the CLI lists them.
import { UsageError } from '../errors.js';
import { MAX_REPORTED_INVALID, describeInvalidNames } from '../core/names.js';
import { readBucketNameBytes, type ByteNameSource, type ByteNamesResult } from '../core/name-bytes.js';
import { refuseSecretNames } from '../core/secret-names.js';
import type { NamesInput } from './public.js';

/** Reads `names`, labelled in messages as `label N` (`name 2`, `add 1`); invalid ones are in the result, for invalidNamesError. */
export function namesGiven(names: NamesInput, label: string, tokens: readonly string[], validate: boolean): ByteNamesResult {
  const list = typeof names === 'string' ? [names] : [...names];
  list.forEach((text, i) => {
    if (typeof text !== 'string') throw new UsageError(`${label} ${i + 1}: a bucket name must be a string, not ${text === null ? 'null' : typeof text}`);
  });
  // One buffer, an item a line, where no item holds a line break (item N is then line N): a Buffer an item
  // costs many times more on a long list.
  const sources: ByteNameSource[] = list.some((text) => /[\r\n]/.test(text))
    ? list.map((text, i) => ({ origin: { kind: 'arg', index: i + 1, label }, bytes: Buffer.from(text, 'utf8') }))
    : [{ origin: { kind: 'items', label }, bytes: Buffer.from(list.join('\n'), 'utf8') }];
  return checkedNames(sources, tokens, validate);
}

/**
 * The one read of names from their sources (the CLI's arguments and files, the library's values, a manifest's
 * lists and files): split, checked and de-duplicated, invalid ones in the result for invalidNamesError. A line
 * holding a known token stops it here, named with the other lines that do and with the invalid names. `limit`:
 * the bytes a list may hold, past which names are checked but not kept (name-bytes.ts).
 */
export function checkedNames(sources: readonly ByteNameSource[], tokens: readonly string[], validate: boolean, limit?: number): ByteNamesResult {
  const result = readBucketNameBytes(sources, { validate, limit });
  refuseSecretNames(sources.map(({ origin, bytes, line }) => ({ origin, content: bytes, line })), tokens, result);
  return result;
}

/**
 * One usage error listing every invalid name of every result (the first 20, then how many more), each masked
 * of `tokens` before it is cut, or null when all are valid: nothing is sent when any is not.
 */
export function invalidNamesError(validate: boolean, results: readonly ByteNamesResult[], tokens: readonly string[]): UsageError | null {
  const invalidCount = results.reduce((sum, result) => sum + result.invalidCount, 0);
  if (invalidCount === 0) return null;
  const invalid = results.flatMap((result) => result.invalid).slice(0, MAX_REPORTED_INVALID);
  return Object.assign(new UsageError(`${invalidCount} invalid bucket name${invalidCount === 1 ? '' : 's'}; nothing was sent`, {
    hint: validate ? 'S3 bucket names: 3-63 characters of a-z, 0-9, "." and "-". --no-validate lifts the rules.' : undefined,
  }), { details: describeInvalidNames({ invalid, invalidCount }, tokens) });
}
