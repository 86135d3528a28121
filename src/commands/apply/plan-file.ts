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
 * The most of a plan apply can hold within its 200 MB bound (contract 13): it holds the plan's text while
 * JSON.parse runs, then every name as a string, and prints them. Measured (peak RSS, --dry-run, text and
 * --json): 500,000 names of 11 characters in 8 MB, 153 MB; 1,000,000 in 16 MB, 237 MB; 500,000 of 63
 * characters in 35 MB, 327 MB. A larger plan (64 MiB can name four million) is refused at once, before it is
 * read, rather than read into a gigabyte.
 */
const MAX_HELD_PLAN_BYTES = 12 * 1024 * 1024;
const MAX_PLAN_NAMES = 500_000;

/** Why apply could not hold a plan this large within its memory bound, or undefined when it can. */
export function planTooLarge(bytes: number, names: number): string | undefined {
  if (bytes > MAX_HELD_PLAN_BYTES) return `${bytes.toLocaleString('en-US')} bytes, more than apply holds within its memory bound (${MAX_HELD_PLAN_BYTES / 1024 / 1024} MiB)`;
  if (names > MAX_PLAN_NAMES) return `about ${names.toLocaleString('en-US')} names, more than apply holds within its memory bound (${MAX_PLAN_NAMES.toLocaleString('en-US')})`;
  return undefined;
}

/** The hint for a plan too large to hold. */
export const SMALLER_PLANS = 'Plan fewer profiles at a time: a manifest of fewer profiles, each plan saved and applied on its own.';

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
    const tooLarge = (names: number): UsageError | undefined => {
      const why = planTooLarge(stats.size, names);
      return why === undefined ? undefined : new UsageError(`${path}: the plan is ${why}; nothing was sent`, { hint: SMALLER_PLANS });
    };
    const large = tooLarge(0);
    if (large) throw large;
    const bytes = await handle.readFile();
    const many = tooLarge(stringsIn(bytes));
    if (many) throw many;
    return bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}

/** How many JSON strings the text can hold at most (a name is one): half its double quotes, counted without decoding. */
export function stringsIn(bytes: Buffer): number {
  let quotes = 0;
  for (let at = bytes.indexOf(0x22); at !== -1; at = bytes.indexOf(0x22, at + 1)) quotes++;
  return Math.floor(quotes / 2);
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
      `${path}: the plan was made for context ${quoteName(plan.context, ctx.knownTokens())} at ${plan.tenant.baseUrl}, and this run is context ${quoteName(context, ctx.knownTokens())} at ${tenant.baseUrl}; nothing was sent`,
      hint,
    );
  }
  // A profile at a time: the names of all of them joined at once would be a second copy of the plan.
  for (const p of plan.profiles) {
    refuseSecretNames([{ origin: { kind: 'file' as const, path: `${path} (${p.profile})` }, content: [...p.add, ...p.delete].join('\n') }], ctx.knownTokens());
  }
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
