import { describe, expect, it } from 'vitest';
import { planDigest } from '../../src/core/plan-digest.js';
import type { DigestedProfile } from '../../src/core/plan-digest.js';

const profile = (over: Partial<DigestedProfile> = {}): DigestedProfile => ({ profile: 'finance', add: ['a-data', 'b-data'], delete: ['c-logs'], fingerprint: 'sha256:1', status: 'planned', ...over });

describe('planDigest', () => {
  it('is the same for the same changes in any order of names, and differs for any other change', () => {
    const base = planDigest([profile(), profile({ profile: 'legal', add: [], delete: [] })]);
    expect(base).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(planDigest([profile({ add: ['b-data', 'a-data'] }), profile({ profile: 'legal', add: [], delete: [] })])).toBe(base);
    const others = [
      [profile({ add: ['a-data'] }), profile({ profile: 'legal', add: [], delete: [] })],
      [profile({ fingerprint: 'sha256:2' }), profile({ profile: 'legal', add: [], delete: [] })],
      [profile({ profile: 'legal', add: [], delete: [] }), profile()],
      [profile({ add: ['a-data'], delete: ['b-data', 'c-logs'] }), profile({ profile: 'legal', add: [], delete: [] })],
      [profile({ add: ['a-data', 'b-data'], delete: ['c-logs'], status: 'failed', error: { message: 'x', exitCode: 4 } }), profile({ profile: 'legal', add: [], delete: [] })],
      [profile()],
    ];
    for (const plan of others) expect(planDigest(plan)).not.toBe(base);
  });

  it('no name runs into the next: a newline or a quote inside a name is not a second name', () => {
    expect(planDigest([profile({ add: ['a\n+"b"'], delete: [] })])).not.toBe(planDigest([profile({ add: ['a', 'b'], delete: [] })]));
  });
});
