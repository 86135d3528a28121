// Reading a manifest: the file (or standard input), YAML or JSON (manifest-yaml.ts), its shape, and every
// profile's names read from its inline lists and its files with the same reader and rules as `-f`. All problems are reported together, before anything is sent.
import { dirname, isAbsolute, join } from 'node:path';
import { UsageError } from '../errors.js';
import { MAX_REPORTED_INVALID, describeInvalidNames, type InvalidName } from '../core/names.js';
import type { ByteNameSource, ByteNamesResult } from '../core/name-bytes.js';
import type { NameSet } from '../core/name-set.js';
import { checkManifest } from '../core/manifest.js';
import { parseManifestText } from './manifest-yaml.js';
import { checkedNames } from './names.js';
import { MAX_INPUT_BYTES, readInput } from '../files/read-input.js';
import { SECRET_NAME_REASON, holdsSecret, refuseSecretNames } from '../core/secret-names.js';
import { maskSecret } from '../core/secrets.js';
import { MAX_LIST_BYTES } from '../core/wire.js';
import { confinedPath, type Confined } from '../files/confined-path.js';

export interface DesiredProfile {
  profile: string;
  /** Held as bytes, as `-f` holds them: a manifest's lists cost what its files weigh, not a string a name. */
  names: NameSet;
  /** Set when the list passed 8 MiB: no request can carry it, so the rest was only checked and counted (plan.ts fails the profile). */
  beyond?: { bytes: number; names: number };
}

export interface LoadedManifest {
  path: string;
  profiles: DesiredProfile[];
  /** Names given twice in a profile's list, dropped (the CLI says how many). */
  duplicates: number;
}

/** Where a manifest comes from: a file, standard input (`-`), or a manifest given as a value (its JSON text). */
export interface ManifestSource {
  path: string;
  stdin?: NodeJS.ReadableStream;
  /** The manifest's text when it is not read from `path` (a value given to the library); `files:` are then relative to the working folder. */
  text?: string;
}

/** Room for a full list inline (even on one line, as JSON), and still a wrong file is refused fast. */
const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

/** `tokens`: every token the run knows, refused as (or in) a name; `allowOutsideFiles` reads `files:` paths that leave the manifest's folder. */
export async function loadManifest(source: ManifestSource, tokens: readonly string[], options: { allowOutsideFiles?: boolean } = {}): Promise<LoadedManifest> {
  const { path } = source;
  const label = path === '-' ? 'stdin' : path;
  const text = source.text ?? (await readInput(path === '-' ? source.stdin! : path, MAX_MANIFEST_BYTES)).toString();
  refuseSecretNames([{ origin: { kind: 'file', path: label }, content: text }], tokens);
  const { root, errors } = await parseManifestText(text, label);
  if (errors.length > 0) throw manifestError(label, errors, []);
  const { profiles: manifest, errors: shapeErrors } = checkManifest(root, label, (text) => maskSecret(text, tokens));

  // Paths in the manifest are relative to its folder (to the working folder when it came on standard input).
  const base = path === '-' || source.text !== undefined ? '.' : dirname(path);
  const files = new ManifestFiles(base, label, text.length, Boolean(options.allowOutsideFiles));
  const problems = [...shapeErrors];
  const invalid: InvalidName[] = [];
  let invalidCount = 0;
  let duplicates = 0;
  const profiles: DesiredProfile[] = [];
  // The names of the same files read once: one list named by 100 profiles is read and held once, not 100 times.
  // The set is only read from afterwards (diffs, wire bodies), so the profiles can share it.
  const readLists = new Map<string, ByteNamesResult>();
  for (const profile of manifest) {
    // A profile name holding a token (in any form the mask knows) would rest in history and in a saved plan.
    if (holdsSecret(profile.name, tokens)) problems.push(`${label}:${profile.line}: the profile name is ${SECRET_NAME_REASON}`);
    const filesOnly = profile.inline.length === 0 ? files.key(profile.files) : undefined;
    let result = filesOnly === undefined ? undefined : readLists.get(filesOnly);
    if (result === undefined) {
      const sources = [...profile.inline];
      const before = problems.length;
      for (const file of profile.files) {
        const read = await files.read(file, profile.name);
        if (typeof read === 'string') problems.push(read);
        else sources.push(read);
      }
      result = checkedNames(sources, tokens, true, MAX_LIST_BYTES);
      if (filesOnly !== undefined && problems.length === before) readLists.set(filesOnly, result);
    }
    invalidCount += result.invalidCount;
    for (const name of result.invalid) if (invalid.length < MAX_REPORTED_INVALID) invalid.push(name);
    duplicates += result.duplicates;
    if (result.names.size === 0 && result.invalidCount === 0 && !profile.allowEmpty && !problems.some((p) => p.startsWith(`${label}:${profile.line}:`))) {
      problems.push(`${label}:${profile.line}: profile ${JSON.stringify(profile.name)}: the desired list is empty: applying would remove every bucket (set allowEmpty: true if that is meant)`);
    }
    profiles.push({ profile: profile.name, names: result.names, ...(result.beyond ? { beyond: result.beyond } : {}) });
  }
  if (problems.length > 0 || invalidCount > 0) {
    throw manifestError(label, problems, describeInvalidNames({ invalid, invalidCount }, tokens), invalidCount);
  }
  return { path: label, profiles, duplicates };
}

