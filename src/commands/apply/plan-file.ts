// A saved plan as a file handed between jobs (contract sections 10 and 13): applied only where it was made
// (context and tenant) and as it was sealed, with no name holding a token, and recognised when it was applied
// before. It is read as saved-plan-file.ts says; the file's shape is core/saved-plan.ts's.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { fingerprintList } from '../../core/fingerprint.js';
import { quoteName } from '../../core/names.js';
import type { NameGroups } from '../../core/plan.js';
import type { TenantIdentity } from '../../core/tenant.js';
import type { SavedPlanFile } from './saved-plan-file.js';
import type { CommandContext } from '../context.js';

/**
 * A saved plan applies only where it was made: the same context, base URL and token (tenant.ts: one scrypt
 * with the plan's salt). Behind one gateway URL two tenants differ only by their token; a rotated token
 * counts as another tenant. No name it adds or deletes may hold a token this run knows (an edited plan could
 * send one as a bucket; --save-plan refuses to write one).
 */
export function checkPlanBinding(ctx: CommandContext, file: SavedPlanFile, tenant: TenantIdentity): void {
  const { path, head: plan, seal } = file;
  const context = ctx.settings().context.value;
  const hint = { hint: 'Make a new plan here: scpctl apply -f MANIFEST --dry-run --save-plan FILE' };
  if (plan.context !== context || plan.tenant.baseUrl !== tenant.baseUrl) {
    throw new UsageError(
      `${path}: the plan was made for context ${quoteName(plan.context, ctx.knownTokens())} at ${plan.tenant.baseUrl}, and this run is context ${quoteName(context, ctx.knownTokens())} at ${tenant.baseUrl}; nothing was sent`,
      hint,
    );
  }
  // Found while each profile was checked (a group of names at a time), refused only now: a plan made elsewhere says so first.
  if (file.secretProblem !== undefined) throw file.secretProblem;
  if (seal.error !== undefined) throw seal.error;
  if (!seal.sealer) {
    throw new UsageError(`${path}: the plan was made with another token for ${tenant.baseUrl} (another tenant, or a rotated token); nothing was sent`, hint);
  }
  // The tenant key can be copied from any plan of this tenant; the seal only made with the token.
  // Its parts were fed to the seal as each group of names was checked (saved-plan-file.ts).
  if (!seal.sealed) {
    throw new UsageError(`${path}: the plan was changed after it was saved (its seal, made with the token, does not match its content); nothing was sent`, hint);
  }
}

/**
 * Whether `live` is what applying `planned` to the list it was made from gives: every added name there, no
 * deleted one, and the list before (live without the added names, with the deleted ones) the one the plan
 * was made from. A plan run again after it succeeded is then "already applied", not a conflict (exit 9).
 * The plan's names come a group at a time: only the deleted ones are held (to make the list before).
 */
export function isPlanResult(live: readonly string[], planned: { fingerprint: string } & NameGroups): boolean {
  const names = new Set(live);
  const deleted: string[] = [];
  for (const group of planned.delete) {
    for (const name of group) {
      if (names.has(name)) return false;
      deleted.push(name);
    }
  }
  for (const group of planned.add) if (!group.every((name) => names.has(name))) return false;
  // Only then taken out (a name added twice is there both times it is looked for): what is left is the list before.
  for (const group of planned.add) for (const name of group) names.delete(name);
  return fingerprintList([...names, ...deleted]) === planned.fingerprint;
}

/** Whether two paths name the same file (the second may not exist yet). */
export function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}
