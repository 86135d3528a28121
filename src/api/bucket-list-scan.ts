// A fast reader for view answers (docs/performance.md): the answer is scanned once, the names taken as slices
// of it, and only a small skeleton of the answer (each list replaced by a marker) goes through readResponse
// and extractBucketList, so that every rule about statuses, errors and where the list is stays in
// response.ts. Anything unusual (escapes it cannot take as they are, a list that is not all strings, a
// repeated key) gives null, and the caller reads the answer the ordinary way. report-page-scan.ts walks a
// report page the same way over bytes: a rule about keys, escapes or depth changes in both.
import { LIST_PATHS, cleanNames, extractBucketList, readResponse, type RawResponse } from './response.js';
import type { SeparatedNames } from '../core/diff.js';
import { closingQuote } from '../core/exact-json.js';
import { SEPARATOR, isAsciiText, linesOf, plainList } from './plain-list.js';

/** Keys whose value may be the list, at the top level and inside `data`. */
const TOP_KEYS = new Set(LIST_PATHS.map((path) => path[0]!));
const DATA_KEYS = new Set(LIST_PATHS.filter((path) => path.length === 2).map((path) => path[1]!));

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The list of a view answer as the scanner holds it (its forms made only when asked for); null when the
 * answer needs the ordinary reader. A list whose names must be parsed (escapes) has them made by the scan, so
 * that a bad answer fails at the read, never later at a use of the list.
 */
export function scanBucketList(raw: RawResponse, what: string): ScannedList | null {
  try {
    const scan = scanAnswer(raw.body);
    if (scan.lists.length === 0) return null;
    const found = extractBucketList(readResponse({ status: raw.status, body: scan.skeleton }, what), raw.body);
    return found.length === 1 && found[0]!.startsWith(MARKER) ? (scan.lists[Number(found[0]!.slice(MARKER.length))] ?? null) : null;
  } catch {
    // Unusual, or not a good answer: the ordinary reader says what is wrong, quoting the answer itself.
    return null;
  }
}

/** A list found in the answer; its names are made only when asked for. */
export interface ScannedList {
  count(): number;
  names(): string[];
  /** One name a line when the list is plain, else null. */
  lines(): Buffer | null;
  /** The names where the text holds them when the list is plain and ASCII, else null. */
  separated(): SeparatedNames | null;
}

const MARKER = '\u0000scpctl-list-';

interface Scan {
  skeleton: string;
  lists: ScannedList[];
}

class Unusual extends Error {}
const unusual = (): never => {
  throw new Unusual();
};

function scanAnswer(text: string): Scan {
  const lists: ScannedList[] = [];
  const pieces: string[] = [];
  let copiedTo = 0;
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== 0x7b) unusual();

  /** Replaces text[start, end) in the skeleton by a marker of the list just scanned. */
  const replace = (start: number, end: number, list: ScannedList, asArray: boolean): void => {
    pieces.push(text.slice(copiedTo, start));
    const marker = JSON.stringify(MARKER + lists.length);
    pieces.push(asArray ? `[${marker}]` : marker);
    lists.push(list);
    copiedTo = end;
  };

  const object = (at: number, keys: Set<string>, nested: boolean): number => {
    const seen = new Set<string>();
    let p = skipSpace(text, at + 1);
    if (text.charCodeAt(p) === 0x7d) return p + 1;
    for (;;) {
      if (text.charCodeAt(p) !== QUOTE) unusual();
      const keyEnd = stringEnd(text, p);
      const key = text.slice(p + 1, keyEnd - 1);
      if (key.includes('\\')) unusual();
      p = skipSpace(text, keyEnd);
      if (text.charCodeAt(p) !== 0x3a) unusual();
      p = skipSpace(text, p + 1);
      const c = text.charCodeAt(p);
      if (keys.has(key)) {
        if (seen.has(key)) unusual();
        seen.add(key);
        if (c === 0x5b) {
          const at = p;
          const plain = plainArray(text, at);
          const parsed = plain ? undefined : stringArray(text, at);
          p = plain?.end ?? parsed!.end;
          replace(at, p, plain ? plainArrayList(text, at, p, plain.count) : namesList(parsed!.names), true);
        } else if (c === QUOTE) {
          const end = stringEnd(text, p);
          replace(p, end, stringList(stringValue(text, p, end)), false);
          p = end;
        } else if (c === 0x7b && key === 'data' && !nested) {
          p = object(p, DATA_KEYS, true);
        } else p = skipValue(text, p);
      } else p = skipValue(text, p);
      p = skipSpace(text, p);
      const next = text.charCodeAt(p);
      if (next === 0x7d) return p + 1;
      if (next !== 0x2c) unusual();
      p = skipSpace(text, p + 1);
    }
  };

  i = object(i, TOP_KEYS, false);
  if (skipSpace(text, i) !== text.length) unusual();
  pieces.push(text.slice(copiedTo));
  return { skeleton: pieces.join(''), lists };
}

