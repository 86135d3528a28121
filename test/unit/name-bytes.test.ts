// The byte path for names (core/name-bytes.ts) against the string reader (core/names.ts) it must equal,
// the wire body written from bytes against JSON.stringify, and the fast view reader against the ordinary one.
import { describe, it, expect, vi } from 'vitest';
import fc from 'fast-check';
import { anyText } from './arbitraries.js';
import { runs } from './property-runs.js';
import type { NameOrigin } from '../../src/core/names.js';
import { readBucketNames } from './reference-reader.js';
import { readBucketNameBytes } from '../../src/core/name-bytes.js';
import { NameSet } from '../../src/core/name-set.js';
import { bodyBytes, MAX_LIST_BYTES } from '../../src/core/wire.js';
import { countNames, planSync, type SeparatedNames } from '../../src/core/diff.js';
import { extractBucketList, readResponse } from '../../src/api/response.js';
import { BucketList } from '../../src/api/bucket-list.js';
import type { HttpResponse } from '../../src/api/transport.js';
import { liveNames } from '../../src/library/guard.js';
import { UsageError } from '../../src/errors.js';

const piece = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: fc.constantFrom(...'abz09.-'.split('')), maxLength: 70 }) },
  { weight: 2, arbitrary: fc.constantFrom('xn--abc', 'abc-s3alias', '1.2.3.4', 'a..b', 'sthree-x', 'amzn-s3-demo-q', 'q.mrap', 'Abc', 'ab_c') },
  { weight: 3, arbitrary: fc.constantFrom(',', ' ', '\t', '\n', '\r\n', '\r', '#', '# comment\n', '\uFEFF', 'é', '日本', '😀', '\u00a0', '\u2028', '\u0000', '\u0085', '"', '\\', '\u007f') },
  { weight: 1, arbitrary: anyText({ maxLength: 30 }) },
  { weight: 1, arbitrary: anyText({ maxLength: 20 }) },
);
const text = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join('').toWellFormed());
const origin = fc.constantFrom<NameOrigin>({ kind: 'file', path: 'list.txt' }, { kind: 'stdin' }, { kind: 'arg', index: 2, label: '--add' });
const sources = fc.array(fc.tuple(origin, text), { maxLength: 4 });

describe('readBucketNameBytes equals the text statement of the rules (reference-reader.ts)', () => {
  it.each([true, false])('on random input (validate %s): names, duplicates, invalid names with FILE:LINE', (validate) => {
    fc.assert(
      fc.property(sources, (given) => {
        const expected = readBucketNames(given.map(([o, t]) => ({ origin: o, text: t })), { validate });
        const actual = readBucketNameBytes(given.map(([o, t]) => ({ origin: o, bytes: Buffer.from(t, 'utf8') })), { validate });
        expect(actual.names.names()).toEqual(expected.names);
        expect(actual.names.size).toBe(expected.names.length);
        expect(actual.duplicates).toBe(expected.duplicates);
        expect(actual.invalidCount).toBe(expected.invalidCount);
        expect(actual.invalid).toEqual(expected.invalid);
        // the wire body is what JSON.stringify makes of the string reader's names
        if (expected.names.length > 0) expect(bodyBytes([['list', actual.names]]).toString()).toBe(JSON.stringify({ list: expected.names.join(',') }));
      }),
      { numRuns: runs(2_000) },
    );
  });

  it('reads a large input (over 256 KiB, repeats and invalid names throughout) exactly as the text statement does', () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => (i % 97 === 0 ? 'primer-1' : i % 89 === 0 ? `Not-Valid-${i}` : `bucket-${i}.example`));
    const given = `${lines.join('\n')}\n# the end\n`;
    expect(given.length).toBeGreaterThan(256 * 1024);
    for (const validate of [true, false]) {
      const expected = readBucketNames([{ origin: { kind: 'file', path: 'big.txt' }, text: given }], { validate });
      const actual = readBucketNameBytes([{ origin: { kind: 'file', path: 'big.txt' }, bytes: Buffer.from(given) }], { validate });
      expect(actual.names.names()).toEqual(expected.names);
      expect(actual.duplicates).toBe(expected.duplicates);
      expect(actual.invalidCount).toBe(expected.invalidCount);
      expect(actual.invalid).toEqual(expected.invalid);
    }
  });

  it('drops a BOM only at the start of each source, and keeps lines of CRLF files', () => {
    const bytes = Buffer.from('\uFEFFaaa\r\nbbb # c\r\n\uFEFFccc\r\n', 'utf8');
    const result = readBucketNameBytes([{ origin: { kind: 'file', path: 'f' }, bytes }], { validate: true });
    expect(result.names.names()).toEqual(['aaa', 'bbb']);
    expect(result.invalid).toEqual([{ where: 'f:3', name: '\uFEFFccc', reason: expect.stringContaining('U+FEFF') }]);
  });
});

