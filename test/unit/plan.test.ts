// apply's pure parts: the manifest's shape, fingerprints, the plan in text and Markdown, saved plans.
import { afterAll, describe, expect, it } from 'vitest';
import { checkManifest, type ManifestNode } from '../../src/core/manifest.js';
import { fingerprintList } from '../../src/core/fingerprint.js';
import {
  MARKDOWN_NAMES,
  groupsOf,
  markdownPieces,
  outlineOf,
  planJsonPieces,
  planLinePieces,
  profileTextPieces,
  type ProfilePlan,
  type TextStyle,
} from '../../src/core/plan.js';
import { tenantIdentity, type Tenant } from '../../src/core/tenant.js';

/** The tenant the saved plans below are read by and bound to (its hash is tested in tenant.test.ts). */
const IDENTITY = tenantIdentity('https://tenant.example.com', 'a-token-of-the-tenant');
const TENANT: Tenant = await IDENTITY.make();
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLAN_FORMAT, serializePlanPieces, type SavedPlan } from '../../src/core/saved-plan.js';
import { openSavedPlan } from '../../src/commands/apply/saved-plan-file.js';
import { ScpctlError, UsageError } from '../../src/errors.js';
import { maskSecret } from '../../src/core/secrets.js';

const scalar = (line: number, value: unknown, text = String(value)): ManifestNode => ({ kind: 'scalar', line, value, text });
const map = (line: number, entries: Array<[string, number, ManifestNode]>): ManifestNode => ({
  kind: 'map',
  line,
  entries: entries.map(([key, l, value]) => ({ key, line: l, value })),
});
const seq = (line: number, items: ManifestNode[]): ManifestNode => ({ kind: 'seq', line, items });

