import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { isoSeconds, parseDuration, parseIso8601, parsePeriod, parseTime, periodName } from '../../src/core/time.js';

// 2024-05-01T12:00:00Z
const NOW = 1_714_564_800;

describe('parseTime: Unix seconds', () => {
  it('takes whole seconds as they are', () => {
    expect(parseTime('1714557600', NOW)).toBe(1_714_557_600);
    expect(parseTime('0', NOW)).toBe(0);
    expect(parseTime('  1714557600 ', NOW)).toBe(1_714_557_600);
  });

  it('refuses what looks like milliseconds, on both sides of the edge', () => {
    expect(parseTime('99999999999', NOW)).toBe(99_999_999_999);
    expect(() => parseTime('100000000000', NOW)).toThrow(/milliseconds/);
    expect(() => parseTime('1714557600000', NOW, '--start')).toThrow(/^--start: "1714557600000" looks like milliseconds/);
  });

  it('refuses negative and fractional numbers', () => {
    expect(() => parseTime('-5', NOW)).toThrow(UsageError);
    expect(() => parseTime('1714557600.5', NOW)).toThrow(UsageError);
  });
});

describe('parseTime: relative', () => {
  it.each([
    ['45s', 45],
    ['90m', 5400],
    ['2h', 7200],
    ['3d', 259_200],
    ['2w', 1_209_600],
    ['0s', 0],
    ['2h ago', 7200],
    ['3d  ago', 259_200],
    ['2 h', 7200],
    ['3 days ago', 259_200],
    ['1 hour ago', 3600],
    ['10 mins', 600],
    ['2 weeks', 1_209_600],
    ['30 seconds ago', 30],
    ['2H', 7200],
    ['2h AGO', 7200],
  ])('%s is that long before now', (text, seconds) => {
    expect(parseTime(text, NOW)).toBe(NOW - seconds);
  });

  it('takes now', () => {
    expect(parseTime('now', NOW)).toBe(NOW);
    expect(parseTime('NOW', NOW)).toBe(NOW);
  });

  it.each(['h', '2x', '2 h h', '2 ms', '2mo', '2y', '-2h', '2h later', 'ago', '2h ago ago', '1.5h'])('refuses %j', (text) => {
    expect(() => parseTime(text, NOW, '--start')).toThrow(UsageError);
  });
});

describe('parseTime: ISO 8601', () => {
  it.each([
    ['2024-05-01', 1_714_521_600],
    ['2024-05-01T10:00:00Z', 1_714_557_600],
    ['2024-05-01T10:00:00z', 1_714_557_600],
    ['2024-05-01t10:00:00Z', 1_714_557_600],
    ['2024-05-01 10:00:00Z', 1_714_557_600],
    ['2024-05-01T10:00Z', 1_714_557_600],
    ['2024-05-01T10:00', 1_714_557_600],
    ['2024-05-01T10:00:00', 1_714_557_600],
    ['2024-05-01T10:00:00.999Z', 1_714_557_600],
    ['2024-05-01T10:00:00,5Z', 1_714_557_600],
    ['2024-05-01T12:00:00+02:00', 1_714_557_600],
    ['2024-05-01T12:00:00+0200', 1_714_557_600],
    ['2024-05-01T12:00:00+02', 1_714_557_600],
    ['2024-05-01T04:30:00-05:30', 1_714_557_600],
    ['2024-02-29', 1_709_164_800],
    ['1970-01-01T00:00:00Z', 0],
  ])('%s', (text, seconds) => {
    expect(parseTime(text, NOW)).toBe(seconds);
  });

  it.each([
    '2024-13-01',
    '2024-00-10',
    '2024-02-30',
    '2023-02-29',
    '2024-04-31',
    '2024-05-01T24:00:00Z',
    '2024-05-01T10:60:00Z',
    '2024-05-01T10:00:60Z',
    '2024-05-01T10:00:00+24:00',
    '2024-05-01T10:00:00+02:60',
    '2024-5-1',
    '24-05-01',
    '2024/05/01',
    '2024-05-01Z',
    '2024-05-01T10',
    'May 1 2024',
    '',
    '   ',
  ])('refuses %j', (text) => {
    expect(() => parseTime(text, NOW, '--end')).toThrow(UsageError);
  });

  it('refuses times before 1970', () => {
    expect(() => parseTime('1969-12-31T23:59:59Z', NOW, '--start')).toThrow(/before 1970/);
  });

  it.each(['0099-01-01', '0000-01-01', '0050-06-15T12:00:00Z', '0001-01-01T00:00:00+01:00', '1900-01-01', '1970-01-01T00:30:00+01:00'])(
    'refuses %j as before 1970 (the years 0 to 99 are not 1900 to 1999)',
    (text) => {
      expect(() => parseTime(text, NOW, '--start')).toThrow(UsageError);
      expect(() => parseTime(text, NOW, '--start')).toThrow(/before 1970/);
    },
  );

  it('reads the years 0 to 99 as written', () => {
    expect(parseIso8601('0099-01-01')).toBe(-59_042_995_200);
    expect(parseIso8601('0000-02-29')).toBe(-62_162_121_600);
    expect(parseIso8601('0001-02-29')).toBeUndefined();
  });

  it('names the flag and the accepted forms', () => {
    expect(() => parseTime('yesterday', NOW, '--start')).toThrow(
      /^--start: "yesterday" is not a time; use Unix seconds .*ISO 8601.*ago/,
    );
  });

  it('parseIso8601 gives undefined for malformed text', () => {
    expect(parseIso8601('2024-05-01')).toBe(1_714_521_600);
    expect(parseIso8601('nope')).toBeUndefined();
  });
});

describe('parseDuration', () => {
  it('reads a number and a unit', () => {
    expect(parseDuration('90m')).toBe(5400);
    expect(parseDuration('1 week')).toBe(604_800);
    expect(parseDuration('2h ago')).toBeUndefined();
    expect(parseDuration('99999999999999999w')).toBeUndefined();
  });
});

describe('parsePeriod', () => {
  it.each([
    ['1h', 3600],
    ['24h', 86_400],
    ['7d', 604_800],
    ['30d', 2_592_000],
    ['3600', 3600],
    ['86400', 86_400],
    ['604800', 604_800],
    ['2592000', 2_592_000],
    ['1d', 86_400],
    ['1w', 604_800],
    ['60m', 3600],
    [' 24H ', 86_400],
  ])('%j is %i seconds', (text, seconds) => {
    expect(parsePeriod(text)).toBe(seconds);
  });

  it.each(['2h', '3599', '3601', '86401', '0', '12h', '1m', 'day', '', '-3600'])('refuses %j, listing the periods', (text) => {
    expect(() => parsePeriod(text)).toThrow(UsageError);
    expect(() => parsePeriod(text)).toThrow(/1h \(3600\), 24h \(86400\), 7d \(604800\), 30d \(2592000\)/);
  });

  it('names periods back', () => {
    expect(periodName(86_400)).toBe('24h');
    expect(periodName(30)).toBe('30s');
    expect(isoSeconds(1_714_557_600)).toBe('2024-05-01T10:00:00Z');
  });
});
