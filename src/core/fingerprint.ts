// The fingerprint of a live bucket list, as a saved plan records it: a digest of the sorted set of names,
// so that the service returning the same names in another order (or twice) is not taken for a change.
import { createHash } from 'node:crypto';

export function fingerprintList(names: readonly string[]): string {
  const unique = [...new Set(names)];
  // Sorted by UTF-16 code units: any fixed order will do, as long as it is the same on both sides.
  unique.sort();
  const hash = createHash('sha256');
  // JSON-quoted, one a line: no name (even one holding a newline) can run into the next.
  for (const name of unique) hash.update(`${JSON.stringify(name)}\n`);
  return `sha256:${hash.digest('hex')}`;
}