describe('readBucketNameBytes with a limit (a manifest profile is not held past 8 MiB: issue 34)', () => {
  it.each([true, false])('keeps the names up to just past the limit, checks every name, and counts the rest (validate %s)', (validate) => {
    fc.assert(
      fc.property(sources, fc.integer({ min: 0, max: 120 }), (given, limit) => {
        const expected = readBucketNames(given.map(([o, t]) => ({ origin: o, text: t })), { validate });
        const actual = readBucketNameBytes(given.map(([o, t]) => ({ origin: o, bytes: Buffer.from(t, 'utf8') })), { validate, limit });
        // Every name is still checked: the invalid ones are reported as without a limit.
        expect(actual.invalidCount).toBe(expected.invalidCount);
        expect(actual.invalid).toEqual(expected.invalid);
        const whole = Buffer.byteLength(expected.names.join(','));
        if (actual.beyond === undefined) {
          expect(actual.names.names()).toEqual(expected.names);
        } else {
          // Cut only once past the limit (so the profile fails), and what was kept is the list's start.
          expect(actual.names.byteLength).toBeGreaterThan(limit);
          expect(actual.names.names()).toEqual(expected.names.slice(0, actual.names.size));
          expect(actual.names.size + actual.beyond.names).toBeGreaterThanOrEqual(expected.names.length);
          expect(actual.names.byteLength + actual.beyond.bytes).toBeGreaterThanOrEqual(whole);
        }
        if (whole > limit) expect(actual.names.byteLength).toBeGreaterThan(limit);
        // What is held stays near the limit: at most one name (and its comma) past it.
        const longest = Math.max(0, ...expected.names.map((name) => Buffer.byteLength(name)));
        expect(actual.names.byteLength).toBeLessThanOrEqual(limit + longest + 1);
      }),
      { numRuns: runs(300) },
    );
  });
});

describe('bodyBytes', () => {
  const set = (...names: string[]) => NameSet.of(names);
  it('writes the modify keys only when they have names, escaped as JSON.stringify escapes them, from a set or from names', () => {
    expect(bodyBytes([['addList', set('aaa')], ['deleteList', set()]]).toString()).toBe(JSON.stringify({ addList: 'aaa' }));
    for (const names of [set('b"c', 'd\\e'), ['b"c', 'd\\e']]) {
      expect(bodyBytes([['addList', set()], ['deleteList', names]]).toString()).toBe(JSON.stringify({ deleteList: 'b"c,d\\e' }));
    }
    expect(bodyBytes([['list', set()]]).toString()).toBe('{"list":""}');
  });

  it('refuses a list over 8 MiB, saying its size', () => {
    const big = new NameSet();
    const name = Buffer.from('a'.repeat(63));
    for (let i = 0; big.byteLength <= MAX_LIST_BYTES; i++) {
      const unique = Buffer.concat([name, Buffer.from(String(i))]);
      big.add(unique, 0, unique.length);
    }
    expect(() => bodyBytes([['list', big]])).toThrow(UsageError);
    expect(() => bodyBytes([['list', big]])).toThrow(/8 MiB \(8,388,608 bytes\)/);
  });
});

/** Names where a plain answer's text holds them (readLiveListFast's SeparatedNames), with text around them. */
function separated(names: readonly string[], separator: '","' | ','): SeparatedNames {
  const text = `["${names.join(separator)}"]`;
  return { text, start: 2, end: text.length - 2, count: names.length, separator };
}

