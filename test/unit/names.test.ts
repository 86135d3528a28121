// Bucket names in (contract section 3): splitting, comments, the S3 naming rules, duplicates, locations.
import { describe, it, expect } from 'vitest';
import {
  checkWireSafe,
  describeInvalidNames,
  MAX_REPORTED_INVALID,
  quoteName,
  validateS3Name,
  type NameOrigin,
} from '../../src/core/names.js';
import { readBucketNameBytes } from '../../src/core/name-bytes.js';
import type { NameSource } from './reference-reader.js';

const file = (text: string, path = 'list.txt'): NameSource => ({ origin: { kind: 'file', path }, text });
const stdin = (text: string): NameSource => ({ origin: { kind: 'stdin' }, text });
const arg = (text: string, index: number, label?: string): NameSource => ({
  origin: { kind: 'arg', index, ...(label === undefined ? {} : { label }) } as NameOrigin,
  text,
});
/** The one reader (bytes in), its names as strings: what every command reads names through. */
const read = (sources: NameSource[], validate = true) => {
  const result = readBucketNameBytes(sources.map(({ origin, text }) => ({ origin, bytes: Buffer.from(text, 'utf8') })), { validate });
  return { ...result, names: result.names.names() };
};
const namesOf = (text: string, validate = true) => read([file(text)], validate).names;

describe('validateS3Name: length', () => {
  it.each([
    ['abc', 3],
    ['a'.repeat(63), 63],
    ['a' + '-'.repeat(61) + 'a', 63],
    ['a' + '.'.repeat(1) + 'b', 3],
  ])('accepts %j (%i characters)', (name) => {
    expect(validateS3Name(name)).toBeNull();
  });

  it.each([
    ['', 0],
    ['a', 1],
    ['ab', 2],
    ['a'.repeat(64), 64],
    ['a'.repeat(100), 100],
  ])('refuses %j (%i characters)', (name) => {
    expect(validateS3Name(name)).not.toBeNull();
  });

  it('says why a name is too short or too long', () => {
    expect(validateS3Name('ab')).toMatch(/3/);
    expect(validateS3Name('a'.repeat(64))).toMatch(/63/);
  });
});

describe('validateS3Name: characters', () => {
  it.each(['abc', 'a-b', 'a.b', '0ab', 'ab9', '123', 'my-bucket.example-01', 'a1-2.3b'])('accepts %j', (name) => {
    expect(validateS3Name(name)).toBeNull();
  });

  it.each([
    'Abc',
    'abC',
    'aBc',
    'ab_c',
    'ab c',
    'ab\tc',
    'ab,c',
    'abé',
    'ab/c',
    'ab:c',
    'ab+c',
    'ab\u0000c',
    'ab\u00a0c',
    'ab😀c',
    'аbc', // Cyrillic а
  ])('refuses %j', (name) => {
    expect(validateS3Name(name)).not.toBeNull();
  });

  it('names upper case as the reason', () => {
    expect(validateS3Name('MyBucket')).toMatch(/upper/i);
  });

  it('names the offending character, with control characters spelled as code points', () => {
    expect(validateS3Name('ab_c')).toContain('"_"');
    expect(validateS3Name('ab\u0001c')).toContain('U+0001');
  });
});

describe('validateS3Name: first and last character', () => {
  it.each(['-abc', 'abc-', '.abc', 'abc.', '-ab-', '.a.', '---', '...'])('refuses %j', (name) => {
    expect(validateS3Name(name)).not.toBeNull();
  });

  it.each(['a-c', '1-2', 'a.1', '9bc', 'ab0'])('accepts %j', (name) => {
    expect(validateS3Name(name)).toBeNull();
  });
});

describe('validateS3Name: adjacent periods', () => {
  it.each(['a..b', 'abc..def', 'a...b'])('refuses %j', (name) => {
    expect(validateS3Name(name)).toMatch(/period/i);
  });

  it.each(['a.b.c', 'a.-b', 'a-.b', 'a--b'])('accepts %j', (name) => {
    expect(validateS3Name(name)).toBeNull();
  });
});

