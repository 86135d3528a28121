// The manifest apply --export writes (output/manifest-writer.ts) is read back by apply's own reader
// (library/manifest-yaml.ts, core/manifest.ts) as the same profiles and names, whatever the profile names
// (any string a profile name may be) and whatever valid bucket names: plain where plain reads the same,
// an ASCII JSON string otherwise. Both formats; lifted lists (64 bytes and more) and parsed ones alike.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkManifest, profileNameProblem } from '../../src/core/manifest.js';
import { readBucketNameBytes } from '../../src/core/name-bytes.js';
import { validateS3Name } from '../../src/core/names.js';
import { parseManifestText } from '../../src/library/manifest-yaml.js';
import { manifestPieces, yamlScalar, type ManifestValue } from '../../src/output/manifest-writer.js';
import { listFileName } from '../../src/commands/apply/export-files.js';

async function readBack(text: string): Promise<Array<{ profile: string; names: string[]; allowEmpty: boolean }>> {
  const { root, errors } = await parseManifestText(text, 'm.yaml');
  expect(errors).toEqual([]);
  const { profiles: manifest, errors: shape } = checkManifest(root, 'm.yaml');
  expect(shape).toEqual([]);
  return manifest.map((profile) => {
    const result = readBucketNameBytes(profile.inline, { validate: true });
    expect(result.invalidCount).toBe(0);
    return { profile: profile.name, names: result.names.names(), allowEmpty: profile.allowEmpty };
  });
}

const profileName = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).filter((name) => profileNameProblem(name) === null);
const bucketName = fc
  .oneof(fc.constantFrom('null', 'true', 'false', '123', '1e3', '0x1f', '1.50', 'a-b.c'), fc.stringMatching(/^[a-z0-9][a-z0-9.-]{1,20}[a-z0-9]$/))
  .filter((name) => validateS3Name(name) === null);

describe('the exported manifest reads back as written', () => {
  it('any profile names and valid bucket names, as YAML and JSON, short lists and lifted ones', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.tuple(profileName, fc.uniqueArray(bucketName, { maxLength: 12 })), { minLength: 1, maxLength: 4, selector: ([name]) => name }), async (entries) => {
        const value: ManifestValue = { profiles: Object.create(null) };
        for (const [name, names] of entries) value.profiles[name] = names.length > 0 ? { buckets: names } : { buckets: [], allowEmpty: true };
        for (const format of ['yaml', 'json']) {
          const back = await readBack([...manifestPieces(format, value)].join(''));
          expect(back).toEqual(Object.entries(value.profiles).map(([profile, desired]) => ({ profile, names: desired.buckets, allowEmpty: desired.allowEmpty === true })));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('a key YAML limits to 1024 characters is written in its explicit form; the YAML is ASCII', async () => {
    const long = `é${'x'.repeat(1500)}`;
    const text = [...manifestPieces('yaml', { profiles: { [long]: { buckets: ['alpha-data'] } } })].join('');
    expect(text).toMatch(/^profiles:\n {2}\? "\\u00e9x+"\n {2}:\n/);
    expect(text).toMatch(/^[\x20-\x7e\n]*$/);
    expect(await readBack(text)).toEqual([{ profile: long, names: ['alpha-data'], allowEmpty: false }]);
  });

  it('plain where plain reads the same; quoted otherwise', () => {
    expect(['finance', 'Big.Ops_1', '123', 'alpha-data'].map(yamlScalar)).toEqual(['finance', 'Big.Ops_1', '123', 'alpha-data']);
    expect(['null', 'true', 'a b', 'a:b', '-x', '"q"', "'q'", 'ü', '#x'].map(yamlScalar)).toEqual(['"null"', '"true"', '"a b"', '"a:b"', '"-x"', '"\\"q\\""', `"'q'"`, '"\\u00fc"', '"#x"']);
  });

  it('list files: PROFILE.txt for plain lower-case names, a slug and a hash for any other, none climbing out', () => {
    expect(listFileName('finance')).toBe('finance.txt');
    expect(listFileName('team.a_1')).toBe('team.a_1.txt');
    for (const name of ['..', '../x', 'Finance', 'a/b', '.hidden', 'x'.repeat(200), 'con', '']) {
      const file = listFileName(name);
      expect(file, name).toMatch(/^[a-z0-9][a-z0-9_.-]*\.txt$/);
      expect(file).not.toContain('/');
      expect(file).not.toContain('..');
    }
    expect(listFileName('Finance')).not.toBe(listFileName('finance'));
    // Windows reads CON, NUL, AUX, PRN, COM1-9 and LPT1-9 as devices, with any extension after them.
    for (const name of ['con', 'nul', 'aux', 'prn', 'com1', 'lpt9', 'nul.data', 'com0']) {
      expect(listFileName(name).split('.')[0], name).not.toMatch(/^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/);
    }
    expect(listFileName('console')).toBe('console.txt');
  });
});
