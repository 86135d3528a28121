// A saved plan read a profile, and a group of names, at a time (contract 13, "a plan just under 64 MiB"):
// the structure found in its bytes, the same text as the whole-plan writers made, and a file changed under
// a run refused.
import { mkdtempSync, openSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprintList } from '../../src/core/fingerprint.js';
import { openSavedPlan } from '../../src/commands/apply/saved-plan-file.js';
import { PlanLines } from '../../src/core/plan-lines.js';
import { groupsOf, planJsonEntryPieces, profileTextPieces, type ProfilePlan, type TextStyle } from '../../src/core/plan.js';
import { PLAN_FORMAT, planHeadSealParts, profileSealParts, serializePlanPieces, type SavedPlan } from '../../src/core/saved-plan.js';
import { tenantIdentity } from '../../src/core/tenant.js';
import { isPlanResult } from '../../src/commands/apply/saved-run.js';
import { UsageError } from '../../src/errors.js';

/** The lines of `text` fed `size` bytes at a time: the head, and each entry's fields and names. */
function scan(text: string, size = 1 << 20): { head: string; entries: Array<{ fields: unknown; add: unknown[]; delete: unknown[] }> } {
  const bytes = Buffer.from(text);
  const lines = new PlanLines('p.json', { textBytes: 1024, entryBytes: 4096, entries: 3, groupBytes: 20 });
  for (let at = 0; at < bytes.length; at += size) lines.feed(bytes.subarray(at, at + size));
  const names = (ranges: Array<{ start: number; end: number }>): unknown[] => ranges.flatMap((r) => JSON.parse(`[${bytes.subarray(r.start, r.end).toString()}]`));
  const head = lines.finish();
  return { head, entries: lines.entries.map((e) => ({ fields: JSON.parse(e.fields), add: names(e.groups.add), delete: names(e.groups.delete) })) };
}

/** The plan's whole text, as --save-plan writes it in pieces. */
const serializePlan = (plan: SavedPlan): string => [...serializePlanPieces(plan, plan.profiles)].map((piece) => piece.text).join('');

const why = (text: string): string => {
  try {
    scan(text);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message.replace(/^p\.json: not a plan saved by scpctl apply --save-plan \((.*)\)$/, '$1');
  }
  throw new Error('expected a refusal');
};

