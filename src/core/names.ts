// Bucket names: the S3 naming rules and the wire's own, where a name came from, and how invalid names are
// reported. The one reader of names is name-bytes.ts (bytes in, a NameSet out); it comes here for the
// reason of every name it refuses.
import { headOf } from './service-text.js';
import { maskSecret } from './secrets.js';

/** Where names come from, for error messages: `FILE:LINE`, `stdin:LINE` or `arg N`. */
export type NameOrigin =
  | { kind: 'file'; path: string }
  | { kind: 'stdin' }
  | { kind: 'arg'; index: number; label?: string }
  /** Items of a list given as a value (the library's names), one a line: `LABEL N` is the item's line. */
  | { kind: 'items'; label: string };


export interface InvalidName {
  where: string;
  name: string;
  reason: string;
}

/** What a read reports of its invalid names: the first `MAX_REPORTED_INVALID`, and how many in all. */
export interface InvalidNames {
  invalid: InvalidName[];
  invalidCount: number;
}

export const MAX_REPORTED_INVALID = 20;

export const RESERVED_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-'];
export const RESERVED_SUFFIXES = ['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'];
// Even without validation a name must survive the wire format (comma-joined) and a terminal.
// eslint-disable-next-line no-control-regex
const NEVER_ALLOWED = /[\s,\u0000-\u001f\u007f-\u009f]/u;

/**
 * Why `name` breaks the S3 bucket naming rules, or null when it follows them. One pass over the characters
 * rather than several regular expressions: it runs once per name, 400,000 times for a full list.
 */
export function validateS3Name(name: string): string | null {
  const length = name.length;
  if (length < 3) return 'shorter than 3 characters';
  if (length > 63) return `longer than 63 characters (${length})`;
  let dots = 0;
  let digitsAndDotsOnly = true;
  let adjacentDots = false;
  let previous = 0;
  for (let i = 0; i < length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 97 && c <= 122) digitsAndDotsOnly = false; // a-z
    else if (c === 45) digitsAndDotsOnly = false; // -
    else if (c === 46) {
      dots++;
      if (previous === 46) adjacentDots = true;
    } else if (c < 48 || c > 57) return describeBadChar(name, i);
    previous = c;
  }
  if (!isLetterOrDigit(name.charCodeAt(0)) || !isLetterOrDigit(name.charCodeAt(length - 1))) {
    return 'must start and end with a letter or digit';
  }
  if (adjacentDots) return 'two adjacent periods';
  // Starting and ending with a digit and free of "..", digits and exactly three dots is a dotted quad.
  if (digitsAndDotsOnly && dots === 3) return 'shaped like an IP address';
  for (const prefix of RESERVED_PREFIXES) {
    if (name.startsWith(prefix)) return `reserved prefix "${prefix}"`;
  }
  for (const suffix of RESERVED_SUFFIXES) {
    if (name.endsWith(suffix)) return `reserved suffix "${suffix}"`;
  }
  return null;
}

function isLetterOrDigit(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}

function describeBadChar(name: string, index: number): string {
  const bad = String.fromCodePoint(name.codePointAt(index)!);
  if (/[A-Z]/.test(bad)) return 'upper-case letters are not allowed';
  return `character ${describeChar(bad)} is not allowed (only a-z, 0-9, "." and "-")`;
}

/** The rule that holds even with `--no-validate`. */
export function checkWireSafe(name: string): string | null {
  const bad = NEVER_ALLOWED.exec(name);
  return bad ? `character ${describeChar(bad[0])} can never be part of a name` : null;
}

function describeChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  // Whitespace, controls and invisible format characters (U+200B) are named by code point: quoted, they
  // would show as nothing.
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || /[\s\p{Cf}]/u.test(c)) {
    return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return JSON.stringify(c);
}

/** The 1-based line of a position, asked in increasing order: the text is counted through once. */
export function lineCounter(text: string | Buffer): (at: number) => number {
  let line = 1;
  let next = text.indexOf('\n');
  return (at) => {
    for (; next !== -1 && next < at; next = text.indexOf('\n', next + 1)) line++;
    return line;
  };
}

export function describeOrigin(origin: NameOrigin, line: number): string {
  switch (origin.kind) {
    case 'file':
      return `${origin.path}:${line}`;
    case 'stdin':
      return `stdin:${line}`;
    case 'arg':
      return `${origin.label ?? 'arg'} ${origin.index}`;
    case 'items':
      return `${origin.label} ${line}`;
  }
}

/** How many characters of a name a message shows: a 5 MB "name" (a file without separators) is cut. */
export const MAX_QUOTED_NAME = 80;

/**
 * A name for a message: masked of `secrets` (the run's known tokens, in any form) whole, then JSON-quoted
 * (control characters escaped, one line) and cut with `…` when long: a token cut first would keep its start.
 */
export function quoteName(name: string, secrets: readonly string[] = []): string {
  const masked = maskSecret(name, secrets);
  if (masked.length <= MAX_QUOTED_NAME) return JSON.stringify(masked);
  return JSON.stringify(`${headOf(masked, MAX_QUOTED_NAME - 1)}…`);
}

/**
 * The lines that report invalid names: the first 20, then `… and N more`. Each name is masked of `secrets`
 * (the run's known tokens, in any form) before it is quoted and cut.
 */
export function describeInvalidNames(result: InvalidNames, secrets: readonly string[] = []): string[] {
  const lines = result.invalid.map((i) => `${i.where}: ${quoteName(i.name, secrets)}: ${i.reason}`);
  const rest = result.invalidCount - result.invalid.length;
  if (rest > 0) lines.push(`… and ${rest} more`);
  return lines;
}
