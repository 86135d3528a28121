// Integers beyond 2^53 kept digit for digit (contract section 5), and nothing else changed.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { markUnsafeIntegers, parseExactJson, stringifyExactJson } from '../../src/core/exact-json.js';

describe('parseExactJson', () => {
  it('keeps a 19-digit ID exact, where JSON.parse loses digits', () => {
    const text = '{"request_id":1234567890123456789,"n":5}';
    expect(String((JSON.parse(text) as { request_id: number }).request_id)).not.toBe('1234567890123456789');
    expect(parseExactJson(text)).toEqual({ request_id: 1234567890123456789n, n: 5 });
  });

  it('keeps negative and 25-digit integers, in arrays and nested objects', () => {
    expect(parseExactJson('[-9223372036854775808,{"a":[1234567890123456789012345]}]')).toEqual([
      -9223372036854775808n,
      { a: [1234567890123456789012345n] },
    ]);
  });

  it('leaves safe integers, floats and exponents as numbers', () => {
    expect(parseExactJson('[9007199254740991,1234567890123456.5,12345678901234567e2,-0.1]')).toEqual([
      9007199254740991, 1234567890123456.5, 12345678901234567e2, -0.1,
    ]);
  });

  it('never touches digits inside strings, escaped quotes included', () => {
    const text = '{"s":"1234567890123456789","t":"a\\"1234567890123456789\\"","u":1234567890123456789}';
    expect(parseExactJson(text)).toEqual({ s: '1234567890123456789', t: 'a"1234567890123456789"', u: 1234567890123456789n });
  });

  it('a string from the service that looks like a marker stays a string', () => {
    const sneaky = '{"x":"\\u0000exact-000000000000:1234567890123456789","y":1234567890123456789}';
    expect(parseExactJson(sneaky)).toEqual({ x: '\u0000exact-000000000000:1234567890123456789', y: 1234567890123456789n });
  });

  it('throws SyntaxError on bad JSON like JSON.parse', () => {
    expect(() => parseExactJson('{"a":1234567890123456789')).toThrow(SyntaxError);
    expect(() => parseExactJson('{"a":12345678901234567890x}')).toThrow(SyntaxError);
  });

  it('gives back any JSON text unchanged through stringifyExactJson, and JSON.parse\'s value where it is exact', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const parsed = parseExactJson(text);
        expect(stringifyExactJson(parsed)).toBe(text);
        if (!/\d{16}/.test(text)) expect(parsed).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips any big integer through parse and stringify, digit for digit', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.string(), (n, s) => {
        const text = `{"id":${n},"s":${JSON.stringify(s)}}`;
        expect(stringifyExactJson(parseExactJson(text))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('markUnsafeIntegers', () => {
  it('returns the same string when nothing needs marking', () => {
    const text = '{"a":"12345678901234567890","b":1}';
    expect(markUnsafeIntegers(text)).toBe(text);
  });
});

describe('stringifyExactJson', () => {
  it('is JSON.stringify when there is no BigInt', () => {
    const value = { a: [1, 'x', null, { b: true }] };
    expect(stringifyExactJson(value)).toBe(JSON.stringify(value));
  });

  it('writes BigInt as bare digits, even beside strings that hold digits', () => {
    expect(stringifyExactJson({ id: 1234567890123456789n, s: '1234567890123456789' })).toBe(
      '{"id":1234567890123456789,"s":"1234567890123456789"}',
    );
  });
});
