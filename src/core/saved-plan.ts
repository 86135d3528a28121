// The file `apply --dry-run --save-plan` writes and `apply --plan` reads: the planned changes of each
// profile and the fingerprint of the live list they were computed from, and where it was made (context and
// tenant, tenant.ts). It holds no token.
import { UsageError } from '../errors.js';
import { checkWireSafe, quoteName, validateS3Name } from './names.js';
import { profileNameProblem } from './manifest.js';
import { isMaskedName } from './secret-names.js';
import { isTenant, type SealStream, type Tenant } from './tenant.js';
import type { ProfilePlan } from './plan.js';

export const PLAN_FORMAT = 'scpctl-plan/3';
/**
 * Plans of the first format named no tenant; those of the second bound it with an HMAC keyed with the
 * token, a cheap oracle for guessing it (tenant.ts). Neither can be applied safely, only made again.
 */
const OLD_FORMATS: Record<string, string> = {
  'scpctl-plan/1': 'names no tenant',
  'scpctl-plan/2': 'binds its tenant with a fast hash of the token, which this scpctl no longer trusts',
};

/** What a plan too large for apply --plan to hold (or for --save-plan to write) advises. */
export const SMALLER_PLANS = 'Plan fewer names per profile: split the change, each plan saved and applied on its own.';

/** What a plan that cannot be applied (old, changed, made elsewhere) advises. */
export const REPLAN = { hint: 'Make a new plan: scpctl apply -f MANIFEST --dry-run --save-plan FILE' };

/** A profile's changes, with the fingerprint of the live list they were planned from. */
export type SavedProfilePlan = Required<Pick<ProfilePlan, 'profile' | 'fingerprint' | 'add' | 'delete'>>;

export interface SavedPlan {
  format: typeof PLAN_FORMAT;
  createdAt: string;
  /** The service the plan was made against: applying it elsewhere is refused. */
  baseUrl: string;
  context: string;
  /** The base URL again, with the keyed hash of the token: a plan applies only where it was made. */
  tenant: Tenant;
  /** Whether the added names were checked against the S3 rules when planned (apply always checks). */
  validated: boolean;
  manifest: string;
  profiles: SavedProfilePlan[];
  /** The seal of everything above, made with the token (tenant.ts): `apply --plan` applies no edited plan. */
  seal?: string;
}

export type SavedPlanHead = Omit<SavedPlan, 'profiles'>;

/** A piece of a plan's text; the first piece of each profile names it. */
export interface PlanPiece {
  text: string;
  profile?: string;
}

const NAMES_A_PIECE = 10_000;

/**
 * The file's text (JSON.stringify(plan, null, 1) and a line break) in pieces of at most NAMES_A_PIECE names:
 * a plan of 64 MiB is written without a string of all of it, or of all of a profile. Given `seal`, the seal
 * is made of the parts as the pieces are (planHeadSealParts, then profileSealParts) and written last; else the head's seal, if any.
 */
