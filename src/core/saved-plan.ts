// The file `apply --dry-run --save-plan` writes and `apply --plan` reads: the planned changes of each
// profile and the fingerprint of the live list they were computed from, and where it was made (context and
// tenant, tenant.ts). It holds no token.
import { UsageError } from '../errors.js';
import { checkWireSafe, quoteName, validateS3Name } from './names.js';
import { profileNameProblem } from './manifest.js';
import { isMaskedName } from './secret-names.js';
import { isTenant, type Tenant } from './tenant.js';

export const PLAN_FORMAT = 'scpctl-plan/3';
/**
 * Plans of the first format named no tenant; those of the second bound it with an HMAC keyed with the
 * token, a cheap oracle for guessing it (tenant.ts). Neither can be applied safely, only made again.
 */
const OLD_FORMATS: Record<string, string> = {
  'scpctl-plan/1': 'names no tenant',
  'scpctl-plan/2': 'binds its tenant with a fast hash of the token, which this scpctl no longer trusts',
};

export interface SavedProfilePlan {
  profile: string;
  /** Of the live list the plan was made from (see fingerprint.ts). */
  fingerprint: string;
  add: string[];
  delete: string[];
}

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

export function serializePlan(plan: SavedPlan): string {
  return JSON.stringify(plan, null, 1) + '\n';
}

/** What a plan's seal covers, field by field: every field but the seal itself, each name on its own. */
export function* planSealParts(plan: Omit<SavedPlan, 'seal'>): Generator<string> {
  yield* [plan.format, plan.createdAt, plan.baseUrl, plan.context, plan.tenant.baseUrl, plan.tenant.key, String(plan.validated), plan.manifest];
  for (const { profile, fingerprint, add, delete: deleted } of plan.profiles) {
    yield* [profile, fingerprint, `add ${add.length}`, ...add, `delete ${deleted.length}`, ...deleted];
  }
}

/**
 * Checks a plan file read back (it may have been edited, truncated or be another file altogether); a name it
 * quotes is masked of `secrets` (the run's known tokens) before it is cut.
 */
export function parseSavedPlan(text: string, path: string, secrets: readonly string[] = []): SavedPlan {
  const bad = (why: string): never => {
    throw new UsageError(`${path}: not a plan saved by scpctl apply --save-plan (${why})`);
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return bad('not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return bad('not a JSON object');
  const plan = value as Record<string, unknown>;
  if (typeof plan.format === 'string' && Object.hasOwn(OLD_FORMATS, plan.format)) {
    throw new UsageError(`${path}: the plan was saved by an older scpctl and ${OLD_FORMATS[plan.format]}; nothing was sent`, {
      hint: 'Make a new plan: scpctl apply -f MANIFEST --dry-run --save-plan FILE',
    });
  }
  if (plan.format !== PLAN_FORMAT) return bad(`"format" is not "${PLAN_FORMAT}"`);
  for (const key of ['createdAt', 'baseUrl', 'context', 'manifest'] as const) {
    if (typeof plan[key] !== 'string') bad(`"${key}" is missing`);
  }
  if (!isTenant(plan.tenant)) bad('"tenant" is missing or malformed');
  if (typeof plan.validated !== 'boolean') bad('"validated" is missing');
  // A name the plan adds passes the rules a name read from a file passes; one it deletes only needs to be
  // sendable (it is already on the list, whatever it is).
  const checkAdded = plan.validated ? validateS3Name : checkWireSafe;
  if (!Array.isArray(plan.profiles)) return bad('"profiles" is not a list');
  const seen = new Set<string>();
  const profiles = plan.profiles.map((entry, i): SavedProfilePlan => {
    const p = entry as Record<string, unknown>;
    const where = `profiles[${i}]`;
    if (typeof p !== 'object' || p === null) bad(`${where} is not an object`);
    if (typeof p.profile !== 'string' || p.profile === '') bad(`${where}.profile is missing`);
    const nameProblem = profileNameProblem(p.profile as string);
    if (nameProblem) bad(`${where}.profile ${nameProblem}`);
    if (typeof p.fingerprint !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(p.fingerprint)) bad(`${where}.fingerprint is missing or malformed`);
    const names = (key: 'add' | 'delete'): string[] => {
      const list = p[key];
      if (!Array.isArray(list) || !list.every((n) => typeof n === 'string')) return bad(`${where}.${key} is not a list of names`);
      const check = key === 'add' ? checkAdded : checkWireSafe;
      for (const name of list) {
        // A stand-in the mask left (an older scpctl saved a token-holding name masked): sending it would
        // delete or add a name that is not on the list, and report success.
        const problem = isMaskedName(name) ? 'a name masked when the plan was saved (it held a token); apply from the manifest instead' : check(name);
        if (problem !== null) throw new UsageError(`${path}: ${where}.${key} holds ${quoteName(name, secrets)}: ${problem}; nothing was sent`);
      }
      return list;
    };
    if (seen.has(p.profile as string)) bad(`profile ${JSON.stringify(p.profile)} appears twice`);
    seen.add(p.profile as string);
    return { profile: p.profile as string, fingerprint: p.fingerprint as string, add: names('add'), delete: names('delete') };
  });
  return { ...(plan as unknown as SavedPlan), profiles };
}
