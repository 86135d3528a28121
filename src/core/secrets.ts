// Secrets and how they are hidden: the one place that knows what a token looks like in text. Every output
// path of scpctl masks through this module, with one rule for which tokens are searched for and one for how
// much of a token may ever show.
import { unicodeEscape } from './service-text.js';

/** Tokens shorter than this are not searched for: masking `abc` everywhere would garble every message. */
export const MIN_SECRET_LENGTH = 6;

/**
 * A token's forms, worked out once a token: what the cheap look searches for, and (at the first mask: most
 * runs look and never mask) the one pattern that masks.
 */
interface Forms {
  /**
   * What every form but the escaped ones, the cased ones and base64 keeps: the token's longest run of letters,
   * digits and `-._`; and the token lower- and upper-cased. Empty when the token has no such run (then every
   * text may hold it).
   */
  needles: string[];
  /** The longest run of letters and digits of base64 for each of the token's three alignments. */
  base64Needles: string[];
  /** The hex of the `%XX` and `\uXXXX` escapes of the needles' characters (one of them is escaped where no needle is left), lower case. */
  percentCodes: ReadonlySet<string>;
  unicodeCodes: ReadonlySet<string>;
  /** The forms that mask: made once, when first asked for. */
  masking(): MaskingForms;
}

interface MaskingForms {
  /** Examples of the forms (the tests go through them): raw, cased, escaped, encoded. */
  examples: string[];
  /** Every form, anywhere, in any case: raw, cased, percent-encoded fully or in part, JSON- and HTML-escaped, base64. */
  pattern: RegExp;
}

/**
 * The forms of the tokens seen last. A run knows a handful of tokens; the emulator masks whatever token each
 * request carries, so the cache is bounded (unbounded, distinct 8 MiB token fields grew the emulator).
 */
const formsOf = new Map<string, Forms>();
const MAX_CACHED_FORMS = 32;

function formsFor(secret: string): Forms {
  let forms = formsOf.get(secret);
  if (!forms) {
    if (formsOf.size >= MAX_CACHED_FORMS) formsOf.delete(formsOf.keys().next().value!);
    formsOf.set(secret, (forms = computeForms(secret)));
  }
  return forms;
}

/** Examples of the forms a token takes in text (each is masked whole): none for a token too short to search. */
export function secretForms(secret: string): string[] {
  return secret.length < MIN_SECRET_LENGTH ? [] : formsFor(secret).masking().examples;
}

function computeForms(secret: string): Forms {
  const cased = casedForms(secret);
  const run = longestRun(secret, /[A-Za-z0-9._-]+/g);
  // The cased forms are searched whole: a longer needle is a faster search (a native search skips by its
  // length), and a lower-case needle in lower-case text is the slow case.
  const needles = run === '' ? [] : [...new Set([run, ...cased.slice(1).filter((text) => text !== secret)])];
  // A form without the run as it is (or cased) has one of the run's characters escaped: only their codes count.
  const percentCodes = new Set<string>();
  const unicodeCodes = new Set<string>();
  for (const needle of run === '' ? [] : [run, run.toLowerCase(), run.toUpperCase()]) {
    for (let i = 0; i < needle.length; i++) {
      percentCodes.add(hex(needle.charCodeAt(i), 2));
      unicodeCodes.add(hex(needle.charCodeAt(i), 4));
    }
  }
  let masking: MaskingForms | undefined;
  return {
    needles: needles.map(rareStart),
    base64Needles: [0, 1, 2].map((skip) => rareStart(longestRun(base64Core(secret, skip), /[A-Za-z0-9]+/g))).filter((needle) => needle.length >= 4),
    percentCodes,
    unicodeCodes,
    masking: () => (masking ??= maskingForms(secret)),
  };
}

/** The token as it is, lower- and upper-cased: those of them that keep its length in characters. */
function casedForms(secret: string): string[] {
  const length = [...secret].length;
  return [secret, secret.toLowerCase(), secret.toUpperCase()].filter((text) => [...text].length === length);
}

