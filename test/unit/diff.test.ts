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
