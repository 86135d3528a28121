// Which tenant a saved plan or a checkpoint was made for: the base URL and a salted, slow hash of the token
// (scrypt, a random 16-byte salt per file, contract section 13). The hash tells tenants apart (behind one
// gateway URL too), yet a file that leaks is no cheap oracle: each guess at the token costs one scrypt, not
// one HMAC, and the salt makes every file its own target. A rotated token is another tenant.
// The same scrypt gives a second key, never stored: the seal of the file's content (an HMAC). The tenant key
// alone is a bearer credential: copied from any older plan or checkpoint of the tenant onto edited changes
// or an edited window, it would match; the seal can only be made with the token.
import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

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
  /**
   * The seal of a file bound to `stored` (made or matched by this identity: one scrypt, with the stored salt
   * and parameters, then none): an HMAC of `parts`, each length-prefixed so that no two lists of parts seal
   * alike. Undefined for another tenant (another token or base URL).
   */
  sealer(stored: Tenant): Promise<Sealer | undefined>;
}

export interface Sealer {
  seal(parts: Iterable<string>): string;
  /** Whether `seal` is the seal of `parts` (compared in constant time). */
  verify(parts: Iterable<string>, seal: unknown): boolean;
  /** The same seal fed a part at a time (a plan's names as each group of them is read), never all held. */
  begin(): SealStream;
}

export interface SealStream {
  add(part: string): void;
  /** The seal of the parts added (once: the HMAC is then spent). */
  seal(): string;
  verify(seal: unknown): boolean;
}

/** A seal as files hold it. */
export const SEAL = /^hmac-sha256:[0-9a-f]{64}$/;

export function tenantIdentity(baseUrl: string, token: string): TenantIdentity {
  return {
    baseUrl,
    async make() {
      const salt = randomBytes(16);
      const derived = await derive(token, baseUrl, salt, N);
      return { baseUrl, key: `scrypt:${N}:${R}:${P}:${salt.toString('hex')}:${derived.subarray(0, 32).toString('hex')}` };
    },
    async sealer(stored) {
      const parts = parseKey(stored.key);
      if (!parts || stored.baseUrl !== baseUrl) return undefined;
      // The key just made, or one matched before, is derive's cached scrypt: no second one.
      const derived = await derive(token, baseUrl, parts.salt, parts.n);
      return timingSafeEqual(derived.subarray(0, 32), parts.hash) ? sealerOf(derived.subarray(32)) : undefined;
    },
  };
}

function sealerOf(key: Buffer): Sealer {
  const begin = (): SealStream => {
    const hmac = createHmac('sha256', key);
    const seal = (): string => `hmac-sha256:${hmac.digest('hex')}`;
    return {
      add: (part) => void hmac.update(`${part.length}:`).update(part),
      seal,
      verify: (given) => typeof given === 'string' && SEAL.test(given) && timingSafeEqual(Buffer.from(seal()), Buffer.from(given)),
    };
  };
  const fed = (parts: Iterable<string>): SealStream => {
    const stream = begin();
    for (const part of parts) stream.add(part);
    return stream;
  };
  return { begin, seal: (parts) => fed(parts).seal(), verify: (parts, given) => fed(parts).verify(given) };
}

/**
 * The base URL is hashed in with the salt: one token at two services gives two unrelated keys. 64 bytes:
 * the first 32 are the stored hash (scrypt's output begins alike whatever its length, so keys made before the
 * seal still match), the last 32 the seal's key.
 */
function derive(token: string, baseUrl: string, salt: Buffer, n: number): Promise<Buffer> {
  const bound = Buffer.concat([salt, Buffer.from(`\nscpctl tenant/2\n${baseUrl}`)]);
  // A process that checks the same file twice (a checkpoint read, then rewritten; the library, or tests, running
  // many commands in one process) pays one scrypt for it. Held in memory only, beside the token it came from.
  const id = `${n}\0${token}\0${bound.toString('hex')}`;
  const known = derived.get(id);
  if (known) return known;
  const made = new Promise<Buffer>((resolve, reject) => {
    scrypt(token, bound, 64, { N: n, r: R, p: P, maxmem: 256 * n * R }, (error, key) => (error ? reject(error) : resolve(key)));
  });
  if (derived.size >= MAX_DERIVED) derived.delete(derived.keys().next().value!);
  derived.set(id, made);
  made.catch(() => derived.delete(id));
  return made;
}

/** Keys derived in this process, by their inputs (a handful a run; a bound for the library's long-lived users). */
const derived = new Map<string, Promise<Buffer>>();
const MAX_DERIVED = 16;

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