describe('checkManifest', () => {
  it('reads inline lists, one-string lists, numbers as written, files and allowEmpty', () => {
    const root = map(1, [
      ['$schema', 1, scalar(1, './schema.json')],
      ['profiles', 2, map(3, [
        ['finance', 3, map(4, [['buckets', 4, seq(4, [scalar(4, 'alpha-data'), scalar(5, 123, '123')])], ['files', 6, seq(6, [scalar(6, 'a.txt')])]])],
        ['legal', 7, map(8, [['buckets', 8, scalar(8, 'a-b-c, d-e-f')], ['allowEmpty', 9, scalar(9, true)]])],
      ])],
    ]);
    const { profiles, errors } = checkManifest(root, 'm.yaml');
    expect(errors).toEqual([]);
    const inline = (text: string, line: number) => ({ origin: { kind: 'file', path: 'm.yaml' }, bytes: Buffer.from(text), line });
    expect(profiles).toEqual([
      { name: 'finance', line: 3, inline: [inline('alpha-data', 4), inline('123', 5)], files: [{ path: 'a.txt', line: 6 }], allowEmpty: false },
      { name: 'legal', line: 7, inline: [inline('a-b-c, d-e-f', 8)], files: [], allowEmpty: true },
    ]);
  });

  it('collects every problem with its line', () => {
    const root = map(1, [
      ['profiles', 1, map(2, [
        ['finance', 2, map(3, [['bucket', 3, seq(3, [])]])],
        [' padded', 4, map(5, [['buckets', 5, seq(5, [scalar(5, true), map(6, [])])], ['allowEmpty', 7, scalar(7, 'yes')]])],
        ['legal', 8, scalar(8, null, '')],
        ['ops', 9, map(10, [['files', 10, seq(10, [scalar(10, '-'), scalar(11, '')])]])],
      ])],
      ['profile', 12, scalar(12, 1)],
    ]);
    const { errors } = checkManifest(root, 'm.yaml');
    expect(errors).toEqual([
      'm.yaml:12: unknown key "profile" (the keys are profiles, $schema)',
      'm.yaml:3: profile "finance": unknown key "bucket" (the keys are buckets, files, allowEmpty)',
      'm.yaml:2: profile "finance" has neither "buckets" nor "files"',
      'm.yaml:4: the profile name " padded" has whitespace at its start or end',
      'm.yaml:5: profile " padded": "buckets" must hold strings, not the boolean "true"',
      'm.yaml:6: profile " padded": "buckets" must hold strings, not a mapping',
      'm.yaml:7: profile " padded": "allowEmpty" must be true or false',
      'm.yaml:8: profile "legal" has neither "buckets" nor "files"',
      'm.yaml:10: profile "ops": "-" (standard input) cannot be a file of a manifest',
      'm.yaml:11: profile "ops": a file path is empty',
    ]);
  });

  it('refuses an empty document, a list, and empty profiles', () => {
    expect(checkManifest(null, 'm.yaml').errors).toEqual(['m.yaml:1: the manifest is empty; it needs "profiles:"']);
    expect(checkManifest(seq(1, []), 'm.yaml').errors[0]).toContain('must be a mapping with the key "profiles", not a list');
    expect(checkManifest(map(1, [['profiles', 1, map(1, [])]]), 'm.yaml').errors[0]).toContain('"profiles" must map profile names');
    expect(checkManifest(map(1, []), 'm.yaml').errors).toEqual(['m.yaml:1: the manifest has no "profiles:"']);
  });

  it('masks a quoted value before cutting it to 60 characters: no cut form of a token escapes the mask', () => {
    // The upper-cased token behind 40 characters: cut at 60, its first 18 characters would be left, which the
    // output's mask no longer sees as the token (contract 13: mask first, then cut).
    const token = 'tok_S3cr3t+/=Zq9XyW7vU5tR';
    const value = `${'x'.repeat(40)}${token.toUpperCase()}`;
    const root = map(1, [['profiles', 1, scalar(1, value)]]);
    const mask = (text: string): string => maskSecret(text, [token]);
    const [error] = checkManifest(root, 'm.yaml', mask).errors;
    expect(error).toContain('not the string "xxxx');
    expect(error!.toUpperCase()).not.toContain(token.slice(0, 6).toUpperCase());
    expect(checkManifest(root, 'm.yaml').errors[0]!.toUpperCase()).toContain(token.slice(0, 6).toUpperCase());
  });
});

