// A record written as the bytes it came in must be exactly what parsing and writing it would give.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isCanonicalJson } from '../../src/api/canonical-json.js';
import { parseExactJson, stringifyExactJson } from '../../src/core/exact-json.js';
import { safeJsonText } from '../../src/core/service-text.js';

const canonical = (text: string): boolean => {
  const bytes = Buffer.from(text);
  return isCanonicalJson(bytes, 0, bytes.length);
};
const written = (text: string): string => safeJsonText(stringifyExactJson(parseExactJson(text)));

describe('isCanonicalJson', () => {
  it('takes a compact record of plain strings, integers (big ones too), booleans, null and nesting', () => {
    for (const text of [
      '{"timestamp":1795577453,"user":"marco9@example.com","request_id":7196923083554021859,"ok":true,"gone":null}',
      '{"a":[1,-2,0,"x",{"b":false}],"c":{}}',
      '[]',
      '"a string"',
      '-12345678901234567890123',
    ]) {
      expect(canonical(text), text).toBe(true);
      expect(written(text)).toBe(text);
    }
  });

  it('refuses what JSON.stringify or the sanitiser would write otherwise', () => {
    for (const text of [
      '{"a": 1}', // space
      '{"a":1}\n',
      '{"a":"caf\\u00e9"}', // an escape
      '{"a":"café"}', // not ASCII
      '{"a":"tab\there"}',
      '{"a":"del\u007f"}',
      '{"a":1.0}',
      '{"a":1e3}',
      '{"a":-0}',
      '{"a":01}',
      '{"a":1,"a":2}', // JSON.parse keeps the last
      '{"b":1,"10":2}', // V8 lists integer keys first
      '{"a":tru}',
      '{"a":1',
      `${'['.repeat(20)}${']'.repeat(20)}`,
    ]) {
      expect(canonical(text), text).toBe(false);
    }
  });

  it('never takes bytes that parsing and writing would change', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const text = pretty ? JSON.stringify(value, null, 1) : JSON.stringify(value);
        if (text === undefined || !canonical(text)) return;
        expect(written(text)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('takes what scpctl writes of ASCII records with integers', () => {
    const record = fc.dictionary(fc.string({ unit: fc.constantFrom(...'abcxyz_-@. 0123456789'.split('')) }).filter((k) => !/^\d+$/.test(k)), fc.oneof(fc.integer(), fc.bigInt(), fc.boolean(), fc.constant(null), fc.string({ unit: fc.constantFrom(...'ab ~{}[]:,\'/'.split('')) })));
    fc.assert(
      fc.property(record, (value) => {
        const text = stringifyExactJson(value);
        expect(canonical(text), text).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
