// Long name lists set aside before the YAML parser (core/manifest-lift.ts) must read exactly as the parser
// reads them: the same names, the same invalid ones at the same manifest lines, the same errors. Each
// manifest is read both ways: as is (lifted), and behind a `%YAML 1.2` directive, which turns lifting off.
import { describe, expect, it } from 'vitest';
import { liftNameLists } from '../../src/core/manifest-lift.js';
import { checkManifest } from '../../src/core/manifest.js';
import { readBucketNameBytes } from '../../src/core/name-bytes.js';
import { describeInvalidNames } from '../../src/core/names.js';
import { parseManifestText } from '../../src/library/manifest-yaml.js';
import { UsageError } from '../../src/errors.js';

async function read(text: string): Promise<unknown> {
  const { root, errors } = await parseManifestText(text, 'm.yaml');
  if (errors.length > 0) return { errors };
  const { profiles: manifest, errors: shape } = checkManifest(root, 'm.yaml');
  const profiles = manifest.map((profile) => {
    const result = readBucketNameBytes(profile.inline, { validate: true });
    return { profile: profile.name, names: result.names.names(), invalid: describeInvalidNames(result) };
  });
  return { shape, profiles };
}

/** The same manifest read without lifting, its lines as the manifest's (the directive adds two). */
async function readAsWritten(text: string): Promise<unknown> {
  const result = await read(`%YAML 1.2\n---\n${text}`);
  return JSON.parse(JSON.stringify(result).replace(/m\.yaml:(\d+)/g, (_, line: string) => `m.yaml:${Number(line) - 2}`));
}

const LIFTED: Record<string, string> = {
  'a flow list over lines, quoted names and invalid ones': `profiles:\n  a:\n    buckets: [alpha-one, "beta-two", 'gamma-3',\n      Delta-Four, e.f.g, 10.0.0.1, x, alpha-one]   # a comment\n    allowEmpty: false\n`,
  'JSON on one line': `{"profiles": {"a": {"buckets": ["alpha-one", "beta-two", "Gamma-3", "delta-four", "epsilon-five"]}, "b": {"buckets": ["x"], "allowEmpty": true}}}`,
  'a block list with comments, blank lines, quotes and CRLF': `profiles:\r\n  a:\r\n    buckets:   # the list\r\n      - alpha-one\r\n\r\n      # a comment\r\n      - "beta-two"\r\n      - Gamma-3   # upper case\r\n      - 'delta-four'\r\n    allowEmpty: false\r\n  b:\r\n    buckets: [xyz]\r\n`,
  'a block list at the key\'s indentation': `profiles:\n  a:\n    buckets:\n    - alpha-one\n    - beta-two\n    - UPPER-three\n    - delta-four\n    - epsilon-five\n    allowEmpty: true\n`,
  'a literal block scalar': `profiles:\n  a:\n    buckets: |\n      alpha-one beta-two, gamma-3\n        delta-four # a comment in the list\n\n      Epsilon-Five\n  b:\n    buckets: [zeta-six]\n`,
  'a flow mapping over lines': `profiles: {a: {buckets: [alpha-one, beta-two,\n  gamma-3, Delta-four, epsilon-five, zeta-six], allowEmpty: true},\n  b: {buckets: [x-y-z]}}\n`,
  'a YAML error after a lifted list': `profiles:\n  a:\n    buckets:\n      - alpha-one\n      - beta-two\n      - gamma-three\n      - delta-four\n      - epsilon-five\n  b: [unclosed\n`,
};

const NOT_LIFTED: Record<string, string> = {
  'a YAML null among the names': `profiles:\n  a:\n    buckets: [alpha-one, beta-two, null, gamma-three, delta-four, epsilon-five]\n`,
  'a key of a block scalar that looks like one': `profiles:\n  a:\n    buckets: [aaa]\n    notes: |\n      buckets: [alpha-one, beta-two, gamma-three, delta-four, epsilon-five]\n`,
  'a list inside a quoted string': `profiles:\n  a:\n    buckets: [aaa]\n    allowEmpty: "x\n      buckets: [alpha-one, beta-two, gamma-three, delta-four, epsilon-five, zeta]"\n`,
  'a name YAML reads otherwise (a comment with no blank before it)': `profiles:\n  a:\n    buckets: [alpha-one, beta#two, gamma-three, delta-four, epsilon-five]\n`,
};

describe('long lists read without the YAML parser read as the parser reads them', () => {
  for (const [what, text] of Object.entries(LIFTED)) {
    it(what, async () => {
      expect(liftNameLists(text, 'nonce').lists.length).toBeGreaterThan(0);
      expect(await read(text)).toEqual(await readAsWritten(text));
    });
  }
  for (const [what, text] of Object.entries(NOT_LIFTED)) {
    it(`${what}: read as written`, async () => {
      expect(await read(text)).toEqual(await readAsWritten(text));
    });
  }

  it('a folded block scalar: the same names, an invalid one at its own line (the parser folds the lines away)', async () => {
    const text = `profiles:\n  a:\n    buckets: >-\n      alpha-one beta-two\n      gamma-3 delta-four Bad_Name\n      epsilon-five\n`;
    expect(liftNameLists(text, 'nonce').lists.length).toBe(1);
    const [lifted, asWritten] = [await read(text), await readAsWritten(text)] as Array<{ profiles: Array<{ names: string[]; invalid: string[] }> }>;
    expect(lifted.profiles[0]!.names).toEqual(asWritten.profiles[0]!.names);
    expect(lifted.profiles[0]!.invalid).toEqual(['m.yaml:5: "Bad_Name": upper-case letters are not allowed']);
  });

  it('an invalid name is reported at its own line of a lifted block list', async () => {
    const text = `profiles:\n  a:\n    buckets:\n${['alpha-one', 'beta-two', 'gamma-three', 'Delta-Four', 'epsilon-five'].map((n) => `      - ${n}\n`).join('')}`;
    expect(await read(text)).toMatchObject({ profiles: [{ invalid: ['m.yaml:7: "Delta-Four": upper-case letters are not allowed'] }] });
  });

  it('what is left for the parser is bounded: a manifest of 30,000 profiles is exit 2 at once, naming it', async () => {
    const text = `profiles:\n${Array.from({ length: 30_000 }, (_, i) => `  p${i}: {files: [list.txt]}\n`).join('')}`;
    const error = await parseManifestText(text, 'm.yaml').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(/^m\.yaml: too large to read as YAML: .* over 60,000 YAML tokens; nothing was sent$/);
  });
});
