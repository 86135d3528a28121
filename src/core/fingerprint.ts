// The fingerprint of a live bucket list, as a saved plan records it: a digest of the sorted set of names,
// so that the service returning the same names in another order (or twice) is not taken for a change.

/** node:crypto, loaded at the first fingerprint: every command reads lists, few take a fingerprint (docs/performance.md). */
export const crypto = (): typeof import('node:crypto') => process.getBuiltinModule('node:crypto');

export function fingerprintList(names: readonly string[]): string {
  const unique = [...new Set(names)];
  // Sorted by UTF-16 code units: any fixed order will do, as long as it is the same on both sides.
  unique.sort();
  // JSON-quoted, one a line: no name (even one holding a newline) can run into the next. Hashed as one
  // string: 400,000 small updates cost several times more than one large one.
  const text = unique.length === 0 ? '' : `${unique.map((name) => JSON.stringify(name)).join('\n')}\n`;
  return `sha256:${crypto().createHash('sha256').update(text).digest('hex')}`;
}
