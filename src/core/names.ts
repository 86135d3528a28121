// Reading bucket names: splitting, comments, validation against the S3 naming rules, de-duplication.
// Pure functions over text: the command layer reads files and standard input and hands their text here.

/** Where names come from, for error messages: `FILE:LINE`, `stdin:LINE` or `arg N`. */
export type NameOrigin =
  | { kind: 'file'; path: string }
  | { kind: 'stdin' }
  | { kind: 'arg'; index: number; label?: string };

export interface NameSource {
  origin: NameOrigin;
  text: string;
}

export interface InvalidName {
  where: string;
  name: string;
  reason: string;
}

export interface ReadNamesResult {
  /** Unique names, in first-seen order. */
  names: string[];
  /** With `positions: true`: each name's index in `names`, for sync's diff, so that it is built only once. */
  positions?: Map<string, number>;
  /** How many repeated names were dropped. */
  duplicates: number;
  /** The first `MAX_REPORTED_INVALID` invalid names. */
  invalid: InvalidName[];
  /** How many invalid names there were in all. */
  invalidCount: number;
}

export const MAX_REPORTED_INVALID = 20;

const RESERVED_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-'];
const RESERVED_SUFFIXES = ['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'];
const PLAIN_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const IPV4_SHAPE = /^\d+\.\d+\.\d+\.\d+$/;
// Even without validation a name must survive the wire format (comma-joined) and a terminal.
// eslint-disable-next-line no-control-regex
const NEVER_ALLOWED = /[\s,\u0000-\u001f\u007f-\u009f]/u;

/** Why `name` breaks the S3 bucket naming rules, or null when it follows them. */
export function validateS3Name(name: string): string | null {
  if (name.length < 3) return 'shorter than 3 characters';
  if (name.length > 63) return `longer than 63 characters (${name.length})`;
  if (!PLAIN_NAME.test(name)) {
    const bad = [...name].find((c) => !/[a-z0-9.-]/.test(c));
    if (bad !== undefined) {
      if (/[A-Z]/.test(bad)) return 'upper-case letters are not allowed';
      return `character ${describeChar(bad)} is not allowed (only a-z, 0-9, "." and "-")`;
    }
    return 'must start and end with a letter or digit';
  }
  if (name.includes('..')) return 'two adjacent periods';
  if (IPV4_SHAPE.test(name)) return 'shaped like an IP address';
  for (const prefix of RESERVED_PREFIXES) {
    if (name.startsWith(prefix)) return `reserved prefix "${prefix}"`;
  }
  for (const suffix of RESERVED_SUFFIXES) {
    if (name.endsWith(suffix)) return `reserved suffix "${suffix}"`;
  }
  return null;
}

/** The rule that holds even with `--no-validate`. */
export function checkWireSafe(name: string): string | null {
  const bad = NEVER_ALLOWED.exec(name);
  return bad ? `character ${describeChar(bad[0])} can never be part of a name` : null;
}

function describeChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || /\s/u.test(c)) {
    return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return JSON.stringify(c);
}

function describeOrigin(origin: NameOrigin, line: number): string {
  switch (origin.kind) {
    case 'file':
      return `${origin.path}:${line}`;
    case 'stdin':
      return `stdin:${line}`;
    case 'arg':
      return `${origin.label ?? 'arg'} ${origin.index}`;
  }
}

const SEPARATORS = /[,\t ]+/;
const NEEDS_SPLIT = /[,\t #]/;

/**
 * Splits every source into names (newlines, commas, spaces and tabs separate; `#` starts a comment;
 * a UTF-8 byte-order mark is dropped), checks each, and drops repeats keeping the first.
 */
export function readBucketNames(sources: NameSource[], options: { validate: boolean; positions?: boolean }): ReadNamesResult {
  const check = options.validate ? validateS3Name : checkWireSafe;
  // One hash operation a name where positions are not wanted (a Set grows or it does not); two where they are.
  const positions = options.positions ? new Map<string, number>() : undefined;
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
    if (positions) {
      if (positions.has(name)) {
        duplicates++;
        return;
      }
      positions.set(name, names.length);
    } else {
      const before = seen.size;
      seen.add(name);
      if (seen.size === before) {
        duplicates++;
        return;
      }
    }
    names.push(name);
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
  return { names, ...(positions ? { positions } : {}), duplicates, invalid, invalidCount };
}

/** The lines that report invalid names: the first 20, then `… and N more`. */
export function describeInvalidNames(result: Pick<ReadNamesResult, 'invalid' | 'invalidCount'>): string[] {
  const lines = result.invalid.map((i) => `${i.where}: ${JSON.stringify(i.name)}: ${i.reason}`);
  const rest = result.invalidCount - result.invalid.length;
  if (rest > 0) lines.push(`… and ${rest} more`);
  return lines;
}
