// A manifest's long lists of names, set aside before the YAML parser sees the manifest. The parser makes a
// node of about 1.7 KB of each list item (400,000 names: gigabytes), where the name reader holds the same
// names in about the bytes they take. So a `buckets:` value of the plain shapes below is cut out and read by
// the name reader straight from the manifest's text, and the parser gets a stand-in string in its place, on one line:
//
//   buckets: [a, "b", c]       a flow list of plain or quoted names (JSON's shape), on one line or many
//   buckets:                   a block list, one plain or quoted name an item
//     - a
//   buckets: |                 a block scalar (literal or folded): its lines are names as written
//     a b
//
// Only what reads exactly alike both ways is cut out: names of the characters a-z A-Z 0-9 . _ - (upper case
// included, so that the reader still refuses it with its reason), none that YAML would read as null or a
// boolean, no comments or escapes inside a flow list. Anything else stays for the parser. The caller maps the
// parser's lines back to the manifest's (originalLine), and checks that each stand-in came back from the
// parser as the value of a `buckets` key, or reads the manifest as written.
import { lineCounter } from './names.js';

export interface LiftedList {
  /** The stand-in's value (a string with a NUL no manifest can hold unescaped, and a per-read nonce). */
  marker: string;
  /** The names as the reader takes them: the value's text with quotes, `-` indicators and comments blanked. */
  bytes: Buffer;
  /** The manifest line `bytes` starts on. */
  line: number;
}

export interface LiftedManifest {
  text: string;
  lists: LiftedList[];
  /** Where lines were taken out: after line `at` of `text`, `lines` lines of the manifest (see originalLine). */
  shifts: Array<{ at: number; lines: number }>;
}

/** The manifest's line of `line` of a lifted text: the lines a stand-in took out are added back. */
export function originalLine(lifted: Pick<LiftedManifest, 'shifts'>, line: number): number {
  let original = line;
  for (const shift of lifted.shifts) if (shift.at < line) original += shift.lines;
  return original;
}

/** Below this, a list is left to the parser: it costs little, and the common manifest is read as written. */
const LIFT_AT_LEAST = 64;

/** Lists of names under `buckets:` set aside (see the top of the file); `nonce` makes the stand-ins unguessable. */
export function liftNameLists(text: string, nonce: string): LiftedManifest {
  const parts: string[] = [];
  const lists: LiftedList[] = [];
  const shifts: LiftedManifest['shifts'] = [];
  let removed = 0;
  const lineAt = lineCounter(text);
  // Block lists and block scalars are only lifted where no flow mapping can be open (one would be invalid there).
  const firstBrace = text.indexOf('{');
  let copied = 0;
  for (let at = text.indexOf('buckets'); at !== -1; at = text.indexOf('buckets', at + 7)) {
    const key = keyAt(text, at);
    if (key === undefined || key.valueAt < copied) continue;
    if (key.block && firstBrace !== -1 && firstBrace < at) key.block = false;
    const lift = liftValue(text, key);
    if (lift === undefined || lift.end - key.valueAt < LIFT_AT_LEAST) continue;
    const marker = `\u0000${nonce}:${lists.length}`;
    const keyLine = lineAt(key.valueAt);
    lists.push({ marker, bytes: lift.bytes, line: lineAt(lift.start) });
    // The stand-in is one line: a blank line left for each line of the list would cost the parser a token.
    const lines = lineAt(lift.end) - keyLine;
    if (lines > 0) shifts.push({ at: keyLine - removed, lines });
    removed += lines;
    parts.push(text.slice(copied, key.valueAt), `${text[key.valueAt - 1] === ':' ? ' ' : ''}"\\u0000${nonce}:${lists.length - 1}"`);
    copied = lift.end;
    at = Math.max(at, lift.end - 7);
  }
  if (lists.length === 0) return { text, lists, shifts };
  parts.push(text.slice(copied));
  return { text: parts.join(''), lists, shifts };
}

interface Key {
  /** Where the value starts (after `:` and blanks), whether the key stands in block context, its indentation. */
  valueAt: number;
  block: boolean;
  indent: number;
}

