// Files and folders others could have written are not trusted with what only the user may decide (the
// history folder scpctl restores from, the config file that runs a tokenCommand or names where the OS
// store's token goes): the one rule for "the user's alone", as ssh applies it to its config.
import { userInfo } from 'node:os';

export interface OwnedOptions {
  /** A folder of root's is as safe as root (/etc, a system-wide config folder). */
  root?: boolean;
  /** A sticky folder (such as /tmp) keeps others from renaming or removing what is ours in it. */
  sticky?: boolean;
}

/** The user running scpctl (undefined where there are no POSIX owners). */
export function currentUid(): number | undefined {
  const uid = userInfo().uid;
  return uid >= 0 ? uid : undefined;
}

/** Why `info` is not the user's alone (`is owned by another user (uid N)`, `is writable by others (mode 777)`), or undefined. */
export function notOwnReason(info: { uid: number; mode: number }, uid: number | undefined, options: OwnedOptions = {}): string | undefined {
  if (uid !== undefined && info.uid !== uid && !(options.root && info.uid === 0)) return `is owned by another user (uid ${info.uid})`;
  if ((info.mode & 0o022) !== 0 && !(options.sticky && (info.mode & 0o1000) !== 0)) return `is writable by others (mode ${(info.mode & 0o777).toString(8)})`;
  return undefined;
}
