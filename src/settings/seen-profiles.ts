// Profile names seen before, per context, for shell completion: a bucket command that succeeded on a profile
// adds its name. Names only (never a token, never a bucket), the newest first, a few hundred at most, in a
// small file beside the config store. Losing it loses nothing but suggestions, so no failure here is an error.
import { mkdirSync } from 'node:fs';
import { writeFileAtomically } from '../files/atomic-write.js';
import { NotPlainFile, readPlainFile } from '../files/plain-file.js';
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

/** The lists by context; `odd` when the path is a FIFO, socket or device (never opened blocking, never read). */
function readAll(env: NodeJS.ProcessEnv): { all: Record<string, string[]>; odd?: NotPlainFile } {
  const all: Record<string, string[]> = Object.create(null);
  try {
    const bytes = readPlainFile(seenProfilesPath(env), (stats) => {
      if (stats.size > 1024 * 1024) throw new Error('too large for a list of names');
    });
    const raw = JSON.parse(bytes?.toString('utf8') ?? '{}') as unknown;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { all };
    for (const [context, names] of Object.entries(raw)) {
      if (Array.isArray(names)) all[context] = names.filter((n): n is string => typeof n === 'string' && isOfferable(n)).slice(0, MAX_PER_CONTEXT);
    }
  } catch (error) {
    if (error instanceof NotPlainFile) return { all, odd: error };
    // A broken file: no suggestions.
  }
  return { all };
}

/** The profiles seen in a context, the newest first. */
export function seenProfiles(context: string, env: NodeJS.ProcessEnv): string[] {
  return readAll(env).all[context] ?? [];
}

/**
 * Puts `profile` first in the context's list; writes only when that changes the file. A name holding one of
 * `secrets` is never kept (masked it could not be offered), and a write drops any such name kept before.
 * Gives a warning to print when the file is a FIFO, socket or device: left as it is, and the command still
 * succeeds.
 */
export function rememberProfile(context: string, profile: string, env: NodeJS.ProcessEnv, secrets: readonly string[] = []): string | undefined {
  try {
    const { all, odd } = readAll(env);
    if (odd) return `${odd.message}: profile names are not remembered for completion (remove it to have them)`;
    const names = all[context] ?? [];
    if (names[0] === profile || !isOfferable(profile) || holdsSecret(profile, secrets)) return undefined;
    all[context] = [profile, ...names.filter((name) => name !== profile)].slice(0, MAX_PER_CONTEXT);
    for (const [key, kept] of Object.entries(all)) all[key] = kept.filter((name) => !holdsSecret(name, secrets));
    mkdirSync(configDir(env), { recursive: true, mode: 0o700 });
    writeFileAtomically(seenProfilesPath(env), JSON.stringify(all) + '\n'); // two commands at once leave one whole file
  } catch {
    // A read-only config folder costs only the suggestion.
  }
  return undefined;
}
