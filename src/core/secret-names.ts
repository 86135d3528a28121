// A bucket name that is (or holds) a token scpctl knows is refused before it can be printed in a plan,
// kept in history or sent as a bucket. The attack: a pull request points a manifest's `files:` (or a list
// file turned into a symlink) at the CI runner's token file; a lower-case hex token is a valid bucket name.
// The search runs over each source whole (comments included): a token has no business in a list file.
import { UsageError } from '../errors.js';
import { MIN_SECRET_LENGTH, maskSecret, mayHoldSecret } from './secrets.js';
import { describeOrigin, type NameOrigin } from './names.js';

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
 * Throws a usage error (exit 2) naming where each source holds one of `secrets`; the secret is never quoted.
 * Tokens shorter than MIN_SECRET_LENGTH are not searched for, as the mask does not search for them.
 */
export function refuseSecretNames(sources: readonly SecretSearchSource[], secrets: readonly string[]): void {
  const searched = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  if (searched.length === 0) return;
  const found: string[] = [];
  for (const { origin, content, line = 1 } of sources) {
    let first = -1;
    for (const secret of searched) {
      const at = typeof content === 'string' ? content.indexOf(secret) : Buffer.from(content.buffer, content.byteOffset, content.byteLength).indexOf(secret);
      if (at >= 0 && (first < 0 || at < first)) first = at;
    }
    if (first >= 0) found.push(`${describeOrigin(origin, line - 1 + lineAt(content, first))}: ${SECRET_NAME_REASON}`);
  }
  if (found.length === 0) return;
  const error = new UsageError(`${found.length === 1 ? 'an input holds' : `${found.length} inputs hold`} a name that looks like the API token; nothing was sent`, {
    hint: 'A list file or manifest must not point at a token file. Check the paths given with -f and in the manifest.',
  });
  error.details = found;
  throw error;
}

/** The 1-based line of offset `at` (a byte offset for bytes, a character offset for text). */
function lineAt(content: string | Uint8Array, at: number): number {
  let line = 1;
  if (typeof content === 'string') {
    for (let i = content.indexOf('\n'); i >= 0 && i < at; i = content.indexOf('\n', i + 1)) line++;
  } else {
    for (let i = 0; i < at; i++) if (content[i] === 0x0a) line++;
  }
  return line;
}
