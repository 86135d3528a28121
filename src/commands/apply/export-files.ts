// Where `apply --export --out FILE [--files DIR]` writes. A manifest's `files:` are read relative to the
// manifest's own folder and only inside it (contract 13), and standard output has no folder: so list files
// go only with --out, DIR must lie inside the manifest's folder (its real path too: no symlink leading out),
// and every path written is a regular file or nothing yet (a symlink, FIFO or folder there is refused, never
// followed or replaced). Everything is checked before the first request, and again as it is written; the
// list files are written first and the manifest last, each whole or not at all.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../../errors.js';
import { writeFileAtomically } from '../../files/atomic-write.js';
import { NotPlainFile, oddKind } from '../../files/plain-file.js';
import { confinedPath } from '../../files/confined-path.js';
import type { ExportedManifest } from '../../library/export.js';
import { manifestPieces, type ManifestValue } from '../../output/manifest-writer.js';
import type { CommandContext } from '../context.js';

export interface ExportTarget {
  manifest: string;
  /** Resolved. */
  folder: string;
  /** With --files: the folder, and each profile's list file (its path, and the path the manifest names). */
  lists?: { dir: string; files: Map<string, { path: string; named: string }> };
}

/** The target of `--out FILE [--files DIR]` for `profiles`, checked before anything is read. */
export function exportTarget(out: string, files: string | undefined, profiles: readonly string[]): ExportTarget {
  if (out === '-') throw new UsageError('--out -: without --out the manifest goes to standard output; --out names a file');
  refuseNotRegular(out, '--out');
  const folder = dirname(resolve(out));
  if (!isFolder(folder)) throw new UsageError(`--out ${out}: the folder ${folder} does not exist; nothing was written`);
  if (files === undefined) return { manifest: out, folder };
  const dir = resolve(files);
  const inside = relative(folder, dir);
  if (isAbsolute(inside) || inside === '..' || inside.startsWith(`..${sep}`)) {
    throw new UsageError(`--files ${files} is outside the folder of the manifest (${folder}): apply reads list files only inside it; nothing was written`, {
      hint: `Put the lists under the manifest's folder: --files ${join(dirname(out), 'lists')}`,
    });
  }
  refuseLeadingOut(folder, dir, files);
  const byFile = new Map<string, string>();
  const listFiles = new Map<string, { path: string; named: string }>();
  for (const profile of new Set(profiles)) {
    const name = listFileName(profile);
    // Two profiles may not share a file, on a file system that folds case either.
    const other = byFile.get(name.toLowerCase());
    if (other !== undefined) throw new UsageError(`profiles ${JSON.stringify(other)} and ${JSON.stringify(profile)} would share the list file ${name}; nothing was written`);
    byFile.set(name.toLowerCase(), profile);
    const path = join(files, name);
    if (resolve(path) === resolve(out)) throw new UsageError(`--out ${out} is the list file of profile ${JSON.stringify(profile)}; nothing was written`);
    refuseNotRegular(path, '--files');
    listFiles.set(profile, { path, named: [...inside.split(sep).filter(Boolean), name].join('/') });
  }
  return { manifest: out, folder, lists: { dir, files: listFiles } };
}

/**
 * A profile's list file: `PROFILE.txt` for a plain lower-case name; any other name (upper case, `/`, dots
 * first, a Windows device name, anything a file system might read otherwise) a slug of it and a short hash,
 * so that no name can climb out, hide, clash or open a device.
 */
export function listFileName(profile: string): string {
  if (/^[a-z0-9][a-z0-9_-]*(\.[a-z0-9_-]+)*$/.test(profile) && profile.length <= 100 && !WINDOWS_DEVICE.test(profile)) return `${profile}.txt`;
  const slug = profile.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'profile';
  return `${slug}-${createHash('sha256').update(profile).digest('hex').slice(0, 8)}.txt`;
}

