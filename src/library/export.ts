// A manifest of the live lists (issue 36): `scp.export(profiles)` and `scpctl apply --export`, one
// implementation. Each profile is read once at the client-side rate, and the value returned is what
// `apply -f` reads back as no change: every live name must pass the rules apply holds a manifest to (the S3
// naming rules, which a manifest cannot lift, and no known token in any form), or nothing is returned.
// All or nothing: a file meant to be committed must never silently leave a profile out.
import { Interrupted, UsageError } from '../errors.js';
import type { BucketList } from '../api/bucket-list.js';
import { MAX_REPORTED_INVALID, describeInvalidNames, validateS3Name, type InvalidName } from '../core/names.js';
import { SECRET_NAME_REASON, holdsSecret } from '../core/secret-names.js';
import { mayHoldSecret } from '../core/secrets.js';
import { fanOut } from '../core/fan-out.js';
import { checkProfileName } from './buckets.js';
import { CONCURRENCY, type Ride } from './plan.js';
import type { Session } from './session.js';

/** A manifest (a ManifestInput) of every profile's live names. */
export type ExportedManifest = { profiles: Record<string, { buckets: string[]; allowEmpty?: true }> };

/** In the order given; a profile given twice counts once. */
export async function exportProfiles(session: Session, profiles: readonly string[], ride: Ride): Promise<ExportedManifest> {
  if (!Array.isArray(profiles) || profiles.length === 0) throw new UsageError('export needs at least one profile name');
  const tokens = session.tokens();
  for (const profile of profiles) checkProfileName(profile, tokens);
  const unique = [...new Set(profiles)];
  const lists = await readAll(session, unique, ride);
  refuseUnexportable(lists, tokens);
  // No prototype: a profile named `__proto__` is a key like any other.
  const out: ExportedManifest['profiles'] = Object.create(null);
  for (const list of lists) {
    const names = [...new Set(list.names())];
    out[list.profile] = names.length > 0 ? { buckets: names } : { buckets: [], allowEmpty: true };
  }
  return { profiles: out };
}

/** Every list read (at most CONCURRENCY at once, paced); after a failure no new read starts, and the first failure in order is thrown. */
async function readAll(session: Session, profiles: readonly string[], ride: Ride): Promise<BucketList[]> {
  const client = await session.pacedClient();
  // Reads start in order, so every profile before a failing one was read: the first failure is the same whatever the timing.
  const lists: BucketList[] = [];
  const read = await fanOut(profiles, { parallel: CONCURRENCY, failFast: true }, async (profile, index) => {
    lists[index] = await ride(profile, () => client.viewList(profile));
  });
  const failures = read.flatMap((outcome) => (outcome.status === 'failed' ? [outcome.error] : []));
  if (failures.length > 0) throw failures.find((error) => error instanceof Interrupted) ?? failures[0];
  return lists;
}

/**
 * Refuses lists a manifest could not carry back unchanged: a name holding a known token (it would rest in
 * a committed file) and a name apply would refuse (a manifest is always read with the naming rules on).
 */
function refuseUnexportable(lists: readonly BucketList[], tokens: readonly string[]): void {
  const secret: string[] = [];
  const invalid: InvalidName[] = [];
  let invalidCount = 0;
  for (const list of lists) {
    // One look over the whole list first: a name at a time only when it may hold a token.
    const mayHold = mayHoldSecret(list.lines(), tokens);
    for (const name of list) {
      if (mayHold && holdsSecret(name, tokens)) {
        if (!secret.includes(list.profile)) secret.push(list.profile);
        continue;
      }
      const reason = validateS3Name(name);
      if (reason === null) continue;
      invalidCount++;
      if (invalid.length < MAX_REPORTED_INVALID) invalid.push({ where: list.profile, name, reason });
    }
  }
  if (secret.length === 0 && invalidCount === 0) return;
  const details = [...secret.map((profile) => `${profile}: ${SECRET_NAME_REASON}`), ...describeInvalidNames({ invalid, invalidCount }, tokens)];
  if (secret.length > 0) {
    throw Object.assign(new UsageError(`the live list of ${secret.join(', ')} holds ${SECRET_NAME_REASON}; nothing was exported`, {
      hint: 'Remove that name in the service first: a manifest is committed, and a token must never rest in it.',
    }), { details });
  }
  const profiles = [...new Set(invalid.map((name) => name.where))];
  throw Object.assign(new UsageError(
    `${invalidCount} live name${invalidCount === 1 ? '' : 's'} of ${profiles.join(', ')}${invalidCount > invalid.length ? ' and more' : ''} ${invalidCount === 1 ? 'is' : 'are'} not a valid S3 bucket name; apply reads a manifest with the naming rules on, so nothing was exported`,
    { hint: 'Remove or rename them in the service (scpctl buckets delete PROFILE --no-validate NAME), or leave those profiles out of --export.' },
  ), { details });
}
