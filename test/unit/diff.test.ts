// The plan of `buckets sync`: add what is desired and missing, delete what is there and not desired.
import { describe, it, expect } from 'vitest';
import { isInSync, planDeletion, planSync } from '../../src/core/diff.js';
import { NameSet } from '../../src/core/name-set.js';

describe('planSync', () => {
  it('adds only', () => {
    expect(planSync(['aaa'], ['aaa', 'bbb', 'ccc'])).toEqual({ add: ['bbb', 'ccc'], delete: [] });
  });

  it('deletes only', () => {
    expect(planSync(['aaa', 'bbb', 'ccc'], ['bbb'])).toEqual({ add: [], delete: ['aaa', 'ccc'] });
  });

  it('adds and deletes', () => {
    expect(planSync(['aaa', 'bbb'], ['bbb', 'ccc'])).toEqual({ add: ['ccc'], delete: ['aaa'] });
  });

  it('plans nothing when the lists hold the same names, whatever their order', () => {
    const plan = planSync(['aaa', 'bbb', 'ccc'], ['ccc', 'aaa', 'bbb']);
    expect(plan).toEqual({ add: [], delete: [] });
    expect(isInSync(plan)).toBe(true);
  });

  it('says a plan with changes is not in sync', () => {
    expect(isInSync(planSync(['aaa'], []))).toBe(false);
    expect(isInSync(planSync([], ['aaa']))).toBe(false);
  });

  it('handles empty sides', () => {
    expect(planSync([], [])).toEqual({ add: [], delete: [] });
    expect(planSync([], ['aaa', 'bbb'])).toEqual({ add: ['aaa', 'bbb'], delete: [] });
    expect(planSync(['aaa', 'bbb'], [])).toEqual({ add: [], delete: ['aaa', 'bbb'] });
  });

  it('keeps the desired order for additions and the current order for deletions', () => {
    const plan = planSync(['zzz', 'keep', 'aaa', 'mmm'], ['yyy', 'keep', 'bbb', 'xxx']);
    expect(plan.add).toEqual(['yyy', 'bbb', 'xxx']);
    expect(plan.delete).toEqual(['zzz', 'aaa', 'mmm']);
  });

  it('lists a name repeated on the desired side once', () => {
    expect(planSync(['aaa'], ['bbb', 'aaa', 'bbb', 'ccc', 'bbb'])).toEqual({ add: ['bbb', 'ccc'], delete: [] });
  });

  it('lists a name repeated on the current side once', () => {
    expect(planSync(['aaa', 'bbb', 'aaa', 'ccc', 'aaa'], ['ccc'])).toEqual({ add: [], delete: ['aaa', 'bbb'] });
  });

  it('does not delete a repeated current name that is desired, nor add a repeated desired name that is there', () => {
    expect(planSync(['aaa', 'aaa'], ['aaa', 'aaa'])).toEqual({ add: [], delete: [] });
  });

  it('compares names exactly (case and whitespace matter)', () => {
    expect(planSync(['Abc', 'abc '], ['abc'])).toEqual({ add: ['abc'], delete: ['Abc', 'abc '] });
  });

  it('does not change its inputs', () => {
    const current = ['aaa', 'bbb'];
    const desired = ['bbb', 'ccc'];
    planSync(current, desired);
    expect(current).toEqual(['aaa', 'bbb']);
    expect(desired).toEqual(['bbb', 'ccc']);
  });

  it('diffs 100,000 × 100,000 names with 1% different in linear time (the bench measures 400,000)', () => {
    const size = 100_000;
    // Names as they arrive from a file or an answer: pieces of one big text, fresh for each run.
    const text = Array.from({ length: size }, (_, i) => `bucket-${String(i).padStart(7, '0')}.example`).join(',');
    const build = (): { current: string[]; desired: string[]; changed: string[] } => {
      const current = text.split(',');
      const desired = text.split(',');
      const changed: string[] = [];
      for (let i = 0; i < size; i += 100) {
        changed.push(current[i]!);
        desired[i] = `new-bucket-${i}`;
      }
      return { current, desired, changed };
    };
    planSync(['warm', 'up'], ['up', 'jit']);
    // The least any hash-based diff must do: hash every fresh name once. It calibrates for slow or busy machines.
    // The fastest of three, as for the plan below, so that one pause does not set the bound.
    const hashing = (): number => {
      const fresh = build();
      const started = performance.now();
      const seen = new Set<string>();
      for (const name of fresh.current) seen.add(name);
      for (const name of fresh.desired) seen.add(name);
      return performance.now() - started;
    };
    const reference = Math.min(hashing(), hashing(), hashing());
    const bound = Math.max(250, 4 * reference);

    // Up to three tries, so that one pause of a busy machine does not decide.
    const times: number[] = [];
    while (times.length < 3 && !(Math.min(...times) < bound)) {
      const { current, desired, changed } = build();
      const started = performance.now();
      const plan = planSync(current, desired);
      times.push(performance.now() - started);
      expect(plan.add).toHaveLength(size / 100);
      expect(plan.delete).toHaveLength(size / 100);
      expect(plan.delete).toEqual(changed);
      expect(plan.add[0]).toBe('new-bucket-0');
      expect(plan.add.at(-1)).toBe(`new-bucket-${size - 100}`);
    }
    const best = Math.min(...times);
    console.log(
      `planSync 100,000 × 100,000 (1% different): ${times.map((t) => t.toFixed(1)).join(' / ')} ms ` +
        `(hashing the 200,000 names alone: ${reference.toFixed(1)} ms)`,
    );
    // Under a second on any ordinary machine; on a slow or busy one, no more than a few times the bare hashing.
    // A quadratic plan would take minutes either way.
    expect(best).toBeLessThan(bound);
  });
});

describe('planDeletion (delete, modify): what the request really removes and adds', () => {
  it('delete: removes what the list holds, names the rest as absent, and sees an emptied list', () => {
    expect(planDeletion(['aaa', 'bbb'], NameSet.of(['bbb', 'zzz']))).toEqual({ plan: { add: [], delete: ['bbb'] }, absent: ['zzz'], emptied: false });
    expect(planDeletion(['aaa'], NameSet.of(['aaa'])).emptied).toBe(true);
    expect(planDeletion([], NameSet.of(['aaa']))).toEqual({ plan: { add: [], delete: [] }, absent: ['aaa'], emptied: false });
  });

  it('modify: deletes first, then adds; a name deleted and added again stays; adding anything is never empty', () => {
    const { plan, absent, emptied } = planDeletion(['aaa', 'bbb'], NameSet.of(['aaa', 'bbb', 'ccc']), NameSet.of(['bbb', 'ddd']));
    expect(plan).toEqual({ add: ['ddd'], delete: ['aaa'] });
    expect(absent).toEqual(['ccc']);
    expect(emptied).toBe(false);
  });
});