/** The `buckets` key at `at` (plain, or quoted as JSON writes it), or undefined when `at` is no such key. */
function keyAt(text: string, at: number): Key | undefined {
  let start = at;
  let end = at + 7;
  const before = text[at - 1];
  if (before === '"' || before === "'") {
    if (text[end] !== before) return undefined;
    start--;
    end++;
  }
  let i = start - 1;
  while (text[i] === ' ') i--;
  const block = i < 0 || text[i] === '\n';
  const lineStart = i + 1;
  if (!block && text[i] !== '{' && text[i] !== ',') return undefined;
  while (text[end] === ' ' || text[end] === '\t') end++;
  if (text[end] !== ':') return undefined;
  end++;
  // A plain key's `:` needs a blank (or the line's end) after it, or it is part of the key.
  if (start === at && !isBlankOrEnd(text[end])) return undefined;
  while (text[end] === ' ' || text[end] === '\t') end++;
  return { valueAt: end, block, indent: start - lineStart };
}

interface Lift {
  /** Where the value ends, and where the text of `bytes` starts. */
  end: number;
  start: number;
  bytes: Buffer;
}

function liftValue(text: string, key: Key): Lift | undefined {
  const c = text[key.valueAt];
  if (c === '[') return liftFlowList(text, key.valueAt);
  if (!key.block) return undefined;
  if (c === '|' || c === '>') return liftBlockScalar(text, key);
  if (c === undefined || c === '\n' || c === '\r' || c === '#') return liftBlockList(text, key);
  return undefined;
}

/** `[a, "b", c]`: from `[` to just after `]`, or undefined unless every item is one plain or quoted name. */
function liftFlowList(text: string, open: number): Lift | undefined {
  let i = open + 1;
  let expectItem = true;
  let items = 0;
  for (;;) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if (!expectItem) {
      if (c === ']') break;
      if (c !== ',') return undefined;
      expectItem = true;
      i++;
    } else {
      const end = nameEnd(text, i);
      if (end === undefined || !isBlankOrEnd(text[end], ',]')) return undefined; // also `]` after a comma
      expectItem = false;
      items++;
      i = end;
    }
  }
  if (items === 0) return undefined;
  const end = i + 1;
  const bytes = Buffer.from(text.slice(open, end), 'latin1'); // ASCII only, checked above
  blankQuotesAndBrackets(bytes);
  return { end, start: open, bytes };
}

/** Lines of `- name` items at one indentation after `buckets:`, up to the first line less indented. */
function liftBlockList(text: string, key: Key): Lift | undefined {
  const first = text.indexOf('\n', key.valueAt);
  if (first === -1) return undefined;
  // First where the list ends (nothing is kept per item: 400,000 of anything would be megabytes), ...
  let indent = -1;
  let end = -1;
  for (let lineStart = first + 1; lineStart < text.length; ) {
    const next = text.indexOf('\n', lineStart);
    const lineEnd = next === -1 ? text.length : next;
    const kind = itemOf(text, lineStart, lineEnd);
    if (kind === 'item' && ITEM.indent >= key.indent && (indent === -1 || ITEM.indent === indent)) {
      indent = ITEM.indent;
      end = lineEnd;
    } else if (kind !== 'blank') {
      if (leadingSpaces(text, lineStart) > key.indent) return undefined; // more of the list, not plain
      break;
    }
    lineStart = lineEnd + 1;
  }
  if (end === -1) return undefined;
  // ... then the names copied in place, everything else on their lines blank: each name stays on its line.
  const bytes = Buffer.alloc(end - first, 0x20);
  bytes[0] = 0x0a;
  for (let lineStart = first + 1; lineStart < end; ) {
    const next = text.indexOf('\n', lineStart);
    const lineEnd = next === -1 ? text.length : next;
    if (itemOf(text, lineStart, lineEnd) === 'item') {
      for (let k = ITEM.start; k < ITEM.end; k++) bytes[k - first] = text.charCodeAt(k);
    }
    if (lineEnd < end) bytes[lineEnd - first] = 0x0a;
    lineStart = lineEnd + 1;
  }
  blankQuotesAndBrackets(bytes);
  return { end, start: first, bytes };
}

/** The last `- name` line itemOf read: its indentation, and where its name starts and ends. */
const ITEM = { indent: 0, start: 0, end: 0 };

