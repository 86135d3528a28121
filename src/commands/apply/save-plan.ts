// `apply --dry-run --save-plan FILE`: the plan written for `apply --plan`, a piece at a time (never one string
// of the whole plan), sealed with a key only the token makes over the same parts as the pieces are made, and
// refused while it is written when it grows larger than apply --plan reads (the temporary file then removed).
import type { Sealer, Tenant } from '../../core/tenant.js';
import { holdsSecret } from '../../core/secret-names.js';
import { UsageError } from '../../errors.js';
import { PLAN_FORMAT, SMALLER_PLANS, serializePlanPieces } from '../../core/saved-plan.js';
import type { PlanPiece, SavedPlanHead, SavedProfilePlan } from '../../core/saved-plan.js';
import type { Work } from '../../library/plan.js';
import type { CommandContext } from '../context.js';
import { writeWhole } from './export-files.js';
import { PLAN_LIMITS } from '../../core/plan-lines.js';
import { MAX_PLAN_BYTES } from './saved-plan-file.js';

export async function savePlan(ctx: CommandContext, path: string, work: readonly Work[], about: { tenant: Tenant; sealer: Sealer; manifest: string }): Promise<void> {
  const failed = work.filter((w) => w.status === 'failed');
  if (failed.length > 0) {
    // A plan must cover the whole manifest: one that silently left a profile out would be applied as complete.
    ctx.term.warn(`no plan saved to ${path}: ${failed.length} profile${failed.length === 1 ? '' : 's'} could not be planned`);
    return;
  }
  refuseSecretPlan(ctx, path, work);
  if (work.length > PLAN_LIMITS.entries) {
    throw new UsageError(`--save-plan ${path}: the plan would name ${work.length.toLocaleString('en-US')} profiles, more than apply --plan reads (${PLAN_LIMITS.entries.toLocaleString('en-US')}); no plan was saved`);
  }
  const head: SavedPlanHead = {
    format: PLAN_FORMAT,
    createdAt: new Date(ctx.clock.now()).toISOString(),
    baseUrl: about.tenant.baseUrl,
    context: ctx.settings().context.value,
    tenant: about.tenant,
    validated: true,
    manifest: about.manifest,
  };
  const profiles = work.map((w): SavedProfilePlan => ({ profile: w.profile, fingerprint: w.fingerprint!, add: w.add, delete: w.delete }));
  // The seal is fed each profile's parts as its pieces are made, and written last.
  writeWhole(path, checkedPieces(ctx, path, serializePlanPieces(head, profiles, about.sealer.begin())), `the plan ${path}`);
  ctx.term.info(`plan saved to ${path}; apply it with: scpctl apply --plan ${path}`);
}

/** The plan's pieces, masked, as long as apply --plan could read them: each profile within its bound, the whole within 64 MiB. */
function* checkedPieces(ctx: CommandContext, path: string, pieces: Iterable<PlanPiece>): Generator<string> {
  let total = 0;
  let profile = { name: '', bytes: 0 };
  for (const piece of pieces) {
    const text = ctx.term.redact(piece.text);
    const bytes = Buffer.byteLength(text);
    if (piece.profile !== undefined) profile = { name: piece.profile, bytes: 0 };
    total += bytes;
    profile.bytes += bytes;
    const tooLarge =
      profile.bytes > PLAN_LIMITS.entryBytes ? `its profile ${profile.name} would be over ${PLAN_LIMITS.entryBytes / 1024 / 1024} MiB` : total > MAX_PLAN_BYTES ? 'it would be over 64 MiB' : undefined;
    if (tooLarge) throw new UsageError(`--save-plan ${path}: ${tooLarge}, more than apply --plan reads; no plan was saved`, { hint: SMALLER_PLANS });
    yield text;
  }
}

/**
 * A plan that would have to name a token-holding name (one the service returned, to delete) is not saved:
 * written as it is it would rest the token on disk, written masked it would delete the stand-in and report
 * success while the real name stays. Applying straight from the manifest needs no file.
 */
function refuseSecretPlan(ctx: CommandContext, path: string, work: readonly Work[]): void {
  const tokens = ctx.knownTokens();
  const holding = work.filter((w) => w.add.some((name) => holdsSecret(name, tokens)) || w.delete.some((name) => holdsSecret(name, tokens)));
  if (holding.length === 0) return;
  throw new UsageError(`--save-plan ${path}: the plan would have to name a name that looks like the API token (not shown) in ${holding.map((w) => w.profile).join(', ')}; no plan saved`, {
    hint: 'Apply it directly from the manifest: scpctl apply -f MANIFEST (a saved plan never holds a token).',
  });
}