describe('PlanLines', () => {
  const value = { format: 'f', tenant: { baseUrl: 'b', key: 'k' }, profiles: [{ profile: 'p', fingerprint: 'x', add: ['a"b', 'c\u2028', 'd', 'e'], delete: [] }, { profile: 'q', fingerprint: 'y', add: [], delete: ['z'] }], seal: 's' };
  const text = `${JSON.stringify(value, null, 1)}\n`;

  it('finds the head, each entry\'s fields and its names in groups, whatever the chunks', () => {
    for (const size of [1, 2, 3, 7, 1 << 20]) {
      const { head, entries } = scan(text, size);
      expect(JSON.parse(head)).toEqual({ ...value, profiles: [] });
      expect(entries).toEqual(value.profiles.map(({ add, delete: del, ...fields }) => ({ fields: { ...fields, add: [], delete: [] }, add, delete: del })));
    }
    expect(scan(`${JSON.stringify({ ...value, profiles: [] }, null, 1)}\n`).entries).toEqual([]);
    expect(JSON.parse(scan(text.slice(0, -1)).head)).toEqual({ ...value, profiles: [] });
  });

  it('refuses any other layout, a list named twice, and a file cut short', () => {
    const twice = text.replace('   ],\n   "delete": []', '   ],\n   "add": [],\n   "delete": []');
    const hidden = text.replace(' "seal": "s"', ' "profiles": [{"profile": "r", "fingerprint": "z", "add": ["x"], "delete": []}],\n "seal": "s"');
    for (const bad of [JSON.stringify(value), '', text.replace('\n   ],', '\n   ]x'), text.replace('  {', ' {'), twice, hidden, text.slice(0, -20)]) {
      expect(() => scan(bad), bad).toThrow(/^p\.json: not a plan saved by scpctl apply --save-plan \(/);
    }
    expect(why(text.replace('  {', ' {'))).toBe('line 8 is not as --save-plan writes it');
  });

  it('refuses an entry, a head or too many entries over their size, naming the entry, at once', () => {
    const big = { ...value, profiles: [value.profiles[1], { ...value.profiles[0], add: Array(800).fill('name') }] };
    expect(() => scan(`${JSON.stringify(big, null, 1)}\n`)).toThrow("p.json: the plan's profiles[1] is over 0.00390625 MiB");
    const many = { ...value, profiles: Array(4).fill(value.profiles[1]) };
    expect(() => scan(`${JSON.stringify(many, null, 1)}\n`)).toThrow('p.json: it names more than 3 profiles, more than apply holds');
    expect(why(`${JSON.stringify({ manifest: 'x'.repeat(2000), profiles: [] }, null, 1)}\n`)).toBe('its fields other than the names hold more than 1 KiB');
    // One line of 64 MiB (JSON as another tool writes it) is refused as its first KiB goes by, never held.
    expect(why(`{"format": "f", "profiles": [${'1,'.repeat(4096)}1]}`)).toBe('its fields other than the names hold more than 1 KiB');
  });
});

const plan = (profiles: SavedPlan['profiles']): SavedPlan => ({
  format: PLAN_FORMAT,
  createdAt: '2026-01-01T00:00:00.000Z',
  baseUrl: 'https://x.example',
  context: 'default',
  tenant: { baseUrl: 'https://x.example', key: `scrypt:16384:8:1:${'ab'.repeat(16)}:${'cd'.repeat(32)}` },
  validated: true,
  manifest: 'm.yaml',
  profiles,
});

describe('the plan written and printed in pieces', () => {
  const many = Array.from({ length: 25_000 }, (_, i) => `b-${i}`);

  it('--save-plan writes what JSON.stringify(plan, null, 1) wrote', () => {
    for (const profiles of [[], [{ profile: 'p', fingerprint: fingerprintList([]), add: many, delete: [] }, { profile: 'q', fingerprint: 'x', add: [], delete: ['a"b', 'é'] }]]) {
      const saved = plan(profiles);
      expect(serializePlan(saved)).toBe(`${JSON.stringify(saved, null, 1)}\n`);
    }
  });

  it('--json and the text are the same in groups as whole', () => {
    const p: ProfilePlan = { profile: 'p\u2028', add: many, delete: ['x', 'y\u202e'], status: 'failed', error: { message: 'm', exitCode: 9 } };
    const groups = { add: [many.slice(0, 7), many.slice(7, 7), many.slice(7)], delete: [['x'], ['y\u202e']] };
    expect([...planJsonEntryPieces(p, groups)].join('')).toBe([...planJsonEntryPieces(p, groupsOf(p))].join(''));
    expect(JSON.parse([...planJsonEntryPieces(p, groups)].join(''))).toEqual({ profile: p.profile, add: many, delete: ['x', 'y\u202e'], applied: false, status: 'failed', error: 'm', exitCode: 9 });
    const plain = (s: string): string => s;
    for (const cut of [undefined, 3, 50]) {
      const style: TextStyle = { cut, add: plain, del: plain, heading: plain, dim: plain };
      const outline = { profile: p.profile, added: many.length, deleted: 2 };
      expect([...profileTextPieces(outline, groups, style, 1000)].join('')).toBe([...profileTextPieces(outline, groupsOf(p), style)].join(''));
    }
  });

  it('an applied plan is recognised from its names in groups, a name added twice too', () => {
    const before = ['a', 'b', 'c'];
    const fingerprint = fingerprintList(before);
    const groups = (add: string[][], del: string[][]): { fingerprint: string; add: string[][]; delete: string[][] } => ({ fingerprint, add, delete: del });
    expect(isPlanResult(['a', 'c', 'd', 'e'], groups([['d'], ['e', 'd']], [['b']]))).toBe(true);
    expect(isPlanResult(['a', 'c', 'd'], groups([['d'], ['e']], [['b']]))).toBe(false);
    expect(isPlanResult(['a', 'b', 'c', 'd'], groups([['d']], [['b']]))).toBe(false);
    expect(isPlanResult(['a', 'c', 'd', 'x'], groups([['d']], [['b']]))).toBe(false);
  });
});

describe('a saved plan file', () => {
  it('is read again a group at a time, and a change to it since it was checked is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scpctl-plan-'));
    try {
      const path = join(dir, 'plan.json');
      const add = Array.from({ length: 40_000 }, (_, i) => `name-${i}`);
      const identity = tenantIdentity('https://x.example', 'the-token-of-this-tenant');
      const saved = { ...plan([{ profile: 'p', fingerprint: fingerprintList([]), add, delete: [] }]), tenant: await identity.make() };
      const text = [...serializePlanPieces(saved, saved.profiles, (await identity.sealer(saved.tenant))!.begin())].map((piece) => piece.text).join('');
      writeFileSync(path, text);
      const file = await openSavedPlan(path, { context: 'default', tokens: [], identity: () => Promise.resolve(identity) });
      try {
        expect(file.profiles[0]).toMatchObject({ profile: 'p', added: 40_000, deleted: 0, wireBytes: { add: add.join(',').length, delete: 0 } });
        expect([...file.names(0).add].flat()).toEqual(add);
        // The same length, another name: only the digest of its group tells.
        const fd = openSync(path, 'r+');
        writeSync(fd, 'X', text.indexOf('name-39999'));
        closeSync(fd);
        expect(() => [...file.names(0).add]).toThrow(UsageError);
        expect(() => [...file.names(0).add]).toThrow(/plan\.json: the plan file changed while it was in use/);
      } finally {
        await file.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the seal of a plan read and written in pieces', () => {
  it('is the seal of the head\'s and each profile\'s parts, made as each group of names is checked or each piece written; an edited name breaks it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scpctl-plan-'));
    try {
      const identity = tenantIdentity('https://x.example', 'the-token-of-this-tenant');
      const tenant = await identity.make();
      const sealer = (await identity.sealer(tenant))!;
      const add = Array.from({ length: 40_000 }, (_, i) => `name-${i}`);
      const unsealed = { ...plan([{ profile: 'p', fingerprint: fingerprintList([]), add, delete: ['gone'] }, { profile: 'q', fingerprint: fingerprintList(['x']), add: [], delete: [] }]), tenant };
      // Written whole (as the plan was before it was written in pieces) and in pieces: the same text, the same seal.
      const whole = serializePlan({ ...unsealed, seal: sealer.seal([...planHeadSealParts(unsealed), ...unsealed.profiles.flatMap((p) => [...profileSealParts(p)])]) });
      expect([...serializePlanPieces(unsealed, unsealed.profiles, sealer.begin())].map((piece) => piece.text).join('')).toBe(whole);
      const path = join(dir, 'plan.json');
      const read = async (text: string): Promise<boolean> => {
        writeFileSync(path, text);
        const file = await openSavedPlan(path, { context: 'default', tokens: [], identity: () => Promise.resolve(identity) }).catch((error: unknown) => {
          expect(error).toMatchObject({ message: expect.stringContaining('the plan was changed after it was saved') });
        });
        await file?.close();
        return file !== undefined;
      };
      expect(await read(whole)).toBe(true);
      // A name of the second group changed (same length), and a name moved from add to delete: refused.
      expect(await read(whole.replace('"name-39999"', '"name-3999x"'))).toBe(false);
      expect(await read(whole.replace('"name-39999"\n   ],\n   "delete": [\n    "gone"', '"gone"\n   ],\n   "delete": [\n    "name-39999"'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
