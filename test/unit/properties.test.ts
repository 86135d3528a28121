// Properties over arbitrary input: the readers never crash, and agree with small reference models
// written from the contract (section 3 for names, section 5 for answers, section 2 for base URLs).
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { anyText } from './arbitraries.js';
import { runs } from './property-runs.js';
import { checkWireSafe, MAX_REPORTED_INVALID, validateS3Name } from '../../src/core/names.js';
import { readBucketNameBytes } from '../../src/core/name-bytes.js';
import type { NameSource } from './reference-reader.js';
import { extractBucketList, extractRecords, readResponse } from '../../src/api/response.js';
import { normalizeBaseUrl } from '../../src/settings/base-url.js';
import { ScpctlError, UsageError } from '../../src/errors.js';

// ---------- reference models ----------

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const isLetterOrDigit = (c: string | undefined): boolean => c !== undefined && c.length === 1 && (LOWER.includes(c) || DIGITS.includes(c));

/** The S3 rules of contract section 3, written out one by one. */
function referenceValid(name: string): boolean {
  const chars = Array.from(name);
  if (chars.length < 3 || chars.length > 63) return false;
  if (!chars.every((c) => c.length === 1 && (LOWER.includes(c) || DIGITS.includes(c) || c === '.' || c === '-'))) return false;
  if (!isLetterOrDigit(chars[0]) || !isLetterOrDigit(chars[chars.length - 1])) return false;
  for (let i = 1; i < chars.length; i++) if (chars[i] === '.' && chars[i - 1] === '.') return false;
  const parts = name.split('.');
  if (parts.length === 4 && parts.every((p) => p.length > 0 && Array.from(p).every((c) => DIGITS.includes(c)))) return false;
  for (const prefix of ['xn--', 'sthree-', 'amzn-s3-demo-']) if (name.slice(0, prefix.length) === prefix) return false;
  for (const suffix of ['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3']) {
    if (name.length >= suffix.length && name.slice(name.length - suffix.length) === suffix) return false;
  }
  return true;
}

/** Comma, whitespace (Unicode White_Space, and the BOM JavaScript counts as space) or a control character. */
const referenceUnsafe = (name: string): boolean => /[,\p{White_Space}\p{Cc}\uFEFF]/u.test(name);

/** The tokens of one text per contract section 3: BOM at the start, LF/CRLF lines, `#` comments, `,` space tab. */
function referenceTokens(text: string): string[] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const tokens: string[] = [];
  for (let line of body.split('\n')) {
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const hash = line.indexOf('#');
    if (hash >= 0) line = line.slice(0, hash);
    let current = '';
    for (const c of line) {
      if (c === ',' || c === ' ' || c === '\t') {
        if (current !== '') tokens.push(current);
        current = '';
      } else current += c;
    }
    if (current !== '') tokens.push(current);
  }
  return tokens;
}

function referenceRead(texts: string[], validate: boolean) {
  const ok = validate ? referenceValid : (n: string) => !referenceUnsafe(n);
  const names: string[] = [];
  let duplicates = 0;
  let invalidCount = 0;
  for (const text of texts) {
    for (const token of referenceTokens(text)) {
      if (!ok(token)) invalidCount++;
      else if (names.includes(token)) duplicates++;
      else names.push(token);
    }
  }
  return { names, duplicates, invalidCount };
}

// ---------- arbitraries ----------

const nameChar = fc.constantFrom(...'abcxyz0129.-'.split(''), 'A', 'Z', '_', 'é', ' ', '\u0000', '\u00a0');
const s3ish = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: fc.constantFrom(...'abz09.-'.split('')), minLength: 0, maxLength: 70 }) },
  { weight: 2, arbitrary: fc.string({ unit: nameChar, maxLength: 66 }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom('', 'xn--', 'sthree-', 'amzn-s3-demo-', 'xn-', 'sthree', 'amzn-s3-demo', 'a'),
        fc.string({ unit: fc.constantFrom('a', 'b', '1', '-', '.'), maxLength: 55 }),
        fc.constantFrom('', '-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3', 's3alias', '-ol-s3', 'mrap', '-x-s3', '-table-s3', 'z'),
      )
      .map(([p, m, s]) => p + m + s),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.array(fc.oneof(fc.nat(999).map(String), fc.constantFrom('', 'a', '01', '1a')), { minLength: 2, maxLength: 6 }))
      .map(([parts]) => parts.join('.')),
  },
  { weight: 1, arbitrary: anyText({ maxLength: 70 }) },
  { weight: 1, arbitrary: fc.nat(80).map((n) => 'a'.repeat(n)) },
);

