// The emulator guards its own back door (contract section 13): any local process can reach its port, so its
// admin routes need the per-run key, its request log keeps no token, and its own token need not be in argv.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { BIN, TOKEN, removeDir, scpctl, startEmulator, tempDir, until, type Emulator, envFor } from './harness.js';

let emu: Emulator;
let dir: string;
beforeAll(async () => {
  emu = await startEmulator(['--profile', 'finance=alpha-one']);
  dir = tempDir();
});
afterAll(async () => {
  await emu?.stop();
  removeDir(dir);
});

/** A plain local client: what any process on the machine can send. */
function call(url: string, method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, agent: false, headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the admin routes need the per-run key', () => {
  it.each([
    ['GET', '/__emulator/requests'],
    ['DELETE', '/__emulator/requests'],
    ['GET', '/__emulator/profiles/finance'],
    ['POST', '/__emulator/shutdown'],
  ])('%s %s without the key, or with a wrong one, is 401 and does nothing', async (method, path) => {
    expect((await call(emu.url, method, path)).status).toBe(401);
    expect((await call(emu.url, method, path, { authorization: 'Bearer not-the-key' })).status).toBe(401);
    // Still up, and the profile untouched.
    expect((await emu.profile('finance')).buckets).toEqual(['alpha-one']);
  });
});

describe('the request log keeps no token', () => {
  it('neither the accepted token nor a rejected one, raw or URL-encoded, in query or body', async () => {
    await emu.clearRequests();
    const env = envFor(emu, dir);
    expect((await scpctl(['buckets', 'view', 'finance'], { env })).exitCode).toBe(0);
    expect((await scpctl(['report', '--limit', '1'], { env })).exitCode).toBe(0);
    const wrong = 'a-users-real-token-0123456789';
    expect((await scpctl(['buckets', 'view', 'finance'], { env: { ...env, SCPCTL_TOKEN: wrong } })).exitCode).toBe(3);
    const log = JSON.stringify(await emu.requests());
    for (const secret of [TOKEN, encodeURIComponent(TOKEN), wrong]) expect(log).not.toContain(secret);
    expect(log).toContain('"token":"***"');
  });
});

describe('run as a process', () => {
  it('takes its token from SCPCTL_EMULATOR_TOKEN or --token-file (not in ps), prints a new admin key each run, or writes it to a 0600 file', async () => {
    const keyFile = join(dir, 'admin.key');
    const tokenFile = join(dir, 'emu.token');
    writeFileSync(tokenFile, 'file-token-123456\n');
    const first = execa('node', [BIN, 'emulator', '--port', '0', '--token-file', tokenFile, '--admin-key-file', keyFile], { reject: false, env: { NO_COLOR: '1' } });
    const second = execa('node', [BIN, 'emulator', '--port', '0'], { reject: false, env: { NO_COLOR: '1', SCPCTL_EMULATOR_TOKEN: 'env-token-123456' } });
    try {
      let out1 = '';
      let out2 = '';
      first.stdout!.on('data', (c: Buffer) => (out1 += c));
      second.stdout!.on('data', (c: Buffer) => (out2 += c));
      await until(async () => /admin key file: /.test(out1) && /admin key: \S+/.test(out2), 15_000, () => `${out1} | ${out2}`);
      const url1 = /listening on (\S+)/.exec(out1)![1]!;
      const url2 = /listening on (\S+)/.exec(out2)![1]!;
      const key2 = /admin key: (\S+)/.exec(out2)![1]!;
      const key1 = readFileSync(keyFile, 'utf8').trim();
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(key1).not.toBe(key2);
      expect(key1.length).toBeGreaterThanOrEqual(22);
      for (const pid of [first.pid, second.pid]) {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        expect(argv).not.toMatch(/file-token|env-token/);
      }
      const ok = await scpctl(['buckets', 'view', 'demo'], { env: { PATH: process.env.PATH, SCPCTL_CONFIG_DIR: dir, SCPCTL_BASE_URL: url1, SCPCTL_TOKEN: 'file-token-123456' } });
      expect(ok.exitCode, ok.stderr).toBe(0);
      const viaEnv = await scpctl(['buckets', 'view', 'demo'], { env: { PATH: process.env.PATH, SCPCTL_CONFIG_DIR: dir, SCPCTL_BASE_URL: url2, SCPCTL_TOKEN: 'env-token-123456' } });
      expect(viaEnv.exitCode, viaEnv.stderr).toBe(0);
      expect((await call(url2, 'GET', '/__emulator/requests', { authorization: `Bearer ${key2}` })).status).toBe(200);
      expect((await call(url1, 'POST', '/__emulator/shutdown', { authorization: `Bearer ${key1}` })).status).toBe(200);
      expect((await first).exitCode).toBe(0);
    } finally {
      first.kill('SIGTERM');
      second.kill('SIGTERM');
      await Promise.allSettled([first, second]);
    }
  }, 30_000);
});