function maskingForms(secret: string): MaskingForms {
  const chars = [...secret];
  const base64 = base64Forms(secret);
  const examples = new Set([
    ...casedForms(secret),
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    percentAll(secret),
    new URLSearchParams({ t: secret }).toString().slice(2),
    secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
    chars.map(unicodeEscape).join(''),
    ...base64,
  ]);
  // Longer base64 forms first, so that a form holding another is masked whole; then the characters one by one.
  const whole = [...base64].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return { examples: [...examples], pattern: new RegExp([...whole, chars.map(charPattern).join('')].join('|'), 'gi') };
}

/** One character of a token in every way it may be written: as it is (any case), %-escaped, \u-escaped, JSON- or HTML-escaped. */
function charPattern(char: string): string {
  const ways = new Set<string>();
  for (const variant of new Set([char, char.toLowerCase(), char.toUpperCase()])) {
    if ([...variant].length !== 1) continue;
    ways.add(escapeRegExp(variant));
    ways.add(percentAll(variant));
    ways.add(escapeRegExp([...variant].map(unicodeEscape).join('')));
    ways.add(escapeRegExp(JSON.stringify(variant).slice(1, -1)));
    const html = HTML_ESCAPES[variant];
    if (html) ways.add(html);
  }
  if (char === '/') ways.add('\\\\/');
  if (char === ' ') ways.add('\\+');
  return ways.size === 1 ? [...ways][0]! : `(?:${[...ways].join('|')})`;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The base64 and base64url forms: the token encoded alone (with and without padding), and what stays the
 * same of it inside a longer encoded text at each of the three alignments (after the 0, 1 or 2 bytes that
 * share a group with what comes before it).
 */
function base64Forms(secret: string): string[] {
  const alone = Buffer.from(secret, 'utf8').toString('base64');
  const forms = [alone, alone.replace(/=+$/, ''), ...[0, 1, 2].map((skip) => base64Core(secret, skip))].filter((form) => form.length >= 4);
  return [...new Set([...forms, ...forms.map((form) => form.replace(/\+/g, '-').replace(/\//g, '_'))])];
}

function base64Core(secret: string, skip: number): string {
  const bytes = Buffer.from(secret, 'utf8');
  return bytes.subarray(skip, skip + Math.floor(Math.max(0, bytes.length - skip) / 3) * 3).toString('base64');
}

function percentAll(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${hex(byte, 2).toUpperCase()}`).join('');
}

function hex(code: number, digits: number): string {
  return code.toString(16).padStart(digits, '0');
}

/**
 * The needle from its first character that a bucket name cannot hold (a capital, `_`, `+`...) on, when 12
 * or more characters are left: a native search skips along by the needle's first character, and the biggest
 * outputs are names.
 */
function rareStart(needle: string): string {
  const at = needle.search(/[^a-z0-9.-]/);
  return at > 0 && needle.length - at >= 12 ? needle.slice(at) : needle;
}

function longestRun(text: string, run: RegExp): string {
  return (text.match(run) ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');
}

/**
 * Whether `text` may hold a form of a secret. A few native searches a secret, where its forms are many: the
 * longest run of `-._`, letters and digits that raw, JSON- and HTML-escaped forms keep, the token lower- and
 * upper-cased, the base64 runs, and any `%XX` or `\uXXXX` escape of one of that run's characters. Only an
 * output that may hold a secret is decoded and masked.
 */
export function mayHoldSecret(text: string | Uint8Array, secrets: readonly string[], escapes: Escapes = {}): boolean {
  const view = typeof text === 'string' ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  return secrets.some((secret) => {
    if (secret.length < MIN_SECRET_LENGTH) return false;
    const forms = formsFor(secret);
    if (forms.needles.length === 0) return true;
    if (forms.needles.some((needle) => view.includes(needle)) || forms.base64Needles.some((needle) => view.includes(needle))) return true;
    escapes.percent ??= escapesIn(view, '%', 2);
    escapes.unicode ??= escapesIn(view, '\\u', 4);
    return intersects(escapes.percent, forms.percentCodes) || intersects(escapes.unicode, forms.unicodeCodes);
  });
}

/** The `%XX` and `\uXXXX` codes found in a text, gathered once for all the tokens looked for in it (the walk is most of a look). */
interface Escapes {
  percent?: Set<string>;
  unicode?: Set<string>;
}

/** The hex digits (lower-cased) after each `marker` in the text: one native search a marker when there is none. */
function escapesIn(view: string | Buffer, marker: string, digits: number): Set<string> {
  const found = new Set<string>();
  for (let at = view.indexOf(marker); at >= 0; at = view.indexOf(marker, at + 1)) {
    const start = at + marker.length;
    const code = typeof view === 'string' ? view.slice(start, start + digits) : view.toString('latin1', start, start + digits);
    found.add(code.toLowerCase());
  }
  return found;
}

function intersects(found: ReadonlySet<string>, codes: ReadonlySet<string>): boolean {
  for (const code of found) if (codes.has(code)) return true;
  return false;
}

/** The text with every form of every secret replaced by `***`. */
export function maskSecret(text: string, secrets: string | readonly (string | undefined)[] | undefined): string {
  const searched = (typeof secrets === 'string' ? [secrets] : (secrets ?? [])).filter((secret): secret is string => Boolean(secret) && secret!.length >= MIN_SECRET_LENGTH);
  let out = text;
  // The escapes of the text as given: masking only takes some away, so they stay enough to look for the rest.
  const escapes: Escapes = {};
  for (const secret of searched) if (mayHoldSecret(out, [secret], escapes)) out = out.replace(formsFor(secret).masking().pattern, '***');
  return out;
}

/**
 * What output code masks with (a Terminal's known tokens): every table, chart and message masks its cells
 * and lines whole through it before anything is cut, padded or wrapped, so no cut can keep a token's start.
 */
export interface SecretMask {
  /** Cheap: whether the text may hold a known token in some form. */
  mayHold(text: string | Uint8Array): boolean;
  mask(text: string): string;
  /** Texts (a list's names), each masked whole; one cheap look over all of them first, so a clean list costs one search. */
  maskEach(texts: readonly string[]): readonly string[];
  /** Rows of cells, each cell masked whole, after one cheap look over them all. */
  maskRows(rows: readonly (readonly string[])[]): readonly (readonly string[])[];
}

/** A mask over `secrets` as they are when it is used (a run learns tokens as it goes). */
export function secretMask(secrets: readonly string[]): SecretMask {
  const mask = (text: string): string => maskSecret(text, secrets);
  const mayHold = (text: string | Uint8Array): boolean => mayHoldSecret(text, secrets);
  return {
    mayHold,
    mask,
    maskEach: (texts) => (texts.length === 0 || !mayHold(texts.join('\n')) ? texts : texts.map(mask)),
    maskRows: (rows) => (rows.length === 0 || !mayHold(rows.map((row) => row.join('\n')).join('\n')) ? rows : rows.map((row) => row.map(mask))),
  };
}

export const NO_SECRETS: SecretMask = secretMask([]);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A token for display: its first 4 characters and `***`, or only `***` when it is too short to spare 4. */
export function maskToken(token: string): string {
  return token.length >= 12 ? `${token.slice(0, 4)}***` : '***';
}

/**
 * A JSON value with every string that holds a secret masked (a service echoing the request, say), its keys
 * too: an answer keyed by what was sent (`{"data": {"<token>": ...}}`) would hand the token to the library's caller.
 */
export function maskInValue(value: unknown, secrets: string | readonly string[]): unknown {
  if (typeof value === 'string') return maskSecret(value, secrets);
  if (Array.isArray(value)) return value.map((item) => maskInValue(item, secrets));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [maskSecret(key, secrets), maskInValue(item, secrets)]));
  }
  return value;
}

/** A request URL as logged: exactly as sent, but for the token parameter, replaced whole whatever its encoding. */
export function maskTokenParam(url: URL): string {
  if (!url.search) return url.href;
  const query = url.search.slice(1).split('&').map((pair) => (pair.startsWith('token=') ? 'token=***' : pair)).join('&');
  return `${url.origin}${url.pathname}?${query}`;
}

/** A URL for display: credentials masked (a lone user name may be a token, so it is masked too). */
export function maskUrlCredentials(text: string): string {
  try {
    const url = new URL(text);
    if (!url.username && !url.password) return displayUrl(url);
    const user = url.password ? `${decodeURIComponent(url.username)}:***` : '***';
    return displayUrl(url).replace('//', `//${user}@`);
  } catch {
    return text.replace(/[^\s/@]+@/g, '***@');
  }
}

/** A URL for display: scheme, host and path; no credentials, query or fragment. */
export function displayUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}