describe('validateS3Name: IPv4 shape', () => {
  it.each(['192.168.5.4', '1.2.3.4', '0.0.0.0', '255.255.255.255', '999.999.999.999', '01.02.03.04'])('refuses %j', (name) => {
    expect(validateS3Name(name)).toMatch(/IP/);
  });

  it.each(['192.168.5.4a', 'a192.168.5.4', '1.2.3', '1.2.3.4.5', '192.168.5.a', '1-2.3.4'])('accepts %j', (name) => {
    expect(validateS3Name(name)).toBeNull();
  });
});

describe('validateS3Name: reserved prefixes and suffixes', () => {
  it.each([
    ['xn--abc', 'xn--'],
    ['xn--', 'xn--'], // ends with "-" too; refused either way
    ['sthree-abc', 'sthree-'],
    ['sthree-configurator', 'sthree-'],
    ['amzn-s3-demo-bucket', 'amzn-s3-demo-'],
    ['abc-s3alias', '-s3alias'],
    ['abc--ol-s3', '--ol-s3'],
    ['abc.mrap', '.mrap'],
    ['abc--x-s3', '--x-s3'],
    ['abc--table-s3', '--table-s3'],
  ])('refuses %j', (name, part) => {
    const reason = validateS3Name(name);
    expect(reason).not.toBeNull();
    if (name.length >= 3 && /[a-z0-9]$/.test(name)) expect(reason).toContain(part);
  });

  it.each([
    'xn-abc',
    'xnabc',
    'axn--b',
    'abc-xn--d',
    'xn-x',
    'sthree',
    'sthreeabc',
    'asthree-b',
    'amzn-s3-demo',
    'amzn-s3-demobucket',
    'amzn-s3-dem-o',
    'xamzn-s3-demo-bucket',
    'abc-s3alia',
    'abcs3alias',
    'abc-s3aliasx',
    'abc-ol-s3',
    'abc--ol-s3x',
    'abc-mrap',
    'abcmrap',
    'abc.mrapx',
    'abc-x-s3',
    'abc--x-s3a',
    'abc-table-s3',
    'abc--table-s31',
    's3alias',
    'mrap',
  ])('accepts the near miss %j', (name) => {
    expect(validateS3Name(name)).toBeNull();
  });
});

describe('checkWireSafe (the rule kept by --no-validate)', () => {
  it.each(['MyBucket', 'under_score', 'a', 'x'.repeat(200), 'é', '..', '-', 'xn--abc', '192.168.5.4', 'a#b', 'emoji😀'])(
    'accepts %j',
    (name) => {
      expect(checkWireSafe(name)).toBeNull();
    },
  );

  it.each([
    'a,b',
    'a b',
    'a\tb',
    'a\nb',
    'a\rb',
    'a\u0000b',
    'a\u0001b',
    'a\u001bb',
    'a\u007fb',
    'a\u0085b',
    'a\u009fb',
    'a\u00a0b',
    'a\u2028b',
    'a\u3000b',
    'a\ufeffb',
  ])('refuses %j', (name) => {
    expect(checkWireSafe(name)).not.toBeNull();
  });

  it('spells the character as a code point', () => {
    expect(checkWireSafe('a\u0007b')).toContain('U+0007');
  });
});