/** Names Windows opens as a device whatever follows their first dot (`nul.txt` is NUL): never a plain list file's. */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/;

/** Writes the list files (with --files), then the manifest naming them; says on stderr what was written. */
export function writeExport(ctx: CommandContext, target: ExportTarget, manifest: ExportedManifest, format: string): void {
  let value: ManifestValue = manifest;
  if (target.lists) {
    const { dir, files } = target.lists;
    mkdirSync(dir, { recursive: true });
    refuseLeadingOut(target.folder, dir, dir);
    const profiles: ManifestValue['profiles'] = Object.create(null);
    for (const [profile, desired] of Object.entries(manifest.profiles)) {
      const file = files.get(profile)!;
      const names = desired.buckets;
      writeChecked(ctx, file.path, '--files', [names.length === 0 ? '' : `${names.join('\n')}\n`]);
      // What apply will read: the path as the manifest names it, confined to its folder.
      if (confinedPath(target.folder, file.named).problem !== undefined) throw new UsageError(`${file.path}: apply could not read it from the manifest's folder; nothing more was written`);
      ctx.term.info(`wrote ${file.path} (${names.length} name${names.length === 1 ? '' : 's'})`);
      profiles[profile] = { files: [file.named], ...(desired.allowEmpty ? { allowEmpty: true } : {}) };
    }
    value = { profiles };
  }
  writeChecked(ctx, target.manifest, '--out', manifestPieces(format, value));
  const count = Object.keys(value.profiles).length;
  ctx.term.info(`wrote ${target.manifest} (${count} profile${count === 1 ? '' : 's'}); check it with: scpctl apply -f ${target.manifest} --dry-run --exit-code`);
}

/** One file written whole (every piece through the one mask), refused when something other than a regular file is there. */
function writeChecked(ctx: CommandContext, path: string, flag: string, pieces: Iterable<string>): void {
  refuseNotRegular(path, flag);
  writeWhole(path, masked(ctx, pieces), path);
}

/** `pieces` written to `path` whole or not at all; a failure is a usage error naming `what` (one a piece threw stands). */
export function writeWhole(path: string, pieces: Iterable<string>, what: string): void {
  try {
    writeFileAtomically(path, pieces, 0o644);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const why = error instanceof NotPlainFile ? `it is ${error.kind}, not a regular file` : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
    throw new UsageError(`cannot write ${what}: ${why}`);
  }
}

function* masked(ctx: CommandContext, pieces: Iterable<string>): Generator<string> {
  for (const piece of pieces) yield ctx.term.redact(piece);
}

/** A path that is there and is not a regular file (a symlink, FIFO, socket, device or folder) is never written over. */
function refuseNotRegular(path: string, flag: string): void {
  let stats;
  try {
    stats = lstatSync(path);
  } catch {
    return;
  }
  if (stats.isFile()) return;
  const kind = stats.isSymbolicLink() ? 'a symlink' : stats.isDirectory() ? 'a folder' : (oddKind(stats) ?? 'not a regular file');
  throw new UsageError(`${flag}: ${path} is ${kind}, not a regular file; it is never written over, and nothing was written`);
}

/** Refuses `dir` (or the part of it that exists) when its real path leads out of the manifest's real folder. */
function refuseLeadingOut(folder: string, dir: string, given: string): void {
  let existing = dir;
  while (!isFolder(existing) && dirname(existing) !== existing) {
    try {
      lstatSync(existing);
      throw new UsageError(`--files ${given}: ${existing} is not a folder; nothing was written`);
    } catch (error) {
      if (error instanceof UsageError) throw error;
    }
    existing = dirname(existing);
  }
  // Inside by its path (exportTarget checked), so a problem is a symlink leading out.
  const { problem } = confinedPath(folder, relative(folder, existing));
  if (problem !== undefined) throw new UsageError(`--files ${given} ${problem} (${basename(existing)}); nothing was written`);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
