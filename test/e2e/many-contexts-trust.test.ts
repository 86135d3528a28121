// --contexts against tenants that do not trust each other (a red-team review of section 16): a token one
// context fetches (its tokenCommand, the OS credential store) is known to the mask and to the input checks of
// every context before any of them reads an input or prints an answer, so neither an earlier context's
// service nor its input can carry it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectAll } from '../../src/library/index.js';
import { envFor, has, loginContexts, removeDir, scpctl, spawnScpctl, startEmulator, tempDir, typeInTerminal, until, type Emulator } from './harness.js';

/** Bravo's token: fetched by its tokenCommand, so in no file; shaped as a valid bucket name, so only the token check can stop it. */
const BRAVO = 'tokbravo7hr8nv1spz2kq';
const ALPHA = 'tok_Alpha+/=9fK2mQ7wLx';

describe('--contexts: one tenant never sees another tenant\'s fetched token', () => {
  let alpha: Emulator;
  let bravo: Emulator;
  let dir: string;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    [alpha, bravo] = await Promise.all([
      startEmulator(['--token', ALPHA, '--profile', 'finance=alpha-one']),
      startEmulator(['--token', BRAVO, '--profile', 'finance=bravo-one']),
    ]);
    dir = tempDir('scpctl-many-trust-');
    env = envFor(undefined, dir);
    await loginContexts(env, [['alpha', alpha.url, ALPHA]]);
    for (const args of [['baseUrl', bravo.url], ['tokenCommand', JSON.stringify(['printf', '%s\\n', BRAVO])]]) {
      const set = await scpctl(['--context', 'bravo', 'config', 'set', ...args], { env });
      expect(set.exitCode, set.stderr).toBe(0);
    }
  });
  afterAll(async () => {
    await Promise.all([alpha?.stop(), bravo?.stop()]);
    if (dir) removeDir(dir);
  });

  it("alpha's service answering with bravo's token prints it masked, whatever --parallel", async () => {
    await alpha.setProfile('finance', ['alpha-one', BRAVO]);
    for (const parallel of ['1', '2']) {
      const r = await scpctl(['buckets', 'view', 'finance', '--contexts', '*', '--parallel', parallel, '-o', 'text'], { env });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(BRAVO);
      expect(r.stdout).toContain('alpha\talpha-one');
    }
    await alpha.setProfile('finance', ['alpha-one']);
  });

  it('standard input, read once for all as one context reads it: bytes that are not UTF-8 are refused for each, nothing sent', async () => {
    await alpha.clearRequests();
    const r = await scpctl(['buckets', 'append', 'finance', '--contexts', '*'], { env, input: Buffer.from([0x61, 0x62, 0x63, 0xff, 0x0a]) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^alpha: scpctl: stdin:1: not valid UTF-8$/m);
    expect(r.stderr).toMatch(/^bravo: scpctl: stdin:1: not valid UTF-8$/m);
    expect((await alpha.requests()).filter((request) => request.op === 'appendToBucketList')).toEqual([]);
  });

  it("bravo's token in an input is refused for alpha too: it never reaches alpha's service", async () => {
    const list = join(dir, 'names.txt');
    writeFileSync(list, `new-bucket\n${BRAVO}\n`);
    await alpha.clearRequests();
    const r = await scpctl(['buckets', 'append', 'finance', '-f', list, '--contexts', '*', '--parallel', '1'], { env });
    expect(r.stdout + r.stderr).not.toContain(BRAVO);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^alpha: .*looks like the API token/m);
    expect(JSON.stringify(await alpha.requests())).not.toContain(BRAVO);
    expect((await alpha.profile('finance')).buckets).toEqual(['alpha-one']);
  });

  it("connectAll: bravo's token is refused as a name for alpha, and masked in alpha's errors", async () => {
    await alpha.clearRequests();
    const tenants = await connectAll('*', { env, parallel: 1 });
    const { outcomes } = await tenants.each((scp) => scp.buckets.append('finance', ['new-bucket', BRAVO]));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['failed', 'failed']);
    expect(JSON.stringify(await alpha.requests())).not.toContain(BRAVO);
    expect((await alpha.profile('finance')).buckets).toEqual(['alpha-one']);
  });

  it('a stored context whose name is no context name (escapes, bidi, a tab) is refused before anything is sent, never printed raw', async () => {
    const path = join(dir, 'config.json');
    const kept = readFileSync(path, 'utf8');
    const config = JSON.parse(kept) as { contexts: Record<string, unknown> };
    const forged = 'zz\talpha: ok\u001b[2K\u202e';
    config.contexts[forged] = { baseUrl: alpha.url, token: ALPHA };
    writeFileSync(path, JSON.stringify(config), { mode: 0o600 });
    try {
      await alpha.clearRequests();
      const r = await scpctl(['buckets', 'append', 'finance', 'new-bucket', '--contexts', '*', '--yes'], { env });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('zz\\talpha: ok\\x1b[2K\\u202e');
      expect(r.stdout + r.stderr).not.toMatch(/[\t\u001b\u202e]/);
      expect(await alpha.requests()).toEqual([]);
    } finally {
      writeFileSync(path, kept, { mode: 0o600 });
    }
  });

  it('Ctrl-C mid fan-out: stderr still ends with a line per context, saying which changed, which were at work, which never started', async () => {
    await bravo.faults([{ kind: 'delay', ms: 20_000, endpoint: 'bucket', count: 5 }]);
    await bravo.clearRequests();
    const child = spawnScpctl(['buckets', 'append', 'finance', 'late-bucket', '--contexts', '*', '--parallel', '1'], { env });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await until(async () => stderr.includes('alpha: ✔') && (await bravo.requests()).length > 0);
    child.kill('SIGINT');
    const r = await child;
    await bravo.clearFaults();
    expect(r.exitCode).toBe(130);
    expect(String(r.stderr).split('\n').filter((line) => /^(alpha|bravo): (ok|interrupted|exit|not started)/.test(line))).toEqual([
      'alpha: ok',
      'bravo: interrupted at work (its change may or may not have been made)',
    ]);
    expect((await alpha.profile('finance')).buckets).toContain('late-bucket');
  });

  it.skipIf(!has('script'))('at a terminal, a change to several contexts asks first with --json too (the question is on stderr, the JSON stays whole)', async () => {
    await Promise.all([alpha.clearRequests(), bravo.clearRequests()]);
    const no = await typeInTerminal(['buckets', 'append', 'finance', 'json-bucket', '--contexts', '*', '--json'], env, [{ when: /\? \[y\/N\] $/, keys: 'n\r' }]);
    expect(no.exitCode, no.screen).toBe(1);
    expect(no.screen).toContain('Change 2 contexts (alpha, bravo)? [y/N] n');
    expect((await alpha.requests()).filter((request) => request.op === 'appendToBucketList')).toEqual([]);
    expect((await bravo.requests()).filter((request) => request.op === 'appendToBucketList')).toEqual([]);
  });
});