describe('reading names: separators', () => {
  it('splits on LF', () => {
    expect(namesOf('aaa\nbbb\nccc')).toEqual(['aaa', 'bbb', 'ccc']);
  });

  it('splits on CRLF without leaving a carriage return', () => {
    expect(namesOf('aaa\r\nbbb\r\nccc\r\n')).toEqual(['aaa', 'bbb', 'ccc']);
  });

  it('splits on commas, spaces and tabs', () => {
    expect(namesOf('aaa,bbb')).toEqual(['aaa', 'bbb']);
    expect(namesOf('aaa bbb')).toEqual(['aaa', 'bbb']);
    expect(namesOf('aaa\tbbb')).toEqual(['aaa', 'bbb']);
  });

  it('splits a mix like "a,b c\\td"', () => {
    expect(namesOf('aaa,bbb ccc\tddd')).toEqual(['aaa', 'bbb', 'ccc', 'ddd']);
  });

  it('treats runs of separators and surrounding separators as one', () => {
    expect(namesOf(' \t, aaa ,\t, bbb\t\t,,  ')).toEqual(['aaa', 'bbb']);
  });

  it('splits arguments the same way ("append p a,b c" is three names)', () => {
    const result = read([arg('aaa,bbb', 1), arg('ccc', 2)]);
    expect(result.names).toEqual(['aaa', 'bbb', 'ccc']);
  });

  it('mixes CRLF and LF lines in one text', () => {
    expect(namesOf('aaa\r\nbbb\nccc\r\nddd')).toEqual(['aaa', 'bbb', 'ccc', 'ddd']);
  });

  it('keeps names from several sources in order', () => {
    const result = read([arg('zzz', 1), file('aaa\nbbb'), stdin('ccc')]);
    expect(result.names).toEqual(['zzz', 'aaa', 'bbb', 'ccc']);
  });
});

describe('reading names: comments and empty entries', () => {
  it('skips whole-line comments', () => {
    expect(namesOf('# allowlist\naaa\n  # indented comment\nbbb')).toEqual(['aaa', 'bbb']);
  });

  it('cuts trailing comments', () => {
    expect(namesOf('aaa # the first\nbbb,ccc # two more, ddd')).toEqual(['aaa', 'bbb', 'ccc']);
  });

  it('starts a comment at "#" even without a space before it', () => {
    expect(namesOf('aaa#bbb\nccc')).toEqual(['aaa', 'ccc']);
  });

  it('ends a comment at the end of its line only', () => {
    expect(namesOf('# comment, with a comma\r\naaa')).toEqual(['aaa']);
  });

  it('skips empty lines and empty entries', () => {
    const result = read([file('\n\naaa\n\n,,\n\r\n   \nbbb\n\n')]);
    expect(result.names).toEqual(['aaa', 'bbb']);
    expect(result.invalidCount).toBe(0);
    expect(result.duplicates).toBe(0);
  });

  it('reads an empty text as no names', () => {
    const result = read([file('')]);
    expect({ names: result.names, duplicates: result.duplicates, invalid: result.invalid, invalidCount: result.invalidCount }).toEqual({ names: [], duplicates: 0, invalid: [], invalidCount: 0 });
  });
});

describe('reading names: byte-order mark', () => {
  it('drops a BOM at the start of a file', () => {
    const result = read([file('\ufeffaaa\nbbb')]);
    expect(result.names).toEqual(['aaa', 'bbb']);
    expect(result.invalidCount).toBe(0);
  });

  it('drops a BOM at the start of each source', () => {
    const result = read([file('\ufeffaaa'), stdin('\ufeffbbb')]);
    expect(result.names).toEqual(['aaa', 'bbb']);
  });

  it('does not drop a BOM elsewhere: the name holding it is invalid', () => {
    const result = read([file('aaa\n\ufeffbbb')]);
    expect(result.names).toEqual(['aaa']);
    expect(result.invalidCount).toBe(1);
    expect(result.invalid[0]).toMatchObject({ where: 'list.txt:2', name: '\ufeffbbb' });
  });

  it('does not drop a BOM elsewhere even with --no-validate', () => {
    const result = read([file('aaa\nb\ufeffb')], false);
    expect(result.names).toEqual(['aaa']);
    expect(result.invalidCount).toBe(1);
  });
});

