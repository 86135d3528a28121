// The tenant key of plans and checkpoints (contract section 13): a salted, slow hash of the token, so a file
// that leaks is no cheap oracle for guessing it. The attack it answers: the second plan format stored
// HMAC-SHA256(token, "scpctl tenant/1\n" + baseUrl) beside the base URL, so one HMAC per guess (millions a
// second) told whether a guessed token was right.
import { beforeAll, describe, expect, it } from 'vitest';
import { createHmac, scryptSync } from 'node:crypto';
import { isTenant, tenantIdentity, type Tenant } from '../../src/core/tenant.js';

const BASE = 'https://tenant.example.com';
const TOKEN = 'token-of-tenant-a-0123';

/** What an attacker holding a plan file would compute for one guess with the old binding: one HMAC. */
function oldOracle(stored: { baseUrl: string; key: string }, guess: string): boolean {
  const mac = createHmac('sha256', guess).update(`scpctl tenant/1\n${stored.baseUrl}`).digest('hex').slice(0, 32);
  return stored.key.endsWith(mac);
}

describe('the tenant key', () => {
  // One key for every test: each scrypt is 16 MiB and tens of milliseconds, on purpose.
  let stored: Tenant;
  beforeAll(async () => {
    stored = await tenantIdentity(BASE, TOKEN).make();
  });

  it('is scrypt (N >= 2^14, r 8, p 1) with a random 16-byte salt per file, and holds no token', async () => {
    const [a, b] = [stored, await tenantIdentity(BASE, TOKEN).make()];
    expect(isTenant(a)).toBe(true);
    const [, n, r, p, salt, hash] = a.key.split(':');
    expect(Number(n)).toBeGreaterThanOrEqual(2 ** 14);
    expect([Number(r), Number(p)]).toEqual([8, 1]);
    expect(Buffer.from(salt!, 'hex')).toHaveLength(16);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.key).not.toContain(TOKEN);
    // Two files, two salts: a guess tried against one file says nothing of the other.
    expect(b.key.split(':')[4]).not.toBe(salt);
    expect(b.key).not.toBe(a.key);
  });

  it('one HMAC no longer confirms a guess; confirming the right one takes an scrypt with the stored salt', () => {
    expect(oldOracle(stored, TOKEN)).toBe(false);
    const [, n, r, p, salt, hash] = stored.key.split(':');
    const bound = Buffer.concat([Buffer.from(salt!, 'hex'), Buffer.from(`\nscpctl tenant/2\n${BASE}`)]);
    const guess = (token: string) => scryptSync(token, bound, 32, { N: Number(n), r: Number(r), p: Number(p) }).toString('hex') === hash;
    expect(guess(TOKEN)).toBe(true);
  });

  // The right token's match is every e2e plan and checkpoint run's; here the wrong ones.
  it('another token or another base URL does not match', async () => {
    expect(await tenantIdentity(BASE, 'token-of-tenant-b-0123').sealer(stored)).toBeUndefined();
    expect(await tenantIdentity('https://other.example.com', TOKEN).sealer({ ...stored, baseUrl: 'https://other.example.com' })).toBeUndefined();
  });

  it('an edited key of other parameters is no tenant: a file cannot make a run spend gigabytes or nothing', async () => {
    for (const n of ['1024', '1048576', '20000']) {
      const edited = { ...stored, key: stored.key.replace(/^scrypt:\d+:/, `scrypt:${n}:`) };
      expect(isTenant(edited)).toBe(false);
      expect(await tenantIdentity(BASE, TOKEN).sealer(edited)).toBeUndefined();
    }
    expect(isTenant({ baseUrl: BASE, key: `hmac-sha256:${'0'.repeat(32)}` })).toBe(false);
  });
});
