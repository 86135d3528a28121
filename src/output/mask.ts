// How secrets are shown: a token for display, and how short a token may be before masking it by
// search-and-replace would garble other text.

/** Tokens shorter than this are not searched for in text to mask: `a` or `abc` would match everywhere. */
export const MIN_MASKED_LENGTH = 6;

/** A token for display: its first 4 characters and `***`, or only `***` when it is too short to spare 4. */
export function maskToken(token: string): string {
  return token.length >= 12 ? `${token.slice(0, 4)}***` : '***';
}
