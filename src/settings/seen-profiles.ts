// Profile names seen before, per context, for shell completion: a bucket command that succeeded on a profile
// adds its name. Names only (never a token, never a bucket), the newest first, a few hundred at most, in a
// small file beside the config store. Losing it loses nothing but suggestions, so no failure here is an error.
import { mkdirSync, readFileSync } from 'node:fs';
import { writeFileAtomically } from '../files/atomic-write.js';
import { join } from 'node:path';
import { configDir } from './config-file.js';
import { holdsSecret } from '../core/secret-names.js';

const MAX_PER_CONTEXT = 200;

/**
 * Whether a name may be offered to a shell as a completion: letters, digits and `. _ - + @ % : , / =` only,
 * not starting with `-`. A profile name comes from the service's console, so anyone who can name a profile
 * there could otherwise put `$(...)`, backquotes, `;` or a glob before an admin's Tab key. Such names are
 * never stored and never offered (the file may have been written by someone else), whatever the script does.
 */
export function isOfferable(name: string): boolean {
  if (name.length > 256) return false;
  // The ASCII test first: V8 builds the Unicode property tables of the second at its first use, 4 ms of a
  // small command's start-up.
  return /^[A-Za-z0-9._+@%:,/=][A-Za-z0-9._+@%:,/=-]*$/.test(name) || (/[^\x00-\x7f]/.test(name) && /^[\p{L}\p{N}._+@%:,/=][\p{L}\p{N}._+@%:,/=-]*$/u.test(name));
}

export function seenProfilesPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'profiles-seen.json');
}

function readAll(env: NodeJS.ProcessEnv): Record<string, string[]> {
  const all: Record<string, string[]> = Object.create(null);
  try {
    const raw = JSON.parse(readFileSync(seenProfilesPath(env), 'utf8')) as unknown;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return all;
    for (const [context, names] of Object.entries(raw)) {
      if (Array.isArray(names)) all[context] = names.filter((n): n is string => typeof n === 'string' && isOfferable(n)).slice(0, MAX_PER_CONTEXT);
    }
  } catch {
    // No file yet, or a broken one: no suggestions.
  }
  return all;
}

/** The profiles seen in a context, the newest first. */
export function seenProfiles(context: string, env: NodeJS.ProcessEnv): string[] {
  return readAll(env)[context] ?? [];
}

/**
 * Puts `profile` first in the context's list; writes only when that changes the file. A name holding one of
 * `secrets` is never kept (masked it could not be offered), and a write drops any such name kept before.
 */
export function rememberProfile(context: string, profile: string, env: NodeJS.ProcessEnv, secrets: readonly string[] = []): void {
  try {
    const all = readAll(env);
    const names = all[context] ?? [];
    if (names[0] === profile || !isOfferable(profile) || holdsSecret(profile, secrets)) return;
    all[context] = [profile, ...names.filter((name) => name !== profile)].slice(0, MAX_PER_CONTEXT);
    for (const [key, kept] of Object.entries(all)) all[key] = kept.filter((name) => !holdsSecret(name, secrets));
    const path = seenProfilesPath(env);
    mkdirSync(configDir(env), { recursive: true, mode: 0o700 });
    writeFileAtomically(path, JSON.stringify(all) + '\n'); // two commands at once leave one whole file
  } catch {
    // A read-only config folder costs only the suggestion.
  }
}
