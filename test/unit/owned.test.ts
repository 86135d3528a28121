// The one rule for files and folders that must be the user's alone (src/files/owned.ts).
import { describe, expect, it } from 'vitest';
import { notOwnReason } from '../../src/files/owned.js';

describe('notOwnReason', () => {
  it('owned and writable by the user alone: no reason', () => {
    expect(notOwnReason({ uid: 1000, mode: 0o40700 }, 1000)).toBeUndefined();
    expect(notOwnReason({ uid: 1000, mode: 0o100600 }, 1000)).toBeUndefined();
  });

  it('writable by the group or the world, or owned by another user: named', () => {
    expect(notOwnReason({ uid: 1000, mode: 0o40777 }, 1000)).toBe('is writable by others (mode 777)');
    expect(notOwnReason({ uid: 1000, mode: 0o100620 }, 1000)).toBe('is writable by others (mode 620)');
    expect(notOwnReason({ uid: 0, mode: 0o40700 }, 1000)).toBe('is owned by another user (uid 0)');
  });

  it("root's and sticky folders only where the caller allows them", () => {
    expect(notOwnReason({ uid: 0, mode: 0o40755 }, 1000, { root: true })).toBeUndefined();
    expect(notOwnReason({ uid: 1000, mode: 0o41777 }, 1000, { sticky: true })).toBeUndefined();
    expect(notOwnReason({ uid: 1000, mode: 0o41777 }, 1000)).toBe('is writable by others (mode 777)');
  });

  it('no POSIX owners (uid undefined): only the mode counts', () => {
    expect(notOwnReason({ uid: 5, mode: 0o40700 }, undefined)).toBeUndefined();
  });
});