export function* serializePlanPieces(head: SavedPlanHead, profiles: Iterable<SavedProfilePlan>, seal?: SealStream): Generator<PlanPiece> {
  const { profiles: _none, seal: given, ...fields } = head as SavedPlan;
  if (seal) for (const part of planHeadSealParts(head)) seal.add(part);
  const opening = JSON.stringify({ ...fields, profiles: [] }, null, 1);
  let first = true;
  for (const p of profiles) {
    const { profile, fingerprint, add, delete: del } = p;
    if (seal) for (const part of profileSealParts(p)) seal.add(part);
    // Each profile as JSON.stringify writes it two levels down, its names one a line four levels down.
    const fieldsText = `{\n   "profile": ${JSON.stringify(profile)},\n   "fingerprint": ${JSON.stringify(fingerprint)},\n   "add": `;
    yield { text: `${first ? `${opening.slice(0, -'[]\n}'.length)}[\n` : ',\n'}  ${fieldsText}`, profile };
    yield* namePieces(add);
    yield { text: ',\n   "delete": ' };
    yield* namePieces(del);
    yield { text: '\n  }' };
    first = false;
  }
  const sealed = seal ? seal.seal() : given;
  const sealText = sealed === undefined ? '' : `,\n "seal": ${JSON.stringify(sealed)}`;
  yield { text: first ? `${opening.slice(0, -'\n}'.length)}${sealText}\n}\n` : `\n ]${sealText}\n}\n` };
}

/** A list of names as JSON.stringify(…, null, 1) writes it four levels down, in pieces. */
function* namePieces(names: readonly string[]): Generator<PlanPiece> {
  if (names.length === 0) {
    yield { text: '[]' };
    return;
  }
  for (let i = 0; i < names.length; i += NAMES_A_PIECE) {
    const lines = names.slice(i, i + NAMES_A_PIECE).map((name) => `    ${JSON.stringify(name)}`);
    yield { text: `${i === 0 ? '[\n' : ',\n'}${lines.join(',\n')}` };
  }
  yield { text: '\n   ]' };
}

/** What a plan's seal covers: every field but the seal itself (these, then profileSealParts of each profile). */
export function* planHeadSealParts(head: Omit<SavedPlanHead, 'seal'>): Generator<string> {
  yield* [head.format, head.createdAt, head.baseUrl, head.context, head.tenant.baseUrl, head.tenant.key, String(head.validated), head.manifest];
}

export function* profileSealParts({ profile, fingerprint, add, delete: deleted }: SavedProfilePlan): Generator<string> {
  yield* [profile, fingerprint, `add ${add.length}`, ...add, `delete ${deleted.length}`, ...deleted];
}

/** The refusal of a file that is not a plan, saying why. */
export function notAPlan(path: string, why: string): UsageError {
  return new UsageError(`${path}: not a plan saved by scpctl apply --save-plan (${why})`);
}

function refuser(path: string): (why: string) => never {
  return (why) => {
    throw notAPlan(path, why);
  };
}

/** Checks what a plan says besides its profiles ("profiles" must be a list, not yet its entries). */
export function checkPlanHead(value: unknown, path: string): SavedPlanHead {
  const bad = refuser(path);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return bad('not a JSON object');
  const plan = value as Record<string, unknown>;
  if (typeof plan.format === 'string' && Object.hasOwn(OLD_FORMATS, plan.format)) {
    throw new UsageError(`${path}: the plan was saved by an older scpctl and ${OLD_FORMATS[plan.format]}; nothing was sent`, REPLAN);
  }
  if (plan.format !== PLAN_FORMAT) return bad(`"format" is not "${PLAN_FORMAT}"`);
  for (const key of ['createdAt', 'baseUrl', 'context', 'manifest'] as const) {
    if (typeof plan[key] !== 'string') bad(`"${key}" is missing`);
  }
  if (!isTenant(plan.tenant)) bad('"tenant" is missing or malformed');
  if (typeof plan.validated !== 'boolean') bad('"validated" is missing');
  // The reader (plan-lines.ts) empties the lists it reads: what is left in them is in no place a plan puts it.
  if (!Array.isArray(plan.profiles) || plan.profiles.length > 0) return bad('"profiles" is not a list as --save-plan writes it');
  const { profiles: _entries, ...head } = plan;
  return head as unknown as SavedPlanHead;
}

/** Checks entry `i` of a plan's profiles but its names: a profile named once (`seen` holds those before it), its fingerprint, and two lists. */
export function checkSavedProfile(entry: unknown, i: number, path: string, seen: Set<string>): { profile: string; fingerprint: string } {
  const bad = refuser(path);
  const p = entry as Record<string, unknown>;
  const where = `profiles[${i}]`;
  if (typeof p !== 'object' || p === null) bad(`${where} is not an object`);
  if (typeof p.profile !== 'string' || p.profile === '') bad(`${where}.profile is missing`);
  const nameProblem = profileNameProblem(p.profile as string);
  if (nameProblem) bad(`${where}.profile ${nameProblem}`);
  if (typeof p.fingerprint !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(p.fingerprint)) bad(`${where}.fingerprint is missing or malformed`);
  if (seen.has(p.profile as string)) bad(`profile ${JSON.stringify(p.profile)} appears twice`);
  seen.add(p.profile as string);
  for (const key of ['add', 'delete'] as const) {
    if (!Array.isArray(p[key]) || p[key].length > 0) bad(`${where}.${key} is not a list of names as --save-plan writes it`);
  }
  return { profile: p.profile as string, fingerprint: p.fingerprint as string };
}

/**
 * Checks names of entry `i`'s `key` list (all of them, or the next group of them): each a name it adds
 * passes section 3's rules (unless the plan was made with --no-validate), each it deletes is sendable (it is
 * already on the list, whatever it is). A name quoted is masked of `secrets` first.
 */
export function checkPlanNames(names: readonly unknown[], key: 'add' | 'delete', at: { i: number; head: SavedPlanHead; path: string; secrets: readonly string[] }): string[] {
  const where = `profiles[${at.i}]`;
  if (!names.every((n) => typeof n === 'string')) throw notAPlan(at.path, `${where}.${key} is not a list of names`);
  const check = key === 'add' && at.head.validated ? validateS3Name : checkWireSafe;
  for (const name of names as string[]) {
    // A stand-in the mask left (an older scpctl saved a token-holding name masked): sending it would
    // delete or add a name that is not on the list, and report success.
    const problem = isMaskedName(name) ? 'a name masked when the plan was saved (it held a token); apply from the manifest instead' : check(name);
    if (problem !== null) throw new UsageError(`${at.path}: ${where}.${key} holds ${quoteName(name, at.secrets)}: ${problem}; nothing was sent`);
  }
  return names as string[];
}
