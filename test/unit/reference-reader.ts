// The plain statement of the name-reading rules (contract section 3) over text: what the one reader,
// src/core/name-bytes.ts, must do on bytes. Test-only: the property tests hold the two equal.
import { MAX_REPORTED_INVALID, checkWireSafe, describeOrigin, validateS3Name, type InvalidName, type NameOrigin } from '../../src/core/names.js';

export interface NameSource {
  origin: NameOrigin;
  text: string;
}

export interface ReadNamesResult {
  /** Unique names, in first-seen order. */
  names: string[];
  /** How many repeated names were dropped. */
  duplicates: number;
  /** The first `MAX_REPORTED_INVALID` invalid names. */
  invalid: InvalidName[];
  /** How many invalid names there were in all. */
  invalidCount: number;
}

const SEPARATORS = /[,\t ]+/;
const NEEDS_SPLIT = /[,\t #]/;

/**
 * Splits every source into names (newlines, commas, spaces and tabs separate; `#` starts a comment;
 * a UTF-8 byte-order mark is dropped), checks each, and drops repeats keeping the first.
 */
export function readBucketNames(sources: NameSource[], options: { validate: boolean }): ReadNamesResult {
  const check = options.validate ? validateS3Name : checkWireSafe;
  const seen = new Set<string>();
  const names: string[] = [];
  const invalid: InvalidName[] = [];
  let invalidCount = 0;
  let duplicates = 0;

  const take = (name: string, origin: NameOrigin, line: number): void => {
    const reason = check(name);
    if (reason !== null) {
      invalidCount++;
      if (invalid.length < MAX_REPORTED_INVALID) invalid.push({ where: describeOrigin(origin, line), name, reason });
      return;
    }
    if (seen.has(name)) duplicates++;
    else {
      seen.add(name);
      names.push(name);
    }
  };

  for (const { origin, text } of sources) {
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    const lines = body.split('\n');
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i]!;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '') continue;
      if (!NEEDS_SPLIT.test(line)) {
        take(line, origin, i + 1);
        continue;
      }
      const hash = line.indexOf('#');
      if (hash >= 0) line = line.slice(0, hash);
      for (const part of line.split(SEPARATORS)) {
        if (part !== '') take(part, origin, i + 1);
      }
    }
  }
  return { names, duplicates, invalid, invalidCount };
}