/**
 * The files a manifest names: kept in its folder (files/confined-path.ts) unless --allow-outside-files, all
 * of them together within the input limit (read-input.ts). A file's bytes are held only while its profile is
 * read (issue 34).
 */
class ManifestFiles {
  /** The files read so far: each counts once toward the limit, however many profiles name it. */
  private readonly counted = new Set<string>();

  constructor(
    private readonly base: string,
    private readonly label: string,
    private totalBytes: number,
    private readonly allowOutside: boolean,
  ) {}

  /** What a profile of these files alone reads (undefined when one of them may not be read). */
  key(files: readonly { path: string }[]): string | undefined {
    const paths = files.map((file) => this.resolve(file.path).path);
    return paths.includes(undefined) ? undefined : paths.join('\0');
  }

  /** The file as a source of names, or the `MANIFEST:LINE: ...` problem that keeps it from being read. */
  async read(file: { path: string; line: number }, profile: string): Promise<ByteNameSource | string> {
    const { path, problem } = this.resolve(file.path);
    if (problem !== undefined) {
      return `${this.label}:${file.line}: profile ${JSON.stringify(profile)}: the file ${JSON.stringify(file.path)} ${problem}; it was not read (--allow-outside-files reads it)`;
    }
    try {
      const bytes = await readInput(path);
      if (!this.counted.has(path)) {
        this.counted.add(path);
        this.totalBytes += bytes.length;
        if (this.totalBytes > MAX_INPUT_BYTES) {
          throw new UsageError(`${path}: the manifest and its files take more than the input limit of ${MAX_INPUT_BYTES / 1024 / 1024} MiB`);
        }
      }
      return { origin: { kind: 'file', path }, bytes };
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return `${this.label}:${file.line}: ${error.message}`;
    }
  }

  private resolve(path: string): Confined {
    return this.allowOutside ? { path: isAbsolute(path) ? path : join(this.base, path) } : confinedPath(this.base, path);
  }
}

function manifestError(label: string, problems: string[], invalidLines: string[], invalidCount = 0): UsageError {
  const parts: string[] = [];
  if (problems.length > 0) parts.push(`${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  if (invalidCount > 0) parts.push(`${invalidCount} invalid bucket name${invalidCount === 1 ? '' : 's'}`);
  return Object.assign(new UsageError(`the manifest ${label} has ${parts.join(' and ') || 'problems'}; nothing was sent`, {
    hint: invalidCount > 0 ? 'S3 bucket names: 3-63 characters of a-z, 0-9, "." and "-".' : 'The manifest is described in the README (scpctl apply) and in schema/manifest.schema.json.',
  }), { details: [...problems, ...invalidLines] });
}
