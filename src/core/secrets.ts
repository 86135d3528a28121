// Secrets and how they are hidden: the one place that knows what a token looks like in text. Every output
// path of scpctl masks through this module (the terminal's stderr and stdout writers, messages quoted from
// the service, --verbose request lines, JSON answers echoed with --json, proxy URLs, saved plans), with one
// rule for which tokens are searched for and one for how much of a token may ever show.

/** Tokens shorter than this are not searched for: masking `abc` everywhere would garble every message. */
export const MIN_SECRET_LENGTH = 6;

const formsOf = new Map<string, string[]>();

/** The forms a token takes in text: raw, JSON-escaped, percent-encoded (both flavours), HTML-escaped. */
export function secretForms(secret: string): string[] {
  if (secret.length < MIN_SECRET_LENGTH) return [];
  let known = formsOf.get(secret);
  if (!known) formsOf.set(secret, (known = computeForms(secret)));
  return known;
}

function computeForms(secret: string): string[] {
  const forms = new Set([
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    new URLSearchParams({ t: secret }).toString().slice(2),
    secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
  ]);
  // The longest first, so that a form that holds another is replaced whole.
  return [...forms].sort((a, b) => b.length - a.length);
}

const needleOf = new Map<string, string>();

/**
 * Whether `text` may hold a form of a secret: it holds the secret's longest run of characters that no form
 * changes (letters, digits, `-._`), or the secret has none. One native search a secret, where the forms would
 * be five: a view of 8 MiB or a report of 22 MB is looked through in a few milliseconds, and only an output
 * that may hold a secret is decoded and masked.
 */
export function mayHoldSecret(text: string | Uint8Array, secrets: readonly string[]): boolean {
  return secrets.some((secret) => {
    if (secret.length < MIN_SECRET_LENGTH) return false;
    let needle = needleOf.get(secret);
    if (needle === undefined) needleOf.set(secret, (needle = (secret.match(/[A-Za-z0-9._-]+/g) ?? []).reduce((a, b) => (b.length > a.length ? b : a), '')));
    if (needle === '') return true;
    return typeof text === 'string' ? text.includes(needle) : Buffer.from(text.buffer, text.byteOffset, text.byteLength).includes(needle);
  });
}

/** The text with every form of every secret replaced by `***`. */
export function maskSecret(text: string, secrets: string | readonly (string | undefined)[] | undefined): string {
  let out = text;
  for (const secret of typeof secrets === 'string' ? [secrets] : (secrets ?? [])) {
    if (!secret) continue;
    for (const form of secretForms(secret)) {
      // Percent-encoding is case-insensitive in its hex digits.
      if (form.includes('%')) out = out.replace(new RegExp(escapeRegExp(form), 'gi'), '***');
      else if (out.includes(form)) out = out.split(form).join('***');
    }
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A token for display: its first 4 characters and `***`, or only `***` when it is too short to spare 4. */
export function maskToken(token: string): string {
  return token.length >= 12 ? `${token.slice(0, 4)}***` : '***';
}

/** A JSON value with every string that holds a secret masked (a service echoing the request, say). */
export function maskInValue(value: unknown, secrets: string | readonly string[]): unknown {
  if (typeof value === 'string') return maskSecret(value, secrets);
  if (Array.isArray(value)) return value.map((item) => maskInValue(item, secrets));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskInValue(item, secrets)]));
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
    return `${url.protocol}//${user}@${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return text.replace(/[^\s/@]+@/g, '***@');
  }
}

/** A URL for display: scheme, host and path; no credentials, query or fragment. */
export function displayUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}
