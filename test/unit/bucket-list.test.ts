// BucketList (api/bucket-list.ts): the one value a view read gives, the same names whatever shape the
// answer has, and a bad answer refused at the read, never later at a use of the list.
import { describe, expect, it } from 'vitest';
import { BucketList } from '../../src/api/bucket-list.js';
import { ResponseError } from '../../src/errors.js';

const ordinary = (): string[] => {
  throw new ResponseError('read the ordinary way');
};
const read = (body: string): BucketList => BucketList.read('p', { status: 200, body } as Parameters<typeof BucketList.read>[1], 'viewBucketList p', ordinary);

describe('BucketList', () => {
  it('holds the same names, lines and wire text for every usual shape of the answer', () => {
    for (const body of ['{"status":"success","data":["a-1","b-2","a-1"]}', '{"data":"a-1, b-2,,a-1"}', '{"data":{"bucketList":["a-1"," b-2","a-1"]}}']) {
      const list = read(body);
      expect([list.size, list.names(), [...list], list.has('b-2'), list.has('c-3')], body).toEqual([3, ['a-1', 'b-2', 'a-1'], ['a-1', 'b-2', 'a-1'], true, false]);
      expect([list.lines(), list.wire()], body).toEqual(['a-1\nb-2\na-1\n', 'a-1,b-2,a-1']);
    }
    expect(read('{"data":[]}').lines()).toBe('');
  });

  it('a name with an escape is decoded; one that does not parse fails at the read, with the ordinary reader\'s error', () => {
    expect(read('{"data":["a\\u0062-c","d-e"]}').names()).toEqual(['ab-c', 'd-e']);
    expect(() => read('{"data":["a-b","c\\xd"]}')).toThrow('read the ordinary way');
  });

  it('its fingerprint is of the set (order and repeats do not count); diff says what to add and delete', () => {
    const list = read('{"data":["a-1","b-2"]}');
    expect(read('{"data":["b-2","a-1","b-2"]}').fingerprint()).toBe(list.fingerprint());
    expect(list.fingerprint()).not.toBe(read('{"data":["a-1"]}').fingerprint());
    expect(list.diff(['b-2', 'c-3'])).toEqual({ add: ['c-3'], delete: ['a-1'] });
    expect(list.diff(read('{"data":["a-1","b-2"]}'))).toEqual({ add: [], delete: [] });
    // names() is a copy: changing it changes nothing in the list.
    list.names().push('x-9');
    expect(list.size).toBe(2);
  });
});
