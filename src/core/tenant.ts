// Which tenant a saved plan or a checkpoint was made for: the base URL and a keyed hash of the token. The
// token is the key, so the hash tells tenants apart (behind one gateway URL too) yet is useless to anyone
// who reads the file: without the token it can be neither reversed nor checked against a guess.
// A rotated token is another tenant: the plan or checkpoint must be made again.
import { createHmac } from 'node:crypto';

export interface Tenant {
  baseUrl: string;
  /** `hmac-sha256:` and 32 hex digits. */
  key: string;
}

export const TENANT_KEY = /^hmac-sha256:[0-9a-f]{32}$/;

export function tenantOf(baseUrl: string, token: string): Tenant {
  const key = createHmac('sha256', token).update(`scpctl tenant/1\n${baseUrl}`).digest('hex').slice(0, 32);
  return { baseUrl, key: `hmac-sha256:${key}` };
}

/** Whether a tenant read from a file has the shape this module writes. */
export function isTenant(value: unknown): value is Tenant {
  if (typeof value !== 'object' || value === null) return false;
  const { baseUrl, key } = value as Record<string, unknown>;
  return typeof baseUrl === 'string' && typeof key === 'string' && TENANT_KEY.test(key);
}