describe('reading names: duplicates', () => {
  it('drops repeats, keeping the first, and counts them', () => {
    const result = read([file('bbb\naaa\nbbb\nccc\naaa\nbbb')]);
    expect(result.names).toEqual(['bbb', 'aaa', 'ccc']);
    expect(result.duplicates).toBe(3);
  });

  it('drops repeats across sources', () => {
    const result = read([arg('aaa', 1), file('bbb,aaa'), stdin('bbb aaa')]);
    expect(result.names).toEqual(['aaa', 'bbb']);
    expect(result.duplicates).toBe(3);
  });

  it('does not count distinct names as duplicates', () => {
    expect(read([file('aaa\naab\naaa.b')]).duplicates).toBe(0);
  });

  it('counts duplicates with --no-validate too', () => {
    const result = read([file('Abc Abc abc')], false);
    expect(result.names).toEqual(['Abc', 'abc']);
    expect(result.duplicates).toBe(1);
  });
});

describe('reading names: locations of invalid names', () => {
  it('reports FILE:LINE', () => {
    const result = read([file('good-one\n\nBad_One\ngood-two bad_two', 'names/allow.txt')]);
    expect(result.names).toEqual(['good-one', 'good-two']);
    expect(result.invalidCount).toBe(2);
    expect(result.invalid.map((i) => [i.where, i.name])).toEqual([
      ['names/allow.txt:3', 'Bad_One'],
      ['names/allow.txt:4', 'bad_two'],
    ]);
    for (const i of result.invalid) expect(i.reason).not.toBe('');
  });

  it('counts CRLF lines like LF lines', () => {
    const result = read([file('aaa\r\nbbb\r\n\r\nX\r\n')]);
    expect(result.invalid).toEqual([expect.objectContaining({ where: 'list.txt:4', name: 'X' })]);
  });

  it('counts comment lines and the BOM line normally', () => {
    const result = read([file('\ufeff# header\naaa\n# more\nno_good # trailing')]);
    expect(result.invalid).toEqual([expect.objectContaining({ where: 'list.txt:4', name: 'no_good' })]);
  });

  it('reports stdin:LINE', () => {
    const result = read([stdin('aaa\nbbb\nA')]);
    expect(result.invalid).toEqual([expect.objectContaining({ where: 'stdin:3', name: 'A' })]);
  });

  it('reports arg N', () => {
    const result = read([arg('aaa', 1), arg('bbb,B', 2), arg('ccc', 3), arg('x', 4)]);
    expect(result.invalid.map((i) => [i.where, i.name])).toEqual([
      ['arg 2', 'B'],
      ['arg 4', 'x'],
    ]);
  });

  it('reports a custom label like "--add 1"', () => {
    const result = read([arg('aaa,Bad', 1, '--add'), arg('x', 2, '--delete')]);
    expect(result.invalid.map((i) => i.where)).toEqual(['--add 1', '--delete 2']);
  });

  it('restarts line numbers for each source', () => {
    const result = read([file('aaa\nBAD', 'a.txt'), file('BAD2\nbbb', 'b.txt')]);
    expect(result.invalid.map((i) => i.where)).toEqual(['a.txt:2', 'b.txt:1']);
  });
});

