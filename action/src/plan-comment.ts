// The plan comment on a pull request: found again by its hidden first line, which names the manifest and
// carries what apply needs (the digest reviewed, the head commit it was made for) with a seal only a run
// holding the service's token can make. Anyone can write a comment that looks like this one, and anyone with
// write access can edit the bot's: a comment counts only when it is the github-token's user's, starts with
// this line, and its seal verifies (core/tenant.ts: a salted scrypt of the token, never the token).
import { createHash } from 'node:crypto';
import { visible } from '../../src/core/service-text.js';
import { tenantIdentity, type TenantIdentity } from '../../src/core/tenant.js';

/** A comment or an issue body holds at most 65,536 characters; the plan is cut to leave room for the rest. */
export const MAX_PLAN_CHARS = 60_000;

export interface Reviewed {
  digest: string;
  head: string;
}

/** What binds a comment to its pull request, its manifest and the tenant. */
export interface Binding {
  repository: string;
  pull: number;
  manifest: string;
}

const LINE = /^<!-- scpctl-plan manifest=(\S+) digest=(sha256:[0-9a-f]{64}) head=([0-9a-f]{40}|none) tenant=(scrypt:[0-9:a-f]+) seal=(hmac-sha256:[0-9a-f]{64}) -->$/;

/** The hidden marker's start: the manifest's path percent-encoded, so no path can end the HTML comment. */
export function markerOf(kind: 'plan' | 'drift' | 'stale', manifest: string): string {
  return `<!-- scpctl-${kind} manifest=${encodeURIComponent(manifest)} `;
}

/**
 * What the seal covers: the binding, the reviewed digest and head, and the plan the comment shows below its
 * hidden line (as posted, masked), since that is what people review: anyone with write access can edit the
 * bot's comment, and an edited plan with the sealed line kept must not pass for the reviewed one.
 */
export function sealParts(binding: Binding, reviewed: Reviewed, shown: string): string[] {
  return ['scpctl action plan/2', binding.repository, String(binding.pull), binding.manifest, reviewed.digest, reviewed.head, shownDigest(shown)];
}

/** The shown plan's hash; CRLF line ends (the web editor's) and trailing blanks are the same text, and hide nothing. */
const shownDigest = (shown: string): string => createHash('sha256').update(shown.replace(/\r\n/g, '\n').trimEnd()).digest('hex');

/**
 * The comment's body: the sealed line, the Markdown plan (cut if it must be), where every name is when it does
 * not show them all (`where`, sealed with the rest), the digest for people; `mask` is the job's.
 */
export async function planCommentBody(identity: TenantIdentity, binding: Binding, reviewed: Reviewed, markdown: string, mask: (text: string) => string, where = ''): Promise<string> {
  const tenant = await identity.make();
  const sealer = (await identity.sealer(tenant))!;
  const shown = mask([cut(markdown), ...(where ? [where, ''] : []), `Plan digest: \`${reviewed.digest}\` (manifest \`${codeText(binding.manifest)}\`). Merging applies this plan only if the digest is the same at merge.`, ''].join('\n'));
  const seal = sealer.seal(sealParts(binding, reviewed, shown));
  return `${markerOf('plan', binding.manifest)}digest=${reviewed.digest} head=${reviewed.head} tenant=${tenant.key} seal=${seal} -->\n${shown}`;
}

/** The reviewed plan a comment holds, or undefined when it is not one of ours or its seal does not verify. */
export async function reviewedIn(body: string, identity: TenantIdentity, binding: Binding): Promise<Reviewed | undefined> {
  const end = body.indexOf('\n');
  const match = LINE.exec(end < 0 ? body : body.slice(0, end).replace(/\r$/, ''));
  if (!match || match[1] !== encodeURIComponent(binding.manifest)) return undefined;
  const reviewed = { digest: match[2]!, head: match[3]! };
  const sealer = await identity.sealer({ baseUrl: identity.baseUrl, key: match[4]! });
  const shown = end < 0 ? '' : body.slice(end + 1);
  return sealer?.verify(sealParts(binding, reviewed, shown), match[5]) ? reviewed : undefined;
}

/** The Markdown plan in at most about `max` characters (a comment's room by default); every name is elsewhere then. */
export function cut(markdown: string, max = MAX_PLAN_CHARS): string {
  if (markdown.length <= max) return markdown;
  // Cut at a line break, out of any open code block: what follows stays Markdown. A line longer than `max`
  // is cut inside (the job summary shrinks `max` until the plan fits, which must end).
  const lineEnd = markdown.lastIndexOf('\n', max);
  const kept = markdown.slice(0, lineEnd > 0 ? lineEnd : max);
  const fence = (kept.match(/^```/gm)?.length ?? 0) % 2 === 1 ? '\n```\n</details>' : '';
  return `${kept}${fence}\n\n_The plan is cut here to fit: the job summary lists every name._\n`;
}

/** A path inside a code span: no backtick can end it. */
export const codeText = (s: string): string => visible(s).replace(/`/g, "'");

export { tenantIdentity };
