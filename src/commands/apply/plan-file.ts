// A saved plan as a file handed between jobs (contract sections 10 and 13): read only from a regular file
// within its size, applied only where it was made (context and tenant), its added names checked for a
// token, and recognised when it was applied before. The file's shape is core/saved-plan.ts's.
import { statSync } from 'node:fs';
import { NotPlainFile, openPlainFile } from '../../files/plain-file.js';
import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { fingerprintList } from '../../core/fingerprint.js';
import { quoteName } from '../../core/names.js';
import { planSealParts, type SavedPlan } from '../../core/saved-plan.js';
import { refuseSecretNames } from '../../core/secret-names.js';
import type { TenantIdentity } from '../../core/tenant.js';
import type { CommandContext } from '../context.js';

/** A plan is at most this large: 8 profiles of 8 MiB in each direction, with room; anything more is not one. */
const MAX_PLAN_BYTES = 64 * 1024 * 1024;

/**
 * A plan file, refused at once unless it is a regular file within the size: a FIFO handed over as a plan
 * would otherwise hold the run (and its signals) open, and a device would be read without end. Opened
 * without blocking and checked on the descriptor, so what is checked is what is read.
 */
export async function readPlanFile(path: string): Promise<string> {
  const cannot = (why: string): UsageError => new UsageError(`cannot read the plan ${path}: ${why}; nothing was sent`);
  let opened;
  try {
    opened = await openPlainFile(path);
  } catch (error) {
    throw cannot(error instanceof NotPlainFile ? `it is ${error.kind}, not a regular file` : ((error as NodeJS.ErrnoException).code ?? 'read error'));
  }
  if (opened === undefined) throw cannot('no such file');
  const { handle, stats } = opened;
  try {
    if (!stats.isFile()) throw cannot('not a regular file');
    if (stats.size > MAX_PLAN_BYTES) throw cannot(`${stats.size.toLocaleString('en-US')} bytes, more than a plan holds (64 MiB)`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * A saved plan applies only where it was made: the same context, base URL and token (tenant.ts: one scrypt
 * with the plan's salt). Behind one gateway URL two tenants differ only by their token; a rotated token
 * counts as another tenant. No name it adds or deletes may hold a token this run knows (an edited plan could
 * send one as a bucket; --save-plan refuses to write one).
 */
export async function checkPlanBinding(ctx: CommandContext, path: string, plan: SavedPlan, tenant: TenantIdentity): Promise<void> {
  const context = ctx.settings().context.value;
  const hint = { hint: 'Make a new plan here: scpctl apply -f MANIFEST --dry-run --save-plan FILE' };
  if (plan.context !== context || plan.tenant.baseUrl !== tenant.baseUrl) {
    throw new UsageError(
      `${path}: the plan was made for context ${quoteName(plan.context)} at ${plan.tenant.baseUrl}, and this run is context ${quoteName(context)} at ${tenant.baseUrl}; nothing was sent`,
      hint,
    );
  }
  refuseSecretNames(
    plan.profiles.map((p) => ({ origin: { kind: 'file' as const, path: `${path} (${p.profile})` }, content: [...p.add, ...p.delete].join('\n') })),
    ctx.knownTokens(),
  );
  const sealer = await tenant.sealer(plan.tenant);
  if (!sealer) {
    throw new UsageError(`${path}: the plan was made with another token for ${tenant.baseUrl} (another tenant, or a rotated token); nothing was sent`, hint);
  }
  // The tenant key can be copied from any plan of this tenant; the seal only made with the token.
  if (!sealer.verify(planSealParts(plan), plan.seal)) {
    throw new UsageError(`${path}: the plan was changed after it was saved (its seal, made with the token, does not match its content); nothing was sent`, hint);
  }
}

/**
 * Whether `live` is what applying `planned` to the list it was made from gives: every added name there, no
 * deleted one, and the list before (live without the added names, with the deleted ones) the one the plan
 * was made from. A plan run again after it succeeded is then "already applied", not a conflict (exit 9).
 */
export function isPlanResult(live: readonly string[], planned: SavedPlan['profiles'][number]): boolean {
  const names = new Set(live);
  if (!planned.add.every((name) => names.has(name)) || planned.delete.some((name) => names.has(name))) return false;
  const added = new Set(planned.add);
  return fingerprintList([...live.filter((name) => !added.has(name)), ...planned.delete]) === planned.fingerprint;
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
