// No token rests on disk outside the credential store (contract section 13): a name the service returns
// holding the token is kept masked in history and never in profiles-seen, restore refuses a masked or
// token-holding name, --save-plan refuses a plan that would name one, apply --plan never sends a masked
// stand-in, the plan's tenant key is no cheap oracle, and the emulator's log masks bodies of any size.
import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { ERROR_STYLES, TOKEN, envFor, scpctl, useEmulator, type Emulator } from './harness.js';

/** A name the service holds with the token inside (someone named a bucket after it in the console). */
const HELD = `x${TOKEN}y`;
const FORMS = [TOKEN, encodeURIComponent(TOKEN)];

/** Every file's text under a folder: what rests on disk. */
function textsUnder(root: string): string {
  if (!existsSync(root)) return '';
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
}

describe.each(ERROR_STYLES)('$name', ({ args }) => {
  let emu: Emulator;
  let dir: string;
  useEmulator(['--profile', 'finance', ...args], (suite) => ({ emu, dir } = suite));
  const state = () => join(dir, 'state');
  const run = (argv: string[]) => scpctl(argv, { env: envFor(emu, dir, { SCPCTL_STATE_DIR: state() }), cwd: dir });
  const ops = async () => (await emu.requests()).map((q) => q.op);

  it('history keeps a token-holding name masked; restore refuses it (masked, or as an older scpctl kept it): exit 2, nothing sent', async () => {
    await emu.setProfile('finance', ['alpha-data', HELD]);
    expect((await run(['buckets', 'replace', 'finance', 'bravo-logs'])).exitCode).toBe(0);
    const kept = textsUnder(state());
    for (const form of FORMS) expect(kept).not.toContain(form);
    expect(kept).toContain('"x***y"');
    const id = JSON.parse((await run(['buckets', 'history', 'finance', '--json'])).stdout)[0].id as string;

    await emu.clearRequests();
    const masked = await run(['buckets', 'restore', 'finance', '--to', id]);
    expect(masked.exitCode, masked.stderr).toBe(2);
    expect(masked.stderr).toContain(`version ${id} holds 1 name that cannot be restored; nothing was sent`);
    expect(masked.stderr).toContain(`version ${id}:2: "x***y": a name kept masked because it held a token`);

    // An entry an older scpctl wrote holds the name as it is.
    const file = readdirSync(state(), { recursive: true, withFileTypes: true }).find((e) => e.name === `${id}.json`)!;
    const path = join(file.parentPath, file.name);
    writeFileSync(path, readFileSync(path, 'utf8').replace('x***y', HELD));
    const held = await run(['buckets', 'restore', 'finance', '--to', id, '--dry-run']);
    expect(held.exitCode, held.stderr).toBe(2);
    expect(held.stderr).toContain(`version ${id}:2: a name that looks like the API token (not shown)`);
    expect(await ops()).toEqual([]);
    expect((await emu.profile('finance')).buckets).toEqual(['bravo-logs']);
  });

  it('--save-plan refuses a plan that would name a token-holding name (exit 2, no file); apply from the manifest removes it', async () => {
    await emu.setProfile('finance', ['alpha-data', HELD]);
    writeFileSync(join(dir, 'm.yaml'), 'profiles:\n  finance:\n    buckets: [alpha-data]\n');
    const saved = await run(['apply', '-f', 'm.yaml', '--dry-run', '--save-plan', 'held.json']);
    expect(saved.exitCode, saved.stderr).toBe(2);
    expect(saved.stderr).toContain('--save-plan held.json: the plan would have to name a name that looks like the API token (not shown) in finance; no plan saved');
    expect(saved.stderr).toContain('Apply it directly from the manifest');
    expect(existsSync(join(dir, 'held.json'))).toBe(false);
    const direct = await run(['apply', '-f', 'm.yaml']);
    expect(direct.exitCode, direct.stderr).toBe(0);
    expect((await emu.profile('finance')).buckets).toEqual(['alpha-data']);
  });

  it('apply --plan never deletes a masked stand-in; the plan binds its tenant with salted scrypt, not a one-HMAC oracle', async () => {
    await emu.setProfile('finance', ['alpha-data', 'bravo-logs']);
    writeFileSync(join(dir, 'm.yaml'), 'profiles:\n  finance:\n    buckets: [alpha-data]\n');
    expect((await run(['apply', '-f', 'm.yaml', '--dry-run', '--save-plan', 'plan.json'])).exitCode).toBe(0);
    const plan = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8'));
    // The attack on the old binding: one HMAC with a guessed token, compared with the stored key.
    const mac = createHmac('sha256', TOKEN).update(`scpctl tenant/1\n${plan.tenant.baseUrl}`).digest('hex').slice(0, 32);
    expect(plan.tenant.key.endsWith(mac)).toBe(false);
    expect(plan.tenant.key).toMatch(/^scrypt:16384:8:1:[0-9a-f]{32}:[0-9a-f]{64}$/);

    // What an older scpctl saved for a token-holding name it was to delete: the mask's stand-in.
    plan.profiles[0].delete = ['x***y'];
    writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan, null, 1));
    await emu.clearRequests();
    const r = await run(['apply', '--plan', 'plan.json']);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('profiles[0].delete holds "x***y": a name masked when the plan was saved');
    expect(await ops()).toEqual([]);
    expect((await emu.profile('finance')).buckets).toEqual(['alpha-data', 'bravo-logs']);
  });
});