const separatorish = fc.constantFrom(',', ' ', '\t', '\n', '\r\n', '\r', '#', '\uFEFF', ',,,,', '    ', '\n\n\n', '# comment\n');
const textOfNames = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.oneof(s3ish, separatorish), { maxLength: 40 }).map((parts) => parts.join('')) },
  { weight: 2, arbitrary: anyText({ maxLength: 200 }) },
  { weight: 1, arbitrary: anyText({ maxLength: 100 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(',', ' ', '\t', '\n', '\r\n', ', \t'), fc.integer({ min: 1, max: 20_000 }), s3ish)
      .map(([sep, n, name]) => sep.repeat(n) + name + sep.repeat(n)),
  },
  { weight: 1, arbitrary: fc.array(fc.constantFrom('aaa', 'bbb', 'aaa', 'Bad', 'ccc'), { maxLength: 50 }).map((a) => a.join('\n')) },
);
const sourcesArb = fc.array(
  fc.tuple(fc.constantFrom('file', 'stdin', 'arg'), textOfNames).map(
    ([kind, text]): NameSource => ({
      origin: kind === 'file' ? { kind: 'file', path: 'list.txt' } : kind === 'stdin' ? { kind: 'stdin' } : { kind: 'arg', index: 1 },
      // What the reader can be handed: UTF-8 (read-input refuses anything else), so no lone surrogate.
      text: text.toWellFormed(),
    }),
  ),
  { maxLength: 4 },
);

// ---------- names ----------

describe('properties: bucket names', () => {
  it('validateS3Name never throws and agrees with the reference rules', () => {
    fc.assert(
      fc.property(fc.oneof(s3ish, anyText(), fc.string()), (name) => {
        const reason = validateS3Name(name);
        expect(reason === null).toBe(referenceValid(name));
        if (reason !== null) expect(reason.length).toBeGreaterThan(0);
      }),
      { numRuns: runs(5_000) },
    );
  });

  it('checkWireSafe never throws and refuses exactly commas, whitespace and control characters', () => {
    fc.assert(
      fc.property(fc.oneof(anyText(), s3ish, fc.string({ unit: nameChar })), (name) => {
        expect(checkWireSafe(name) === null).toBe(!referenceUnsafe(name));
      }),
      { numRuns: runs(3_000) },
    );
  });

  it.each([true, false])('the name reader (validate %s) never throws and matches the reference reader', (validate) => {
    fc.assert(
      fc.property(sourcesArb, (sources) => {
        const read = readBucketNameBytes(sources.map(({ origin, text }) => ({ origin, bytes: Buffer.from(text, 'utf8') })), { validate });
        const result = { ...read, names: read.names.names() };
        const check = validate ? validateS3Name : checkWireSafe;
        // every name passes the rule in force, and no name is there twice
        for (const name of result.names) expect(check(name)).toBeNull();
        expect(new Set(result.names).size).toBe(result.names.length);
        // the counts add up: every token is a kept name, a dropped repeat, or an invalid name
        const tokens = sources.reduce((sum, s) => sum + referenceTokens(s.text).length, 0);
        expect(result.names.length + result.duplicates + result.invalidCount).toBe(tokens);
        expect(result.invalid.length).toBe(Math.min(MAX_REPORTED_INVALID, result.invalidCount));
        for (const i of result.invalid) expect(check(i.name)).not.toBeNull();
        // and the reader agrees with the reference one name for name
        expect(result).toMatchObject(referenceRead(sources.map((s) => s.text), validate));
      }),
      { numRuns: runs(1_500) },
    );
  });
});

// ---------- answers ----------

