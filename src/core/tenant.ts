// Which tenant a saved plan or a checkpoint was made for: the base URL and a salted, slow hash of the token
// (scrypt, N = 2^14, r = 8, p = 1, a random 16-byte salt per file, contract section 13). The hash tells
// tenants apart (behind one gateway URL too), yet a file that leaks is no cheap oracle: each guess at the
// token costs one scrypt (16 MiB, tens of milliseconds), not one HMAC, and the salt makes every file its own
// target. The run pays one scrypt per file: a fresh key when it writes one, a check against the stored salt
// when it reads one (a checkpoint keeps its key when it is rewritten).
// A rotated token is another tenant: the plan or checkpoint must be made again.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface Tenant {
  baseUrl: string;
  /** `scrypt:N:r:p:SALT:HASH`, the salt 32 and the hash 64 hex digits. */
  key: string;
}

/** The parameters written; reading accepts N up to 2^16 (64 MiB), so a later, costlier N still reads. */
const N = 2 ** 14;
const R = 8;
const P = 1;
const MAX_N = 2 ** 16;
const TENANT_KEY = /^scrypt:(\d{1,6}):(\d{1,2}):(\d{1,2}):([0-9a-f]{32}):([0-9a-f]{64})$/;

/** The run's side of the binding: the token stays in here, and only keys made from it leave. */
export interface TenantIdentity {
  readonly baseUrl: string;
  /** A new key with a new salt: for a file about to be written. */
  make(): Promise<Tenant>;
  /** Whether `stored` was made with this token and base URL (one scrypt, with the stored salt and parameters). */
  matches(stored: Tenant): Promise<boolean>;
}

export function tenantIdentity(baseUrl: string, token: string): TenantIdentity {
  return {
    baseUrl,
    async make() {
      const salt = randomBytes(16);
      const hash = await derive(token, baseUrl, salt, N);
      return { baseUrl, key: `scrypt:${N}:${R}:${P}:${salt.toString('hex')}:${hash.toString('hex')}` };
    },
    async matches(stored) {
      const parts = parseKey(stored.key);
      if (!parts || stored.baseUrl !== baseUrl) return false;
      return timingSafeEqual(await derive(token, baseUrl, parts.salt, parts.n), parts.hash);
    },
  };
}

/** The base URL is hashed in with the salt: one token at two services gives two unrelated keys. */
function derive(token: string, baseUrl: string, salt: Buffer, n: number): Promise<Buffer> {
  const bound = Buffer.concat([salt, Buffer.from(`\nscpctl tenant/2\n${baseUrl}`)]);
  return new Promise((resolve, reject) => {
    scrypt(token, bound, 32, { N: n, r: R, p: P, maxmem: 256 * n * R }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

function parseKey(key: string): { n: number; salt: Buffer; hash: Buffer } | undefined {
  const match = TENANT_KEY.exec(key);
  if (!match) return undefined;
  const [n, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // A power of two within the bound: an edited file must not make a run spend gigabytes or minutes.
  if (n < N || n > MAX_N || (n & (n - 1)) !== 0 || r !== R || p !== P) return undefined;
  return { n, salt: Buffer.from(match[4]!, 'hex'), hash: Buffer.from(match[5]!, 'hex') };
}

/** Whether a tenant read from a file has the shape this module writes. */
export function isTenant(value: unknown): value is Tenant {
  if (typeof value !== 'object' || value === null) return false;
  const { baseUrl, key } = value as Record<string, unknown>;
  return typeof baseUrl === 'string' && typeof key === 'string' && parseKey(key) !== undefined;
}