describe('other files at rest', () => {
  let emu: Emulator;
  let dir: string;
  useEmulator(['--profile', 'finance'], (suite) => ({ emu, dir } = suite));

  it("a profile name holding the token is refused before anything is sent or kept; the emulator's log masks it in a query", async () => {
    // The profile name becomes a history folder and header, a profiles-seen entry and a plan's key: a
    // token in it would rest on disk. It is refused at the boundary, as a bucket name holding one is.
    const profile = `p${TOKEN}`;
    await emu.setProfile(profile, ['alpha-data']);
    await emu.clearRequests();
    for (const argv of [['buckets', 'view', profile], ['buckets', 'replace', profile, 'alpha-data', '--yes']]) {
      const r = await scpctl(argv, { env: envFor(emu, dir, { SCPCTL_STATE_DIR: join(dir, 'state') }) });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain('the profile name is a name that looks like the API token (not shown)');
      for (const form of FORMS) expect(r.stdout + r.stderr).not.toContain(form);
    }
    expect(await emu.requests()).toEqual([]);
    for (const form of FORMS) expect(textsUnder(dir)).not.toContain(form);
    // The emulator, asked directly, keeps no copy of the token in its log of the query either.
    await new Promise<void>((resolve, reject) => {
      const query = `token=${encodeURIComponent(TOKEN)}&name=${encodeURIComponent(profile)}&op=viewBucketList`;
      const req = request(`${emu.url}/api/v1/storage_constraint_profile?${query}`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end('{}');
    });
    const log = JSON.stringify(await emu.requests());
    for (const form of FORMS) expect(log).not.toContain(form);
    expect(log).toContain('"name":"p***"');
  });

  it('a manifest profile named with the token in a form the raw search misses (upper-cased) is refused by line: exit 2, nothing sent', async () => {
    const manifest = join(dir, 'upper.yaml');
    writeFileSync(manifest, `profiles:\n  finance:\n    buckets: [alpha-data]\n  "p${TOKEN.toUpperCase()}":\n    buckets: [alpha-data]\n`);
    await emu.clearRequests();
    const r = await scpctl(['apply', '-f', manifest, '--yes'], { env: envFor(emu, dir, { SCPCTL_STATE_DIR: join(dir, 'state') }) });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${manifest}:4: the profile name is a name that looks like the API token (not shown)`);
    for (const form of FORMS) expect((r.stdout + r.stderr).toUpperCase()).not.toContain(form.toUpperCase().slice(0, 6));
    expect(await emu.requests()).toEqual([]);
  });

  it('a report filter holding the token is refused before anything is sent or a checkpoint is written', async () => {
    const checkpoint = join(dir, 'filter.ckpt');
    await emu.clearRequests();
    for (const filter of [['--query', `user eq ${TOKEN}`], ['--where', `user=${TOKEN.toUpperCase()}`], ['--alert-type', TOKEN]]) {
      const r = await scpctl(['report', '--type', 'alert', ...filter, '--all', '--checkpoint', checkpoint], { env: envFor(emu, dir) });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain('holds a name that looks like the API token (not shown); nothing was sent');
      for (const form of FORMS) expect((r.stdout + r.stderr).toUpperCase()).not.toContain(form.toUpperCase().slice(0, 6));
    }
    expect(existsSync(checkpoint)).toBe(false);
    expect(await emu.requests()).toEqual([]);
  });

  it('a checkpoint of the HMAC binding is refused naming it, with the --start that continues it: no window lost, nothing sent', async () => {
    const path = join(dir, 'cp.json');
    const old = { kind: 'scpctl-report-checkpoint', version: 2, end: 1_700_000_000, start: 1_699_990_000, records: 3, completedAt: '', filters: [], tenant: { baseUrl: emu.url, key: `hmac-sha256:${'0'.repeat(32)}` } };
    writeFileSync(path, JSON.stringify(old));
    await emu.clearRequests();
    const r = await scpctl(['report', '--all', '--checkpoint', path], { env: envFor(emu, dir) });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--checkpoint ${path}: written by an older scpctl, its tenant key is a fast hash of the token`);
    expect(r.stderr).toContain('--start 1700000000');
    expect(await emu.requests()).toEqual([]);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(old);
  });

  it("the emulator's request log masks a body over 64 KiB: its token field and every form of a known token", async () => {
    const wrong = 'a-users-real-token-0123456789';
    const body = JSON.stringify({ token: wrong, note: `${encodeURIComponent(TOKEN)} ${TOKEN}`, pad: 'a'.repeat(70 * 1024) });
    await emu.clearRequests();
    await new Promise<void>((resolve, reject) => {
      const req = request(`${emu.url}/api/v1/report`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(body);
    });
    const [logged] = await emu.requests();
    expect(logged!.bodyBytes).toBeGreaterThan(64 * 1024);
    expect(logged!.body).toMatch(/^\{"token":"\*\*\*","note":"\*\*\* \*\*\*","pad":"a+$/);
    for (const secret of [wrong, ...FORMS]) expect(JSON.stringify(logged)).not.toContain(secret);
  });
});