const statusArb = fc.oneof(
  fc.constantFrom(200, 201, 204, 301, 400, 401, 403, 404, 409, 429, 500, 502, 503),
  fc.integer({ min: 0, max: 999 }),
);
const errorishObject = fc.record(
  {
    status: fc.oneof(fc.constantFrom('error', 'ERROR', 'success', 'ok', 'fail', 'weird', ''), fc.jsonValue()),
    errorCode: fc.oneof(fc.string(), fc.integer(), fc.jsonValue()),
    errors: fc.oneof(fc.array(fc.string()), fc.string(), fc.jsonValue(), fc.array(fc.record({ message: fc.jsonValue() }))),
    message: fc.oneof(fc.string(), fc.jsonValue()),
    msg: fc.oneof(fc.string(), fc.jsonValue()),
    error: fc.oneof(fc.string(), fc.jsonValue(), fc.record({ message: fc.string() })),
    data: fc.jsonValue(),
  },
  { requiredKeys: [] },
);
const bodyArb = fc.oneof(
  fc.string(),
  anyText(),
  fc.json(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.anything().map((v) => JSON.stringify(v) ?? ''),
  errorishObject.map((v) => JSON.stringify(v)),
  fc.tuple(errorishObject, fc.nat(60)).map(([v, n]) => JSON.stringify(v).slice(0, n)), // truncated answers
);

const listShaped = fc.record(
  {
    data: fc.oneof(
      fc.jsonValue(),
      fc.record(
        { list: fc.jsonValue(), bucketList: fc.array(fc.string()), buckets: fc.oneof(fc.string(), fc.jsonValue()) },
        { requiredKeys: [] },
      ),
      fc.array(fc.string()),
    ),
    list: fc.oneof(fc.string(), fc.jsonValue()),
    bucketList: fc.oneof(fc.array(fc.string()), fc.jsonValue()),
    buckets: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

function expectScpctlError(error: unknown, codes: number[]): void {
  if (!(error instanceof ScpctlError)) throw new Error(`not an ScpctlError: ${String(error)}`);
  expect(codes).toContain(error.exitCode);
}

describe('properties: answers', () => {
  it('readResponse returns or throws an ScpctlError with exit 1, 3, 4, 5, 6 or 7', () => {
    fc.assert(
      fc.property(statusArb, bodyArb, fc.string({ maxLength: 30 }), (status, body, what) => {
        let value: unknown;
        try {
          value = readResponse({ status, body }, what);
        } catch (error) {
          expectScpctlError(error, [1, 3, 4, 5, 6, 7]);
          if (status === 429 || (status >= 500 && status <= 599)) expect((error as ScpctlError).exitCode).toBe(6);
          return;
        }
        // a success is a 2xx with a JSON body
        expect(status).toBeGreaterThanOrEqual(200);
        expect(status).toBeLessThan(300);
        expect(value).toEqual(JSON.parse(body));
      }),
      { numRuns: runs(4_000) },
    );
  });

  it('readResponse never succeeds on an error status or an error body', () => {
    fc.assert(
      fc.property(statusArb, errorishObject, (status, object) => {
        const body = JSON.stringify(object);
        const saysError = typeof object.status === 'string' && object.status.trim().toLowerCase() === 'error';
        fc.pre(status >= 400 || saysError);
        expect(() => readResponse({ status, body }, 'op p')).toThrow(ScpctlError);
      }),
      { numRuns: runs(1_500) },
    );
  });

  it('extractBucketList returns strings or throws exit 7', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), listShaped), (body) => {
        let list: unknown;
        try {
          list = extractBucketList(body, JSON.stringify(body) ?? '');
        } catch (error) {
          expectScpctlError(error, [7]);
          return;
        }
        expect(Array.isArray(list)).toBe(true);
        for (const name of list as unknown[]) {
          expect(typeof name).toBe('string');
          expect(name).not.toBe('');
        }
      }),
      { numRuns: runs(3_000) },
    );
  });

  it('extractRecords returns plain objects or throws exit 7', () => {
    const recordsShaped = fc.oneof(
      fc.jsonValue(),
      fc.array(fc.dictionary(fc.string(), fc.jsonValue())),
      fc.record({ data: fc.oneof(fc.jsonValue(), fc.array(fc.dictionary(fc.string(), fc.jsonValue()))) }, { requiredKeys: [] }),
    );
    fc.assert(
      fc.property(recordsShaped, (body) => {
        let records: unknown;
        try {
          records = extractRecords(body, JSON.stringify(body) ?? '');
        } catch (error) {
          expectScpctlError(error, [7]);
          return;
        }
        expect(Array.isArray(records)).toBe(true);
        for (const r of records as unknown[]) {
          expect(typeof r).toBe('object');
          expect(r).not.toBeNull();
          expect(Array.isArray(r)).toBe(false);
        }
      }),
      { numRuns: runs(3_000) },
    );
  });
});

// ---------- base URLs ----------

describe('properties: base URLs', () => {
  const urlish = fc.oneof(
    fc.string(),
    anyText(),
    fc.domain(),
    fc
      .tuple(
        fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', '', '//'),
        fc.oneof(fc.domain(), fc.ipV4(), fc.ipV6().map((h) => `[${h}]`), fc.constantFrom('localhost', '127.0.0.1', '[::1]')),
        fc.constantFrom('', ':8080', ':0', ':99999'),
        fc.constantFrom('', '/', '/tenant-a', '/tenant-a/', '/api/v1', '/a b', '//', '/%7Etenant/%2F', '/ü'),
        // fc.webUrl would draw these too, but builds a map of 1.1 million code points first (test/unit/arbitraries.ts)
        fc.constantFrom('', '?', '?a=1', '?q=%20x&b', '#', '#frag', '?a=1#f', '@user'),
      )
      .map((parts) => parts.join('')),
  );

  it('normalizeBaseUrl returns an http(s) URL or throws a usage error (exit 2)', () => {
    fc.assert(
      fc.property(urlish, (input) => {
        let url: URL;
        try {
          url = normalizeBaseUrl(input);
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
          expect((error as UsageError).exitCode).toBe(2);
          return;
        }
        expect(url).toBeInstanceOf(URL);
        expect(['https:', 'http:']).toContain(url.protocol);
        if (url.protocol === 'http:') {
          const host = url.hostname.replace(/^\[|\]$/g, '');
          expect(host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)).toBe(true);
        }
        expect(url.search).toBe('');
        expect(url.hash).toBe('');
        expect(url.username + url.password).toBe('');
        expect(url.pathname === '/' || !url.pathname.endsWith('/')).toBe(true);
      }),
      { numRuns: runs(4_000) },
    );
  });
});
