// A bucket name that is (or holds) a token scpctl knows is refused before it can be printed in a plan,
// kept in history or sent as a bucket. The attack: a pull request points a manifest's `files:` (or a list
// file turned into a symlink) at the CI runner's token file; a lower-case hex token is a valid bucket name.
// The search runs over each source whole (comments included): a token has no business in a list file.
// Every line that holds one is named, with the input's invalid names, in one error.
import { UsageError } from '../errors.js';
import { MIN_SECRET_LENGTH, maskSecret, mayHoldSecret } from './secrets.js';
import { MAX_REPORTED_INVALID, describeInvalidNames, describeOrigin, lineCounter, type InvalidNames, type NameOrigin } from './names.js';

export interface SecretSearchSource {
  origin: NameOrigin;
  /** The source as read: text, or UTF-8 bytes. */
  content: string | Uint8Array;
  /** The line the content starts on, when it is part of a larger file; 1 if not given. */
  line?: number;
}

/** What every refusal says in place of the name: the name itself would be the token. */
export const SECRET_NAME_REASON = 'a name that looks like the API token (not shown)';

/** What the mask leaves of a token: a name holding it is a stand-in, never a name to send. */
const MASK = '***';

/** Whether `name` holds a form of one of `secrets` (the forms the mask knows: the same test, so the same names). */
export function holdsSecret(name: string, secrets: readonly string[]): boolean {
  return mayHoldSecret(name, secrets) && maskSecret(name, secrets) !== name;
}

/** Whether `name` is (or holds) what the mask leaves: a name stored masked because it held a token. */
export function isMaskedName(name: string): boolean {
  return name.includes(MASK);
}

/** Names as they may rest on disk: each holding a token masked (most lists hold none: one search, no copy). */
export function maskNames(names: readonly string[], secrets: readonly string[]): readonly string[] {
  if (!names.some((name) => mayHoldSecret(name, secrets))) return names;
  return names.map((name) => maskSecret(name, secrets));
}

/**
 * Throws a usage error (exit 2) naming each line of the sources that holds one of `secrets` (`FILE:LINE: a
 * name that looks like the API token (not shown)`), followed by the input's invalid names (`invalid`, as the
 * name reader reports them), the first 20 in all and then how many more; the secret is never quoted.
 * Tokens shorter than MIN_SECRET_LENGTH are not searched for, as the mask does not search for them.
 */
export function refuseSecretNames(sources: readonly SecretSearchSource[], secrets: readonly string[], invalid?: InvalidNames): void {
  const searched = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  if (searched.length === 0) return;
  const lines = sources.flatMap(({ origin, content, line: first = 1 }) =>
    linesHolding(content, searched).map((line) => describeOrigin(origin, first - 1 + line)),
  );
  const places = [...new Set(lines)];
  if (places.length === 0) return;
  // A line already named for the token is not named again as an invalid name (its quote would be masked anyway).
  const others = (invalid?.invalid ?? []).filter((name) => !places.includes(name.where));
  const otherCount = Math.max(0, (invalid?.invalidCount ?? 0) - ((invalid?.invalid.length ?? 0) - others.length));
  const named = places.slice(0, MAX_REPORTED_INVALID).map((where) => `${where}: ${SECRET_NAME_REASON}`);
  // The lines left unnamed, of both kinds, are counted in describeInvalidNames's `… and N more`.
  const shown = others.slice(0, MAX_REPORTED_INVALID - named.length);
  const details = [...named, ...describeInvalidNames({ invalid: shown, invalidCount: places.length - named.length + otherCount }, secrets)];
  const also = otherCount > 0 ? ` (and ${otherCount} invalid bucket name${otherCount === 1 ? '' : 's'})` : '';
  const error = new UsageError(`${places.length === 1 ? 'a line holds' : `${places.length} lines hold`} a name that looks like the API token${also}; nothing was sent`, {
    hint: 'A list file or manifest must not point at a token file. Check the paths given with -f and in the manifest.',
  });
  error.details = details;
  throw error;
}

/** The 1-based lines of `content` that hold one of `secrets`, in order, each once. */
function linesHolding(content: string | Uint8Array, secrets: readonly string[]): number[] {
  const view = typeof content === 'string' ? content : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const offsets: number[] = [];
  for (const secret of secrets) {
    for (let at = view.indexOf(secret); at >= 0; at = view.indexOf(secret, at + secret.length)) offsets.push(at);
  }
  if (offsets.length === 0) return [];
  const lineAt = lineCounter(view); // asked in increasing order, as it counts the text through once
  return [...new Set(offsets.sort((a, b) => a - b).map((at) => lineAt(at)))];
}
