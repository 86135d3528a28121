// The file `apply --dry-run --save-plan` writes and `apply --plan` reads: the planned changes of each
// profile and the fingerprint of the live list they were computed from. It holds no token.
import { UsageError } from '../errors.js';
import { checkWireSafe } from './names.js';
import { profileNameProblem } from './manifest.js';

export const PLAN_FORMAT = 'scpctl-plan/1';

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
  manifest: string;
  profiles: SavedProfilePlan[];
}

export function serializePlan(plan: SavedPlan): string {
  return JSON.stringify(plan, null, 1) + '\n';
}

/** Checks a plan file read back (it may have been edited, truncated or be another file altogether). */
export function parseSavedPlan(text: string, path: string): SavedPlan {
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
  if (plan.format !== PLAN_FORMAT) return bad(`"format" is not "${PLAN_FORMAT}"`);
  for (const key of ['createdAt', 'baseUrl', 'context', 'manifest'] as const) {
    if (typeof plan[key] !== 'string') bad(`"${key}" is missing`);
  }
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
      for (const name of list) if (checkWireSafe(name) !== null) bad(`${where}.${key} holds ${JSON.stringify(name).slice(0, 80)}, which cannot be sent`);
      return list;
    };
    if (seen.has(p.profile as string)) bad(`profile ${JSON.stringify(p.profile)} appears twice`);
    seen.add(p.profile as string);
    return { profile: p.profile as string, fingerprint: p.fingerprint as string, add: names('add'), delete: names('delete') };
  });
  return { ...(plan as unknown as SavedPlan), profiles };
}