describe('the hash of the name set', () => {
  it('is drawn afresh where it is loaded: names cannot be chosen beforehand to fall into the same slots', async () => {
    const hashes = new Set<number>();
    for (let i = 0; i < 3; i++) {
      vi.resetModules();
      const { hashBytes } = await import('../../src/core/name-set.js');
      hashes.add(hashBytes(Buffer.from('bucket-1'), 0, 8));
    }
    expect(hashes.size).toBe(3);
  });

  it('names chosen against the unseeded hash do not crowd the table (a pull request\'s list as an attack)', () => {
    // 20,000 names whose slot under plain FNV-1a (offset 0x811c9dc5, the final mix) falls in the first 4,096
    // of the table's: read with that hash they fill one run of some 20,000 slots, and each probes most of it
    // (600 ms). A wider window than 512 makes them eight times sooner and crowds the table as much.
    const mix = (fnv: number): number => {
      const h = Math.imul(fnv ^ (fnv >>> 15), 0x2c1b3c6d);
      return (h ^ (h >>> 12)) & 0x7fffffff;
    };
    const plainHash = (name: string): number => {
      let h = 0x811c9dc5 | 0;
      for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
      return mix(h);
    };
    const slots = 65_536; // the table the reader makes for 20,000 names of 20 bytes
    const names: string[] = [];
    for (let i = 0; names.length < 20_000; i++) {
      const name = `b-${i.toString(36)}-xxxxxxxxxxxx`.slice(0, 20);
      if ((plainHash(name) & (slots - 1)) < 4096) names.push(name);
    }
    const bytes = Buffer.from(`${names.join('\n')}\n`);
    const started = performance.now();
    const { names: set } = readBucketNameBytes([{ origin: { kind: 'file', path: 'chosen.txt' }, bytes }], { validate: true });
    const ms = performance.now() - started;
    expect(set.size).toBe(20_000);
    expect(ms).toBeLessThan(200);
  });
});

describe('the name set as it grows', () => {
  it('started at its smallest, still finds every name after its table has doubled nine times', () => {
    // Each slot keeps a few bits of its name's hash beside the position (name-set.ts): a table made again
    // must keep them too, or names added before it grew are not found (and are added a second time).
    const names = Array.from({ length: 5_000 }, (_, i) => `bucket-${i.toString(36)}-${i % 7}`);
    const set = new NameSet();
    const bytes = Buffer.from(names.join(','));
    const add = (): number => {
      let added = 0;
      for (let at = 0, i = 0; i < names.length; at += names[i]!.length + 1, i++) if (set.add(bytes, at, at + names[i]!.length)) added++;
      return added;
    };
    expect(add()).toBe(5_000);
    expect(add()).toBe(0);
    expect(set.size).toBe(5_000);
    names.forEach((name, i) => {
      expect(set.indexOfString(name)).toBe(i);
      expect(set.indexOf(Buffer.from(name), 0, name.length)).toBe(i);
    });
    expect(set.indexOfString('bucket-absent')).toBe(-1);
    expect(set.names()).toEqual(names);
  });
});

describe('planSync over the byte set', () => {
  it('agrees with a plain Set reference on random lists, multi-byte names included', () => {
    const name = fc.oneof(fc.constantFrom('aaa', 'bbb', 'ccc', 'ddd', 'é1', 'ü2', '日本'), fc.string({ maxLength: 5 }));
    fc.assert(
      fc.property(fc.array(name, { maxLength: 30 }), fc.array(name, { maxLength: 30 }), (current, desired) => {
        const wanted = desired.map((n) => n.toWellFormed());
        const have = current.map((n) => n.toWellFormed());
        const plan = planSync(have, wanted);
        const haveSet = new Set(have);
        const wantSet = new Set(wanted);
        expect(plan.add).toEqual([...wantSet].filter((n) => !haveSet.has(n)));
        expect(plan.delete).toEqual([...haveSet].filter((n) => !wantSet.has(n)));
        // the current list where a plain answer's text holds it (in an array or one string) plans the same
        for (const separator of ['","', ','] as const) {
          const plain = have.filter((n) => /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(n) && !n.includes('"') && !n.includes(','));
          if (plain.length === 0) continue;
          expect(planSync(separated(plain, separator), wanted)).toEqual(planSync(plain, wanted));
          expect(countNames(separated(plain, separator))).toBe(plain.length);
        }
      }),
      { numRuns: runs(1_000) },
    );
  });
});