describe('reading names: many invalid names', () => {
  const lines = (n: number): string => Array.from({ length: n }, (_, i) => `Bad${i}`).join('\n');

  it('keeps the first 20 and counts them all', () => {
    const result = read([file(lines(25))]);
    expect(MAX_REPORTED_INVALID).toBe(20);
    expect(result.invalidCount).toBe(25);
    expect(result.invalid).toHaveLength(20);
    expect(result.invalid[0]).toMatchObject({ where: 'list.txt:1', name: 'Bad0' });
    expect(result.invalid[19]).toMatchObject({ where: 'list.txt:20', name: 'Bad19' });
  });

  it('describes them as FILE:LINE: "name": reason, then "… and N more"', () => {
    const described = describeInvalidNames(read([file(lines(25))]));
    expect(described).toHaveLength(21);
    expect(described[0]).toMatch(/^list\.txt:1: "Bad0": \S/);
    expect(described[19]).toMatch(/^list\.txt:20: "Bad19": \S/);
    expect(described[20]).toBe('… and 5 more');
  });

  it('has no "more" line with exactly 20', () => {
    const described = describeInvalidNames(read([file(lines(20))]));
    expect(described).toHaveLength(20);
    expect(described.some((l) => l.includes('more'))).toBe(false);
  });

  it('says "… and 1 more" with 21', () => {
    const described = describeInvalidNames(read([file(lines(21))]));
    expect(described).toHaveLength(21);
    expect(described[20]).toBe('… and 1 more');
  });

  it('describes nothing when all names are valid', () => {
    expect(describeInvalidNames(read([file('aaa bbb')]))).toEqual([]);
  });

  it('quotes names with JSON escapes so control characters stay on one line', () => {
    const described = describeInvalidNames(read([stdin('a\u0001b')], false));
    expect(described).toHaveLength(1);
    expect(described[0]).toMatch(/^stdin:1: "a\\u0001b": /);
    expect(described[0]).not.toContain('\u0001');
  });

  it('cuts a long name to 80 characters with "…", keeping the JSON quotes', () => {
    const huge = 'A'.repeat(5_000_000);
    const [line] = describeInvalidNames(read([file(huge)]));
    expect(line).toBe(`list.txt:1: "${'A'.repeat(79)}…": longer than 63 characters (5000000)`);
    expect(describeInvalidNames(read([file('B'.repeat(80))]))[0]).toContain(`"${'B'.repeat(80)}"`);
  });

  it('never cuts a name between the halves of a surrogate pair', () => {
    expect(quoteName(`${'a'.repeat(78)}😀${'b'.repeat(10)}`)).toBe(`"${'a'.repeat(78)}…"`);
    expect(quoteName(`${'a'.repeat(77)}😀${'b'.repeat(10)}`)).toBe(`"${'a'.repeat(77)}😀…"`);
    expect(quoteName('a\u0001b')).toBe('"a\\u0001b"');
  });

  it('counts invalid repeats as invalid, not as duplicates', () => {
    const result = read([file('BAD\nBAD\naaa')]);
    expect(result.invalidCount).toBe(2);
    expect(result.duplicates).toBe(0);
    expect(result.names).toEqual(['aaa']);
  });
});

describe('reading names with --no-validate', () => {
  it('accepts names outside the S3 rules', () => {
    const result = read([file('MyBucket\nunder_score\nab\nxn--abc\n192.168.5.4\n-x-\n' + 'y'.repeat(64))], false);
    expect(result.invalidCount).toBe(0);
    expect(result.names).toEqual(['MyBucket', 'under_score', 'ab', 'xn--abc', '192.168.5.4', '-x-', 'y'.repeat(64)]);
  });

  it('still refuses control characters, with their location', () => {
    const result = read([file('ok\nbad\u0007bell\nalso\u007fdel\nc1\u0085x', 'f')], false);
    expect(result.names).toEqual(['ok']);
    expect(result.invalidCount).toBe(3);
    expect(result.invalid.map((i) => i.where)).toEqual(['f:2', 'f:3', 'f:4']);
  });

  it('still refuses a lone carriage return inside a name', () => {
    const result = read([file('a\rb\nok')], false);
    expect(result.names).toEqual(['ok']);
    expect(result.invalidCount).toBe(1);
  });

  it('still splits and strips comments', () => {
    expect(read([file('A,B C\tD # E\r\n#F')], false).names).toEqual(['A', 'B', 'C', 'D']);
  });

  it('refuses the same input with validation on', () => {
    const result = read([file('MyBucket\nunder_score')], true);
    expect(result.names).toEqual([]);
    expect(result.invalidCount).toBe(2);
  });
});
