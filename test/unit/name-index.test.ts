import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NameIndex } from '../../src/core/name-index.js';

describe('NameIndex', () => {
  it('adds new names once, in order, and knows their positions', () => {
    const index = new NameIndex(2);
    expect(index.add('alpha')).toBe(true);
    expect(index.add('beta')).toBe(true);
    expect(index.add('alpha')).toBe(false);
    expect(index.names).toEqual(['alpha', 'beta']);
    expect(index.indexOf('beta')).toBe(1);
    expect(index.indexOf('gamma')).toBe(-1);
    expect(index.indexOf('alpha')).toBe(0);
    expect(index.size).toBe(2);
  });

  it('grows past its expected size without losing names', () => {
    const index = new NameIndex(1);
    for (let i = 0; i < 10_000; i++) expect(index.add(`name-${i}`)).toBe(true);
    for (let i = 0; i < 10_000; i++) expect(index.indexOf(`name-${i}`)).toBe(i);
    expect(index.add('name-42')).toBe(false);
  });

  it('tells apart strings that differ only in one code unit, and the empty string', () => {
    const index = NameIndex.of(['ab', 'ba', 'a\u0000b', '', 'é', 'e\u0301']);
    expect(index.size).toBe(6);
    expect(index.indexOf('')).toBe(3);
    expect(index.indexOf('e\u0301')).toBe(5);
  });

  it('agrees with a Set for any list of strings', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 300 }), fc.array(fc.string({ maxLength: 6 }), { maxLength: 50 }), (added, probes) => {
        const index = NameIndex.of(added);
        const reference = [...new Set(added)];
        expect(index.names).toEqual(reference);
        for (const probe of [...probes, ...added]) expect(index.indexOf(probe)).toBe(reference.indexOf(probe));
      }),
      { numRuns: 500 },
    );
  });
});