describe('planSync on lists that run side by side (the service keeps the order a list was sent in)', () => {
  // The current list is the desired one edited: names dropped, added, repeated, moved. planSync compares
  // each current name with the desired name after the last one found before it hashes: every edit here
  // breaks that run somewhere, and the plan must still be the Set reference's. Names that begin other names
  // ('pre', 'pre-x', 'pre-xy') check that a name found in place ends where the current one does; names that
  // differ in one byte of a four-byte word ('same-name-1', 'saxe-name-1', ...) that it is compared whole.
  const edit = fc.oneof(
    fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), name: fc.constantFrom('new-1', 'new-2', 'aaa', 'é-x', 'pre-xy', 'pr') }),
    fc.record({ kind: fc.constant('repeat' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('move' as const), at: fc.nat(), to: fc.nat() }),
  );
  it('agrees with a plain Set reference, as bytes and as strings', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom(...'abcdefghijklmnop'.split('').map((c) => `${c}${c}${c}`), 'ü-1', '日本', 'pre', 'pre-x', 'same-name-1', 'saxe-name-1', 'samx-name-1', 'same-name-2'), { maxLength: 16 }), fc.array(edit, { maxLength: 6 }), (desired, edits) => {
        const current = desired.slice();
        for (const e of edits) {
          const at = current.length === 0 ? 0 : e.at % current.length;
          if (e.kind === 'drop') current.splice(at, 1);
          else if (e.kind === 'insert') current.splice(at, 0, e.name);
          else if (e.kind === 'repeat' && current.length > 0) current.splice(at, 0, current[at]!);
          else if (e.kind === 'move' && current.length > 0) current.splice(e.to % current.length, 0, ...current.splice(at, 1));
        }
        const haveSet = new Set(current);
        const wantSet = new Set(desired);
        const expected = { add: desired.filter((n) => !haveSet.has(n)), delete: [...haveSet].filter((n) => !wantSet.has(n)) };
        expect(planSync(current, desired)).toEqual(expected);
        expect(planSync(current, NameSet.of(desired))).toEqual(expected);
        const ascii = current.filter((n) => /^[\x20-\x7e]+$/.test(n));
        if (ascii.length === current.length && current.length > 0) {
          expect(planSync(separated(current, '","'), desired)).toEqual(expected);
          expect(planSync(separated(current, ','), NameSet.of(desired))).toEqual(expected);
        }
      }),
      { numRuns: runs(2_000) },
    );
  });
});

/** The ordinary reader, which BucketList.read turns to when the scan steps aside: here a marker of that. */
const STEP_ASIDE = new Error('the ordinary reader');

/** A view answer as BucketList.read holds it from the scan; null where the scan steps aside for the ordinary reader. */
function scanned(raw: { status: number; body: string }): BucketList | null {
  try {
    return BucketList.read('p', raw as HttpResponse, 'view p', () => {
      throw STEP_ASIDE;
    });
  } catch (error) {
    if (error === STEP_ASIDE) return null;
    throw error;
  }
}
const readBucketListFast = (raw: { status: number; body: string }) => scanned(raw)?.names() ?? null;
const readBucketLinesFast = (raw: { status: number; body: string }) => scanned(raw)?.lineForm() ?? null;
const readLiveListFast = (raw: { status: number; body: string }) => scanned(raw)?.live() ?? null;