/** Whether a line is a `- name` item (then in ITEM), blank or a comment, or anything else (undefined). */
function itemOf(text: string, lineStart: number, lineEnd: number): 'item' | 'blank' | undefined {
  const indent = leadingSpaces(text, lineStart);
  let i = lineStart + indent;
  if (i === lineEnd || text[i] === '#' || (text[i] === '\r' && i + 1 === lineEnd)) return 'blank';
  if (text[i] !== '-' || text[i + 1] !== ' ') return undefined;
  i += 2;
  while (text[i] === ' ') i++;
  const end = nameEnd(text, i);
  if (end === undefined) return undefined;
  let j = end;
  while (text[j] === ' ' || text[j] === '\t') j++;
  if (text[j] === '\r' && j + 1 === lineEnd) j++;
  if (j !== lineEnd && !(text[j] === '#' && j > end)) return undefined;
  ITEM.indent = indent;
  ITEM.start = i;
  ITEM.end = end;
  return 'item';
}

/**
 * `|` or `>` (with a chomping indicator or none): its lines, as written, up to the first line less indented
 * than its first. The reader splits on the blanks and line breaks either way, so the names are the value's.
 */
function liftBlockScalar(text: string, key: Key): Lift | undefined {
  let i = key.valueAt + 1;
  if (text[i] === '+' || text[i] === '-') i++;
  while (text[i] === ' ' || text[i] === '\t') i++;
  const first = text.indexOf('\n', i);
  if (first === -1 || !(text[i] === '\n' || text[i] === '#' || (text[i] === '\r' && text[i + 1] === '\n'))) return undefined;
  let indent = -1;
  let end = -1;
  for (let lineStart = first + 1; lineStart < text.length; ) {
    const next = text.indexOf('\n', lineStart);
    const lineEnd = next === -1 ? text.length : next;
    const spaces = leadingSpaces(text, lineStart);
    const c = text[lineStart + spaces];
    const blank = c === undefined || c === '\n' || (c === '\r' && lineStart + spaces + 1 === lineEnd);
    if (!blank) {
      if (indent === -1) indent = spaces;
      if (spaces < indent || indent <= key.indent) break;
      end = lineEnd;
    }
    lineStart = lineEnd + 1;
  }
  if (end === -1) return undefined;
  return { end, start: first, bytes: Buffer.from(text.slice(first, end), 'utf8') };
}

// The characters a lifted name may hold; its first must be a letter or digit (`-` and `.` start other YAML).
const NAME_CHAR = /[A-Za-z0-9._-]/;
const NAME_START = /[A-Za-z0-9]/;
/** Words YAML 1.2 reads as null or a boolean: the manifest refuses them as names, so the parser must see them. */
const NOT_A_STRING = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

/**
 * Whether `text` written as a plain YAML scalar is read back as that same string, lifted or parsed (the
 * writer of exported manifests quotes every other one): a name of the lifted kind, never null or a boolean.
 */
export function readsAsWritten(text: string): boolean {
  return text[0] !== '"' && text[0] !== "'" && nameEnd(text, 0) === text.length;
}

/** Where a plain or quoted name starting at `i` ends, or undefined if there is none of the lifted kind. */
function nameEnd(text: string, i: number): number | undefined {
  const quote = text[i] === '"' || text[i] === "'" ? text[i] : undefined;
  const from = quote ? i + 1 : i;
  if (!NAME_START.test(text[from] ?? '')) return undefined;
  let j = from + 1;
  while (j < text.length && NAME_CHAR.test(text[j]!)) j++;
  if (quote) return text[j] === quote ? j + 1 : undefined;
  if (NOT_A_STRING.has(text.slice(from, j))) return undefined;
  return j;
}

/** The names keep their places, and no name holds a quote or a bracket. */
function blankQuotesAndBrackets(bytes: Buffer): void {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x22 || b === 0x27 || b === 0x5b || b === 0x5d) bytes[i] = 0x20;
  }
}

function leadingSpaces(text: string, from: number): number {
  let i = from;
  while (text[i] === ' ') i++;
  return i - from;
}

function isBlankOrEnd(c: string | undefined, also = ''): boolean {
  return c === undefined || c === ' ' || c === '\t' || c === '\n' || c === '\r' || also.includes(c);
}