function skipSpace(text: string, at: number): number {
  let p = at;
  for (;;) {
    const c = text.charCodeAt(p);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p++;
    else return p;
  }
}

/** The index after the closing quote of the string starting at `at`. */
function stringEnd(text: string, at: number): number {
  const close = closingQuote(text, at + 1);
  return close < 0 ? unusual() : close + 1;
}

/** The value of the JSON string text[start, end): as it stands, or through JSON.parse when it escapes. */
function stringValue(text: string, start: number, end: number): string {
  const inner = text.slice(start + 1, end - 1);
  for (let i = 0; i < inner.length; i++) {
    const c = inner.charCodeAt(i);
    if (c === BACKSLASH || c < 0x20) return JSON.parse(text.slice(start, end)) as string;
  }
  return inner;
}

/**
 * A tight, plain array (`["a","b"]`, plain-list.ts's rule) found without a walk over its strings first: the
 * rule's own walk finds where it ends (with no backslash in it, no quote can stand inside a name), and the
 * rule vouches for all before. Null for any other array, whose names stringArray makes.
 */
function plainArray(text: string, at: number): { end: number; count: number } | null {
  if (text.charCodeAt(at + 1) !== QUOTE) return null;
  const list = plainList(text, at + 2, -1, 'quoted');
  return list === null || text.charCodeAt(list.end + 1) !== 0x5d ? null : { end: list.end + 2, count: list.count };
}

function plainArrayList(text: string, at: number, end: number, count: number): ScannedList {
  let names: string[] | undefined;
  const inside = (): string => text.slice(at + 2, end - 2);
  return {
    count: () => count,
    // A plain list's names need no trimming and none is empty: they are what lies between `","`.
    names: () => (names ??= inside().split(SEPARATOR.quoted)),
    lines: () => linesOf(inside(), 'quoted'),
    separated: () => asciiNames(text, at + 2, end - 2, count, SEPARATOR.quoted),
  };
}

/** Names made already (an array that is not plain): no form from the answer's text. */
function namesList(names: string[]): ScannedList {
  return { count: () => names.length, names: () => names, lines: () => null, separated: () => null };
}

/** Names in text[start, end) between separators, when the text there is ASCII (else a name's bytes are not its characters). */
function asciiNames(text: string, start: number, end: number, count: number, separator: SeparatedNames['separator']): SeparatedNames | null {
  return isAsciiText(text.slice(start, end)) ? { text, start, end, count, separator } : null;
}

/** A list given as one string: its forms from the string where it is plain (counted once), else its names. */
function stringList(value: string): ScannedList {
  let names: string[] | undefined;
  let counted: number | undefined;
  const plain = (): number => (counted ??= plainList(value, 0, value.length, 'comma')?.count ?? -1);
  const list: ScannedList = {
    count: () => (plain() >= 0 ? plain() : list.names().length),
    names: () => (names ??= cleanNames(value.split(','))),
    lines: () => (plain() < 0 ? null : linesOf(value, 'comma')),
    separated: () => (plain() < 0 ? null : asciiNames(value, 0, value.length, plain(), SEPARATOR.comma)),
  };
  return list;
}

/** An array of strings: the names, trimmed and without empty ones, as extractBucketList's cleanNames does. */
function stringArray(text: string, at: number): { names: string[]; end: number } {
  const names: string[] = [];
  let p = skipSpace(text, at + 1);
  if (text.charCodeAt(p) === 0x5d) return { names, end: p + 1 };
  for (;;) {
    if (text.charCodeAt(p) !== QUOTE) unusual();
    const end = stringEnd(text, p);
    const name = stringValue(text, p, end).trim();
    if (name !== '') names.push(name);
    p = skipSpace(text, end);
    const next = text.charCodeAt(p);
    if (next === 0x5d) return { names, end: p + 1 };
    if (next !== 0x2c) unusual();
    p = skipSpace(text, p + 1);
  }
}

/** Skips any JSON value without judging it: the skeleton goes through JSON.parse, which does. */
function skipValue(text: string, at: number): number {
  let depth = 0;
  let p = at;
  for (;;) {
    if (p >= text.length) unusual();
    const c = text.charCodeAt(p);
    if (c === QUOTE) p = stringEnd(text, p);
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      p++;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return p;
      depth--;
      p++;
      if (depth === 0) return p;
    } else if (c === 0x2c && depth === 0) return p;
    else p++;
  }
}