describe('BucketList.read from the scan equals readResponse + extractBucketList', () => {
  const ordinary = (status: number, body: string): string[] | string => {
    try {
      return extractBucketList(readResponse({ status, body }, 'view p'), body);
    } catch (error) {
      return `error ${(error as Error).constructor.name}`;
    }
  };
  const nameArb = fc.oneof(fc.constantFrom('aaa', ' bbb ', '', 'c,d', 'é', '\u00a0x\u00a0', 'a"b', 'a\\b', '\n', '\u0000scpctl-list-0'), fc.string({ maxLength: 8 }));
  const plainName = fc.stringMatching(/^[a-z0-9.-]{1,12}$/);
  const listValue = fc.oneof(
    fc.array(nameArb, { maxLength: 8 }),
    fc.array(nameArb, { maxLength: 8 }).map((a) => a.join(',')),
    fc.array(plainName, { maxLength: 8 }),
    fc.array(plainName, { maxLength: 8 }).map((a) => a.join(',')),
    fc.jsonValue(),
  );
  const answer = fc.record(
    {
      status: fc.constantFrom('success', 'error', 'ok', 'SUCCESS', 'weird'),
      msg: fc.string({ maxLength: 5 }),
      errors: fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }),
      data: fc.oneof(listValue, fc.record({ list: listValue, bucketList: listValue, buckets: listValue }, { requiredKeys: [] })),
      list: listValue,
      buckets: listValue,
    },
    { requiredKeys: [] },
  );
  const bodyArb = fc.oneof(
    { weight: 5, arbitrary: answer.map((a) => JSON.stringify(a)) },
    { weight: 2, arbitrary: fc.tuple(answer, fc.constantFrom(' ', '\n  ', '\t')).map(([a, space]) => JSON.stringify(a, null, space)) },
    { weight: 1, arbitrary: fc.tuple(answer, fc.nat(80)).map(([a, n]) => JSON.stringify(a).slice(0, n)) },
    { weight: 1, arbitrary: fc.constantFrom('{"data":["a"],"data":["b"]}', '{"data":["a",1]}', '{"data":"a\\u002cb"}', '{"data":["\\ud800"]}', '[1]', '{"data":["a\u0001"]}', '{"data":["x\\"]","y"]}', '{"data":["a-1","b-2"],"msg":"\\"]"}', '{"data":["a-1","b"]x"]}') },
  );

  it('on random answers: the same names, or the fast reader steps aside', () => {
    const count = runs(3_000);
    let taken = 0;
    fc.assert(
      fc.property(fc.constantFrom(200, 201, 400, 500), bodyArb, (status, body) => {
        const fast = readBucketListFast({ status, body });
        const lines = readBucketLinesFast({ status, body });
        const live = readLiveListFast({ status, body });
        const kept = live === null ? null : liveNames(live);
        // the fast readers step aside for the same answers, and the lines are the names, one a line
        expect(lines === null).toBe(fast === null);
        expect(kept === null).toBe(fast === null);
        expect(live === null).toBe(fast === null);
        // sync's form of the list: the names where the answer's text holds them, or the names themselves
        if (live !== null && !Array.isArray(live)) {
          const { text, start, end, count, separator } = live as SeparatedNames;
          expect(text.slice(start, end).split(separator)).toEqual(fast);
          expect(count).toBe(fast!.length);
          expect(planSync(live, ['other-1', ...fast!.slice(1)])).toEqual(planSync(fast!, ['other-1', ...fast!.slice(1)]));
        } else if (live !== null) expect(live).toEqual(fast);
        // the JSON kept for the history is one line that parses to the names; it is taken where lines are
        if (kept !== null && !Array.isArray(kept)) {
          const { json, count } = kept as { json: string; count: number };
          expect(json).not.toContain('\n');
          expect(JSON.parse(json)).toEqual(fast);
          expect(count).toBe(fast!.length);
          expect(Buffer.isBuffer(lines)).toBe(true);
        } else if (kept !== null) expect(kept).toEqual(fast);
        if (fast !== null) {
          taken++;
          expect(fast).toEqual(ordinary(status, body));
          // plain lists come as the bytes stdout gets (the same as joining the names); any other as the names
          if (Buffer.isBuffer(lines)) expect(lines.equals(Buffer.from(fast.join('\n')))).toBe(true);
          else expect(lines).toEqual(fast);
        }
      }),
      { numRuns: count },
    );
    // the comparison is not vacuous: the fast reader answers a good share of them itself (about a fifth)
    expect(taken).toBeGreaterThan(count / 10);
  });

  it('gives sync the answer\'s text only where it is ASCII: there a name\'s bytes are its characters', () => {
    // 'xé-1' is the bytes 78 c3 a9 2d 31; read as characters, 'xÃ©-1' is the same numbers.
    const live = readLiveListFast({ status: 200, body: '{"status":"success","data":["a-1","xÃ©-1"]}' });
    expect(planSync(live!, ['a-1', 'xé-1'])).toEqual({ add: ['xé-1'], delete: ['xÃ©-1'] });
    const plain = readLiveListFast({ status: 200, body: '{"status":"success","data":["a-1","b-2"]}' });
    expect(Array.isArray(plain)).toBe(false);
  });

  it('keeps a plain ASCII list for the history as the answer wrote it, anything else as names', () => {
    const json = (body: string) => liveNames(readLiveListFast({ status: 200, body })!);
    expect(json('{"status":"success","data":["a-1","b-2","c-3"]}')).toEqual({ json: '["a-1","b-2","c-3"]', count: 3 });
    expect(json('{"data":["café-x","b"]}')).toEqual(['café-x', 'b']); // beyond ASCII: the names
    expect(json('{"data":["a-1", "b-2"]}')).toEqual(['a-1', 'b-2']); // not tight
    expect(json('{"data":["ab ","c"]}')).toEqual(['ab', 'c']); // trimmed
    expect(json('{"data":["a",""]}')).toEqual(['a']); // an empty name dropped
    expect(json('{"data":["a\\u0041"]}')).toEqual(['aA']); // an escape: the names
    expect(json('{"data":"a,b"}')).toEqual(['a', 'b']); // one string
    expect(json('{"data":[]}')).toEqual([]);
  });

  it('takes the usual answer itself', () => {
    const body = JSON.stringify({ status: 'success', msg: '', data: ['bucket-1', ' bucket-2 ', '', 'a\\"b'] });
    expect(readBucketListFast({ status: 200, body })).toEqual(['bucket-1', 'bucket-2', 'a\\"b']);
    expect(readBucketListFast({ status: 200, body: '{"data":{"list":"a, b,,c"}}' })).toEqual(['a', 'b', 'c']);
    expect(readBucketLinesFast({ status: 200, body: '{"status":"success","data":["a-1","b-2","c-3"]}' })?.toString()).toBe('a-1\nb-2\nc-3');
    // Plain names beyond ASCII, in an array or one string: their UTF-8 bytes, one a line.
    expect(readBucketLinesFast({ status: 200, body: '{"data":["café-x","b","x-名前-1"]}' })).toEqual(Buffer.from('café-x\nb\nx-名前-1'));
    // A name beginning or ending beyond ASCII is not plain (it may need trimming): the names.
    expect(readBucketLinesFast({ status: 200, body: '{"data":["名前-1","b"]}' })).toEqual(['名前-1', 'b']);
    expect(readBucketLinesFast({ status: 200, body: '{"data":"café-x,b"}' })).toEqual(Buffer.from('café-x\nb'));
    expect(readBucketLinesFast({ status: 200, body: '{"data":"a,b,c-3"}' })).toEqual(Buffer.from('a\nb\nc-3'));
    // Not plain: the names themselves, for the caller to show (one may hold a newline or a control character).
    expect(readBucketLinesFast({ status: 200, body: '{"data":["a-1", "b-2"," c "]}' })).toEqual(['a-1', 'b-2', 'c']);
    expect(readBucketLinesFast({ status: 200, body: '{"data":["a","\\u0001","n\\nl"]}' })).toEqual(['a', '\u0001', 'n\nl']);
    expect(readBucketLinesFast({ status: 200, body: '{"data":["a","b\u0001"]}' })).toBeNull(); // raw control: not JSON
    // A name that ends in something trimmed, or that a plain line would show otherwise: the names, trimmed.
    expect(readBucketLinesFast({ status: 200, body: '{"data":["ab ","c"]}' })).toEqual(['ab', 'c']);
    expect(readBucketLinesFast({ status: 200, body: '{"data":["ab"," c"]}' })).toEqual(['ab', 'c']);
    expect(readBucketLinesFast({ status: 200, body: '{"data":"ab, c"}' })).toEqual(['ab', 'c']);
    expect(readBucketLinesFast({ status: 200, body: '{"data":["ab","c\u00a0"]}' })).toEqual(['ab', 'c']);
    expect(readBucketLinesFast({ status: 200, body: '{"data":"ab ,c"}' })).toEqual(['ab', 'c']);
    expect(readBucketLinesFast({ status: 200, body: JSON.stringify({ data: ['a\\b', 'c'] }) })).toEqual(['a\\b', 'c']);
    // Inside a name, spaces, DEL and other characters are plain; at its ends they are not.
    expect(Buffer.isBuffer(readBucketLinesFast({ status: 200, body: '{"data":["a b","c\u007fd","é-x-é"]}' }))).toBe(false);
    expect(readBucketLinesFast({ status: 200, body: '{"data":["a b","c\u007fd","xé-x"]}' })?.toString()).toBe('a b\nc\u007fd\nxé-x');
  });
});
