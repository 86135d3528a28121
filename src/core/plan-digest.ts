// The digest of a plan (contract section 15): what a pull request's reviewers saw, as one short string the
// GitHub Action keeps in its plan comment and compares at merge. It covers, per profile in manifest order,
// the name, the live list's fingerprint and the planned additions and deletions (each a sorted set: the
// order names are listed in is no change). Equal digests: the same profiles, read from the same live lists,
// making the same changes.
import type { ProfilePlan } from './plan.js';
import { crypto } from './fingerprint.js';

/** Names a hash update (as in fingerprint.ts: many small updates cost several times more than a few large ones). */
const CHUNK = 20_000;

export type DigestedProfile = Pick<ProfilePlan, 'profile' | 'add' | 'delete' | 'fingerprint' | 'status' | 'error'>;

export function planDigest(profiles: readonly DigestedProfile[]): string {
  const hash = crypto().createHash('sha256').update('scpctl plan digest/1\n');
  for (const p of profiles) {
    // A profile that could not be read is part of what was shown: its digest is never a clean plan's.
    const failed = p.status === 'failed' ? (p.error?.exitCode ?? 1) : 0;
    hash.update(`${JSON.stringify([p.profile, p.fingerprint ?? null, failed, p.add.length, p.delete.length])}\n`);
    // JSON-quoted, one a line, each list counted first: no name (even one holding a newline) runs into the next.
    for (const [sign, names] of [['+', p.add], ['-', p.delete]] as const) {
      const sorted = [...new Set(names)].sort();
      for (let i = 0; i < sorted.length; i += CHUNK) {
        hash.update(sorted.slice(i, i + CHUNK).map((name) => `${sign}${JSON.stringify(name)}\n`).join(''));
      }
    }
  }
  return `sha256:${hash.digest('hex')}`;
}
