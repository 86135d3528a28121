// A saved plan as a file handed between jobs (contract sections 10 and 13): read only from a regular file
// within its size, applied only where it was made (context and tenant), its added names checked for a
// token, and recognised when it was applied before. The file's shape is core/saved-plan.ts's.
import { open } from 'node:fs/promises';
import { constants, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { fingerprintList } from '../../core/fingerprint.js';
import { quoteName } from '../../core/names.js';
import type { SavedPlan } from '../../core/saved-plan.js';
import { refuseSecretNames } from '../../core/secret-names.js';
import type { Tenant } from '../../core/tenant.js';
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
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw cannot(code === 'ENOENT' ? 'no such file' : (code ?? 'read error'));
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw cannot('not a regular file');
    if (stats.size > MAX_PLAN_BYTES) throw cannot(`${stats.size.toLocaleString('en-US')} bytes, more than a plan holds (64 MiB)`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * A saved plan applies only where it was made: the same context, base URL and token (tenant.ts). Behind one
 * gateway URL two tenants differ only by their token; a rotated token counts as another tenant. Its added
 * names must not hold a token this run knows (an edited plan could send one as a bucket).
 */
export function checkPlanBinding(ctx: CommandContext, path: string, plan: SavedPlan, tenant: Tenant): void {
  const context = ctx.settings().context.value;
  const hint = { hint: 'Make a new plan here: scpctl apply -f MANIFEST --dry-run --save-plan FILE' };
  if (plan.context !== context || plan.tenant.baseUrl !== tenant.baseUrl) {
    throw new UsageError(
      `${path}: the plan was made for context ${quoteName(plan.context, ctx.knownTokens())} at ${plan.tenant.baseUrl}, and this run is context ${quoteName(context, ctx.knownTokens())} at ${tenant.baseUrl}; nothing was sent`,
      hint,
    );
  }
  if (plan.tenant.key !== tenant.key) {
    throw new UsageError(`${path}: the plan was made with another token for ${tenant.baseUrl} (another tenant, or a rotated token); nothing was sent`, hint);
  }
  refuseSecretNames(
    plan.profiles.map((p) => ({ origin: { kind: 'file' as const, path: `${path} (${p.profile})` }, content: p.add.join('\n') })),
    ctx.knownTokens(),
  );
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
