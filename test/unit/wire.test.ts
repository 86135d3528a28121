// The wire format of bucket lists (contract sections 3 and 4): comma-joined, at most 8 MiB of UTF-8 per list.
import { describe, it, expect } from 'vitest';
import { bodyBytes, MAX_LIST_BYTES, modifyBody, type ListKey } from '../../src/core/wire.js';
import { ScpctlError, UsageError } from '../../src/errors.js';
import { caught } from './caught.js';

const LIMIT = 8_388_608;

/** A list's wire string, as the one body writer puts it under `key` (an empty modify key is left out: ''). */
function joinList(names: readonly string[], key: ListKey): string {
  return (JSON.parse(bodyBytes([[key, names]]).toString()) as Record<string, string>)[key] ?? '';
}

/** A modify body as the object it encodes. */
const sentBody = (add: readonly string[], del: readonly string[]): Record<string, string> => JSON.parse(modifyBody(add, del).toString()) as Record<string, string>;

/** Names whose comma-joined form is exactly `bytes` bytes long (ASCII). */
function namesOfBytes(bytes: number, nameLength = 63): string[] {
  const names: string[] = [];
  let total = 0;
  while (total < bytes) {
    const sep = names.length === 0 ? 0 : 1;
    const room = bytes - total - sep;
    const length = Math.min(nameLength, room);
    if (length <= 0) {
      // not enough room for a comma and a name: lengthen the previous name instead
      names[names.length - 1] += 'z'.repeat(bytes - total);
      total = bytes;
      break;
    }
    names.push('a'.repeat(length));
    total += sep + length;
  }
  return names;
}

describe('a list on the wire', () => {
  it('joins with commas and nothing else', () => {
    expect(joinList(['aaa', 'bbb', 'ccc'], 'list')).toBe('aaa,bbb,ccc');
    expect(joinList(['one'], 'list')).toBe('one');
    expect(joinList([], 'list')).toBe('');
  });

  it('has the limit 8 MiB = 8,388,608 bytes', () => {
    expect(MAX_LIST_BYTES).toBe(LIMIT);
  });

  it('accepts a list of exactly 8,388,608 bytes (many names)', () => {
    const names = namesOfBytes(LIMIT);
    const joined = joinList(names, 'list');
    expect(Buffer.byteLength(joined, 'utf8')).toBe(LIMIT);
  });

  it('refuses a list one byte over (many names) with a usage error (exit 2) naming the size and the limit', () => {
    const names = namesOfBytes(LIMIT + 1);
    expect(names.join(',').length).toBe(LIMIT + 1);
    const error = caught(() => joinList(names, 'list'));
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toBeInstanceOf(ScpctlError);
    expect((error as UsageError).exitCode).toBe(2);
    const message = (error as Error).message;
    expect(message).toMatch(/8,388,609/);
    expect(message).toMatch(/8,388,608|8 MiB/);
  });

  it('accepts one name of exactly the limit and refuses one a byte longer', () => {
    expect(joinList(['a'.repeat(LIMIT)], 'list')).toHaveLength(LIMIT);
    expect(() => joinList(['a'.repeat(LIMIT + 1)], 'list')).toThrow(UsageError);
  });

  it('counts the commas', () => {
    // two names of LIMIT/2 bytes: LIMIT + 1 bytes with the comma
    const half = 'b'.repeat(LIMIT / 2);
    expect(() => joinList([half, half], 'list')).toThrow(UsageError);
    expect(joinList([half, 'c'.repeat(LIMIT / 2 - 1)], 'list')).toHaveLength(LIMIT);
  });

  it('counts UTF-8 bytes, not characters (2-byte é)', () => {
    const atLimit = 'é'.repeat(LIMIT / 2); // 4,194,304 characters, 8,388,608 bytes
    expect(Buffer.byteLength(joinList([atLimit], 'list'))).toBe(LIMIT);
    const over = caught(() => joinList([atLimit + 'x'], 'list'));
    expect(over).toBeInstanceOf(UsageError);
    expect((over as Error).message).toMatch(/8,388,609/);
  });

  it('counts UTF-8 bytes for 3- and 4-byte characters', () => {
    // 2,796,202 × 3 bytes = 8,388,606; two ASCII bytes more reach the limit, three go over
    const euros = '€'.repeat(2_796_202);
    expect(() => joinList([euros + 'xy'], 'list')).not.toThrow();
    expect(() => joinList([euros + 'xyz'], 'list')).toThrow(UsageError);
    const emoji = '😀'.repeat(LIMIT / 4); // 4 bytes, 2 UTF-16 units each
    expect(() => joinList([emoji], 'list')).not.toThrow();
    expect(() => joinList([emoji, ''], 'list')).toThrow(UsageError); // the comma is the 8,388,609th byte
  });

  it('names the key that is over the limit', () => {
    const big = ['a'.repeat(LIMIT + 1)];
    expect((caught(() => joinList(big, 'addList')) as Error).message).toContain('addList');
    expect((caught(() => joinList(big, 'deleteList')) as Error).message).toContain('deleteList');
  });
});

describe('modifyBody', () => {
  it('carries both keys when both have names, spelled addList and deleteList', () => {
    const body = sentBody(['aaa', 'bbb'], ['ccc']);
    expect(body).toEqual({ addList: 'aaa,bbb', deleteList: 'ccc' });
    expect(Object.keys(body).sort()).toEqual(['addList', 'deleteList']);
  });

  it('leaves out deleteList when there is nothing to delete', () => {
    const body = sentBody(['aaa'], []);
    expect(body).toEqual({ addList: 'aaa' });
    expect('deleteList' in body).toBe(false);
    expect(modifyBody(['aaa'], []).toString()).toBe('{"addList":"aaa"}');
  });

  it('leaves out addList when there is nothing to add', () => {
    expect(modifyBody([], ['ddd', 'eee']).toString()).toBe('{"deleteList":"ddd,eee"}');
  });

  it('is {} when both are empty', () => {
    expect(modifyBody([], []).toString()).toBe('{}');
  });

  it('applies the limit to each list separately', () => {
    const justUnder = namesOfBytes(LIMIT);
    const body = sentBody(justUnder, justUnder);
    expect(Buffer.byteLength(body.addList!)).toBe(LIMIT);
    expect(Buffer.byteLength(body.deleteList!)).toBe(LIMIT);
    const over = namesOfBytes(LIMIT + 1);
    const addOver = caught(() => modifyBody(over, ['aaa']));
    expect(addOver).toBeInstanceOf(UsageError);
    expect((addOver as Error).message).toContain('addList');
    const deleteOver = caught(() => modifyBody(['aaa'], over));
    expect(deleteOver).toBeInstanceOf(UsageError);
    expect((deleteOver as Error).message).toContain('deleteList');
  });
});
