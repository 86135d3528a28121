// The JSON Schema shipped for editors (schema/manifest.schema.json) says what the manifest reader accepts:
// the same keys, and it accepts and refuses the same shapes.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { PROFILE_KEYS, TOP_KEYS } from '../../src/core/manifest.js';

const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../schema/manifest.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: true, strictRequired: false }).compile(schema);

describe('the manifest schema', () => {
  it('names the keys the reader knows', () => {
    expect(Object.keys(schema.properties).sort()).toEqual([...TOP_KEYS].sort());
    expect(Object.keys(schema.definitions.profile.properties).sort()).toEqual([...PROFILE_KEYS].sort());
  });

  it.each([
    { profiles: { finance: { buckets: ['alpha-data', 'bravo-logs'], files: ['lists/finance.txt'] }, legal: { files: 'lists/legal.txt', allowEmpty: false } } },
    { $schema: './node_modules/scpctl/schema/manifest.schema.json', profiles: { ops: { buckets: 'ops-a, ops-b\nops-c' } } },
    { profiles: { ops: { buckets: [], allowEmpty: true } } },
    { profiles: { ops: { buckets: [123] } } },
  ])('accepts %j', (manifest) => {
    expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    [{}, 'no profiles'],
    [{ profiles: {} }, 'no profile at all'],
    [{ profiles: { ops: { buckets: ['a-b-c'] } }, extra: 1 }, 'an unknown top-level key'],
    [{ profiles: { ops: { bucket: ['a-b-c'] } } }, 'an unknown profile key'],
    [{ profiles: { ops: {} } }, 'neither buckets nor files'],
    [{ profiles: { ops: { buckets: ['Bad_Name'] } } }, 'an invalid bucket name'],
    [{ profiles: { ops: { files: ['-'] } } }, 'standard input as a file'],
    [{ profiles: { ops: { buckets: ['a-b-c'], allowEmpty: 'yes' } } }, 'allowEmpty not a boolean'],
    [{ profiles: { ' ops': { buckets: ['a-b-c'] } } }, 'a profile name with whitespace around it'],
  ])('refuses %j (%s)', (manifest, _why) => {
    expect(validate(manifest)).toBe(false);
  });
});