describe('fingerprintList', () => {
  it('is the same for the same set of names, whatever the order or repeats', () => {
    expect(fingerprintList(['b', 'a', 'c'])).toBe(fingerprintList(['a', 'b', 'c', 'a']));
    expect(fingerprintList([])).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('differs when a name differs, is added or removed, and cannot be fooled by joining', () => {
    const base = fingerprintList(['a', 'b']);
    expect(fingerprintList(['a', 'c'])).not.toBe(base);
    expect(fingerprintList(['a'])).not.toBe(base);
    expect(fingerprintList(['a', 'b', 'c'])).not.toBe(base);
    expect(fingerprintList(['a\nb'])).not.toBe(base);
  });
});

const plans: ProfilePlan[] = [
  { profile: 'finance', add: ['bravo-logs'], delete: ['old-bucket'], status: 'planned' },
  { profile: 'ops', add: [], delete: [], status: 'unchanged' },
  { profile: 'a|b', add: ['x`y', '<img>'], delete: [], status: 'failed', error: { message: 'not <b>found</b> | here', exitCode: 4 } },
];
const plain = { add: (s: string) => s, del: (s: string) => s, heading: (s: string) => s, dim: (s: string) => s };

// The plan whole, joined from the pieces apply prints (commands/apply/report.ts): text for the profiles that differ.
const planText = (list: readonly ProfilePlan[], style: TextStyle): string =>
  list.flatMap((p) => (p.add.length + p.delete.length > 0 ? [...profileTextPieces(outlineOf(p), groupsOf(p), style)] : [])).join('');
const planJson = (list: readonly ProfilePlan[]): string =>
  [...planJsonPieces(list.map(outlineOf))].join('');
const planMarkdown = (list: readonly ProfilePlan[], options: { applying: boolean }): string => [...markdownPieces(list.map(outlineOf), options)].join('');

describe('the plan rendered', () => {
  it('text: + and - lines under a heading for each profile that differs; cut on a terminal', () => {
    expect(planText(plans.slice(0, 2), plain)).toBe('finance:\n+ bravo-logs\n- old-bucket\n');
    const many: ProfilePlan = { profile: 'big', add: ['a1', 'a2', 'a3'], delete: [], status: 'planned' };
    expect(planText([many], { ...plain, cut: 2 })).toBe('big:\n+ a1\n+ a2\n  … and 1 more to add\n');
    expect(planText([plans[1]!], plain)).toBe('');
  });

  it("text: sync's lines, without a heading, whole in pieces or cut on a terminal", () => {
    const sync = { add: ['a1', 'a2', 'a3'], delete: ['d1'] };
    expect([...planLinePieces(sync, plain, 2)]).toEqual(['+ a1\n+ a2\n', '+ a3\n', '- d1\n']);
    expect([...planLinePieces(sync, { ...plain, cut: 2 })].join('')).toBe('+ a1\n+ a2\n  … and 1 more to add\n- d1\n');
    expect([...planLinePieces({ add: [], delete: [] }, { ...plain, cut: 2 })]).toEqual([]);
  });

  it('text: names and profiles from the service are shown through the sanitiser (escapes, bidi controls)', () => {
    const hostile: ProfilePlan = { profile: 'fin\u001b[2Jance', add: ['new\u202eexe.gpj'], delete: ['old\u009bx'], status: 'planned' };
    const text = planText([hostile], plain);
    expect(text).toBe('fin\\x1b[2Jance:\n+ new\\u202eexe.gpj\n- old\\u009bx\n');
  });

  it('JSON: every profile in order, with applied, status and the failure', () => {
    expect(JSON.parse(planJson(plans))).toEqual({
      profiles: [
        { profile: 'finance', add: ['bravo-logs'], delete: ['old-bucket'], applied: false, status: 'planned' },
        { profile: 'ops', add: [], delete: [], applied: false, status: 'unchanged' },
        { profile: 'a|b', add: ['x`y', '<img>'], delete: [], applied: false, status: 'failed', error: 'not <b>found</b> | here', exitCode: 4 },
      ],
    });
  });

  it('Markdown: a table, then collapsible names; nothing from a name or message breaks the table, the code block or the HTML', () => {
    const md = planMarkdown(plans, { applying: false });
    expect(md).toContain('### scpctl plan: 1 of 3 profiles to change, 1 failed\n');
    expect(md).toContain('| finance | 1 | 1 | planned |');
    expect(md).toContain('| a\\|b | 2 | 0 | failed (exit 4): not &lt;b&gt;found&lt;/b&gt; \\| here |');
    expect(md).toContain("<details><summary>a|b: +2 −0 (not applied)</summary>\n\n```diff\n+ x'y\n+ <img>\n```");
    expect(md).not.toContain('<b>');
  });

  it('Markdown: long lists are cut so a pull-request comment stays within its limit', () => {
    const names = Array.from({ length: MARKDOWN_NAMES + 5 }, (_, i) => `name-${i}`);
    const md = planMarkdown([{ profile: 'big', add: names, delete: [], status: 'planned' }], { applying: true });
    expect(md).toContain('### scpctl plan: 1 of 1 profile changed');
    expect(md).toContain(`+ name-${MARKDOWN_NAMES - 1}\n# … and 5 more to add\n`);
    expect(md).not.toContain(`name-${MARKDOWN_NAMES}\n`);
  });
});

describe('saved plans', () => {
  const plan: SavedPlan = {
    format: PLAN_FORMAT,
    createdAt: '2026-11-23T10:00:00.000Z',
    baseUrl: 'https://tenant.example.com',
    context: 'default',
    tenant: TENANT,
    validated: true,
    manifest: 'scpctl.yaml',
    profiles: [{ profile: 'finance', fingerprint: fingerprintList(['a']), add: ['b-b-b'], delete: ['a'] }],
  };

  // Read as `apply --plan` reads it (saved-plan-file.ts), from a file; `path` is what its messages name.
  const dir = mkdtempSync(join(tmpdir(), 'scpctl-saved-'));
  const path = join(dir, 'p.json');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const read = async (text: string): Promise<SavedPlan> => {
    writeFileSync(path, text);
    const file = await openSavedPlan(path, { context: 'default', tokens: [], identity: () => Promise.resolve(IDENTITY) });
    try {
      const profiles = file.profiles.map(({ profile, fingerprint }, i) => ({ profile, fingerprint, add: [...file.names(i).add].flat(), delete: [...file.names(i).delete].flat() }));
      return { ...file.head, profiles } as SavedPlan;
    } finally {
      await file.close();
    }
  };
  /** A plan's text laid out as --save-plan writes it, unsealed. */
  const layout = (value: unknown): string => `${JSON.stringify(value, null, 1)}\n`;
  const refusal = async (text: string): Promise<ScpctlError> => {
    const error = await read(text).then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ScpctlError);
    return error as ScpctlError;
  };

  /** The plan as --save-plan writes it, sealed. */
  const sealed = async (saved: SavedPlan): Promise<string> => {
    const pieces = serializePlanPieces(saved, saved.profiles, (await IDENTITY.sealer(saved.tenant))!.begin());
    return [...pieces].map((piece) => piece.text).join('');
  };

  it('round-trip', async () => {
    expect(await read(await sealed(plan))).toEqual({ ...plan, seal: expect.stringMatching(/^hmac-sha256:/) });
  });

  it.each([
    ['not JSON', 'nope'],
    ['another format', layout({ ...plan, format: 'other' })],
    ['no base URL', layout({ ...plan, baseUrl: undefined })],
    ['a bad fingerprint', layout({ ...plan, profiles: [{ ...plan.profiles[0], fingerprint: 'md5:x' }] })],
    ['no tenant', layout({ ...plan, tenant: undefined })],
    ['a tenant with the token in it', layout({ ...plan, tenant: { baseUrl: plan.baseUrl, key: 'the-token-1234' } })],
    ['no word on validation', layout({ ...plan, validated: undefined })],
    ['a profile twice', layout({ ...plan, profiles: [plan.profiles[0], plan.profiles[0]] })],
    ['a profile name with a control character', layout({ ...plan, profiles: [{ ...plan.profiles[0], profile: 'fin\u001bance' }] })],
    ['names that are not strings', layout({ ...plan, profiles: [{ ...plan.profiles[0], delete: [1] }] })],
    ['a plan laid out otherwise (one line)', JSON.stringify(plan)],
    ['a line of two names', layout(plan).replace('    "b-b-b"', '    "b-b-b", "c-c-c"')],
    ['names written inline (neither checked nor sealed where the reader takes names from)', layout(plan).replace('   "add": [\n    "b-b-b"\n   ],', '   "add": ["b-b-b"],')],
  ])('refuses %s (exit 2)', async (_, text) => {
    const error = await refusal(text);
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message.startsWith(`${path}: not a plan saved by scpctl apply --save-plan`)).toBe(true);
  });

  it.each([
    ['a name the wire cannot carry, even in delete', { delete: ['a,b'] }, /delete holds "a,b": character "," can never be part of a name/],
    ['an added name against the S3 rules', { add: ['UPPER_case!'] }, /add holds "UPPER_case!": upper-case letters are not allowed/],
    ['an added IP address', { add: ['192.168.1.1'] }, /shaped like an IP address/],
    ['an added name with an invisible character', { add: ['alpha-data\u200b'] }, /character U\+200B is not allowed/],
  ])('refuses %s (exit 2, nothing sent)', async (_, change, reason) => {
    const error = await refusal(layout({ ...plan, profiles: [{ ...plan.profiles[0], ...change }] }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(reason);
    expect(error.message).toMatch(/nothing was sent$/);
  });

  it('a plan made with --no-validate checks added names for the wire only', async () => {
    const loose = { ...plan, validated: false, profiles: [{ ...plan.profiles[0], add: ['Loose_Name'] }] };
    expect((await read(await sealed(loose))).profiles[0]!.add).toEqual(['Loose_Name']);
  });

  it('is bound before its names are checked: a plan of another context or token is refused as such, and an edited one as edited', async () => {
    const bad = await sealed({ ...plan, profiles: [{ ...plan.profiles[0]!, add: ['UPPER_case!'] }] });
    writeFileSync(path, bad);
    const elsewhere = (context: string, token: string): Promise<unknown> =>
      openSavedPlan(path, { context, tokens: [], identity: () => Promise.resolve(tenantIdentity(plan.baseUrl, token)) }).then(() => undefined, (error: unknown) => error);
    expect(await elsewhere('other', 'a-token-of-the-tenant')).toMatchObject({ message: expect.stringContaining('the plan was made for context "default" at https://tenant.example.com, and this run is context "other"') });
    expect(await elsewhere('default', 'another-token-of-it')).toMatchObject({ message: expect.stringContaining('the plan was made with another token') });
    expect((await refusal(bad)).message).toMatch(/add holds "UPPER_case!": upper-case letters are not allowed/);
    expect((await refusal((await sealed(plan)).replace('"b-b-b"', '"c-c-c"'))).message).toContain('the plan was changed after it was saved');
  });

  it('a plan of the first format (no tenant) is refused with the advice to plan again', async () => {
    const error = await refusal(layout({ ...plan, format: 'scpctl-plan/1', tenant: undefined }));
    expect(error.message).toBe(`${path}: the plan was saved by an older scpctl and names no tenant; nothing was sent`);
  });

  it('a plan of the second format (an HMAC of the token as its tenant key) is refused with the advice to plan again', async () => {
    const old = { ...plan, format: 'scpctl-plan/2', tenant: { baseUrl: plan.baseUrl, key: `hmac-sha256:${'0'.repeat(32)}` } };
    const error = await refusal(layout(old));
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(`${path}: the plan was saved by an older scpctl and binds its tenant with a fast hash of the token, which this scpctl no longer trusts; nothing was sent`);
    expect((error as UsageError).hint).toContain('--save-plan');
  });

  it.each([
    ['a tenant key of costly parameters (N = 2^20)', `scrypt:1048576:8:1:${'ab'.repeat(16)}:${'cd'.repeat(32)}`],
    ['a tenant key of cheap parameters (N = 2^10)', `scrypt:1024:8:1:${'ab'.repeat(16)}:${'cd'.repeat(32)}`],
    ['a tenant key with no salt', `scrypt:16384:8:1::${'cd'.repeat(32)}`],
  ])('refuses %s (exit 2)', async (_, key) => {
    const error = await refusal(layout({ ...plan, tenant: { baseUrl: plan.baseUrl, key } }));
    expect(error.message).toMatch(/"tenant" is missing or malformed/);
  });

  it.each([['delete'], ['add']] as const)('refuses a masked stand-in in %s, even from a plan made with --no-validate (exit 2, nothing sent)', async (key) => {
    const masked = { ...plan, validated: false, profiles: [{ ...plan.profiles[0], [key]: ['x***y'] }] };
    const error = await refusal(layout(masked));
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(`${path}: profiles[0].${key} holds "x***y": a name masked when the plan was saved (it held a token); apply from the manifest instead; nothing was sent`);
  });
});
