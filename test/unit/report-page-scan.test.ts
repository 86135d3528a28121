// The report page read a slice at a time (api/report-page-scan.ts) against the ordinary reader: for any
// answer, either it steps aside, or the skeleton reads as a success with no records and the slices, taken
// in any cut, are exactly the records the ordinary reader builds.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runs } from './property-runs.js';
import { scanReportPage } from '../../src/api/report-page-scan.js';
import { extractRecords, readResponse } from '../../src/api/response.js';

const ordinary = (body: string): unknown => {
  try {
    return extractRecords(readResponse({ status: 200, body }, 'report', { exact: true }), body);
  } catch (error) {
    return `error ${(error as Error).constructor.name}`;
  }
};

/** What the client makes of a scanned page: its records when the skeleton is a success, else the ordinary reader's. */
const scanned = (body: string): { records: unknown; cuts: (size: number) => unknown[] } | null => {
  const page = scanReportPage(Buffer.from(body));
  if (!page) return null;
  const skeleton = ordinary(page.skeleton);
  if (!Array.isArray(skeleton) || skeleton.length !== 0) return null; // the client then reads the answer whole
  const cuts = (size: number): unknown[] => {
    const out: unknown[] = [];
    for (let from = 0; from < page.length; from += size) out.push(...page.records(from, Math.min(page.length, from + size)));
    return out;
  };
  return { records: page.records(0, page.length), cuts };
};

describe('scanReportPage', () => {
  it('finds the records of a usual page, 19-digit numbers and multi-byte text included', () => {
    const body = '{"status":"success","msg":"","data":[{"request_id":1234567890123456789,"user":"zoë 🚀"} , {"a":[1,{"b":"}"}]}],"total":2}';
    const page = scanReportPage(Buffer.from(body))!;
    expect(page.length).toBe(2);
    expect(page.skeleton).toBe('{"status":"success","msg":"","data":[],"total":2}');
    expect(page.records(0, 2)).toEqual([{ request_id: 1234567890123456789n, user: 'zoë 🚀' }, { a: [1, { b: '}' }] }]);
    expect(page.records(1, 2)).toEqual([{ a: [1, { b: '}' }] }]);
  });

  it('takes escaped quotes and backslashes in strings as they are', () => {
    const body = String.raw`{"data":[{"a":"x\"}],y","b":"\\"},{"c\"":"\\\"]"}],"status":"success"}`;
    const page = scanReportPage(Buffer.from(body))!;
    expect(page).not.toBeNull();
    expect(page.records(0, page.length)).toEqual(JSON.parse(body).data);
  });

  it('leaves the syntax inside a record to JSON.parse: building it throws SyntaxError (the client words it)', () => {
    for (const record of ['{"a":tru}', '{"a":01}', '{"a":1.}', '{"a" 1}', `{"a":"${String.fromCharCode(1)}"}`, String.raw`{"a":"\x"}`]) {
      const page = scanReportPage(Buffer.from(`{"data":[{"ok":1},${record}]}`));
      expect(page, record).not.toBeNull();
      expect(page!.records(0, 1)).toEqual([{ ok: 1 }]);
      expect(() => page!.records(1, 2), record).toThrow(SyntaxError);
    }
  });

  it('steps aside for what the ordinary reader must word or judge', () => {
    for (const body of [
      '[{"a":1}]', // records at the top
      '{"data":[{"a":1}],"data":[{"b":2}]}', // a repeated key: JSON.parse keeps the last
      '{"d\\u0061ta":[{"a":1}]}', // an escaped key
      '{"data":[1,2]}', // records that are not objects
      '{"data":{"a":1}}',
      '{"data":[{"a":1}]', // cut off
      '{"data":[{"a":"1}]}',
      `{"data":[${'['.repeat(300)}]}`,
      `{"data":[{"a":${'['.repeat(300)}${']'.repeat(300)}}]}`,
      '{"data":[{"a":1}]} x',
      '',
    ]) {
      expect(scanReportPage(Buffer.from(body)), body).toBeNull();
    }
  });

  const value = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.constantFrom('}', ']', '"', '\\', '{"', 'é', '\u2028'),
    fc.integer(),
    fc.bigInt({ min: -(10n ** 19n), max: 10n ** 19n }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
  );
  const record = fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(value, fc.array(value, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 3 }), value, { maxKeys: 2 })), { maxKeys: 5 });
  const answer = fc.record(
    {
      status: fc.constantFrom('success', 'error', 'ok', 'weird'),
      msg: fc.string({ maxLength: 5 }),
      error: fc.constantFrom(null, false, '', 'boom'),
      data: fc.oneof({ weight: 5, arbitrary: fc.array(record, { maxLength: 12 }) }, { weight: 1, arbitrary: fc.jsonValue() }),
      total: fc.nat(),
    },
    { requiredKeys: [] },
  );
  const json = (v: unknown, space?: string): string =>
    JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `\u0000big${x}` : x), space).replace(/"\\u0000big(-?\d+)"/g, '$1');
  const bodyArb = fc.oneof(
    { weight: 4, arbitrary: answer.map((a) => json(a)) },
    { weight: 2, arbitrary: fc.tuple(answer, fc.constantFrom(' ', '\n  ', '\t')).map(([a, space]) => json(a, space)) },
    { weight: 1, arbitrary: fc.tuple(answer, fc.nat(200)).map(([a, n]) => json(a).slice(0, n)) },
  );

  it('on random answers: the records of the ordinary reader in any cut, or it steps aside', () => {
    let taken = 0;
    const count = runs(3_000);
    fc.assert(
      fc.property(bodyArb, fc.integer({ min: 1, max: 5 }), (body, size) => {
        const page = scanned(body);
        if (page === null) return;
        taken++;
        const expected = ordinary(body);
        expect(page.records).toEqual(expected);
        expect(page.cuts(size)).toEqual(expected);
      }),
      { numRuns: count },
    );
    // not vacuous: most successful answers are taken by the scan
    expect(taken).toBeGreaterThan(count / 10);
  });
});
