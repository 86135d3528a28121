// A path named by a file someone else wrote (a manifest's `files:` in a pull request) stays inside that
// file's folder: not absolute, not climbing out with `..`, and not leading out through a symlink (the
// real path of what it names must lie under the real path of the folder). Otherwise a one-line change in a
// pull request reads the CI runner's token file, /proc/self/environ or the config store as bucket names.
import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

export type Confined = { path: string; problem?: undefined } | { path?: undefined; problem: string };

/** Where `file` (as written in a document in `folder`) leads, or why it may not be read. */
export function confinedPath(folder: string, file: string): Confined {
  if (isAbsolute(file)) return { problem: 'is an absolute path' };
  const path = join(folder, file);
  if (!isInside(resolve(folder), resolve(path))) return { problem: 'climbs out of the manifest\'s folder with ".."' };
  try {
    if (!isInside(realpathSync(folder), realpathSync(path))) return { problem: 'leads out of the manifest\'s folder through a symlink' };
  } catch {
    // missing or unreadable: reading it says so, and a missing file leads nowhere
  }
  return { path };
}

function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
