// Every name of a plan, where a reviewer can reach it. The Markdown plan (the comment's, the CLI's) lists at most
// MARKDOWN_NAMES names of each list, and a comment is cut at 65,536 characters: a pull request could hide the one
// deletion that matters among thousands of names. The job summary (GitHub keeps 1 MiB of it) lists them all,
// the deletions first and unfolded, and the job's log whatever the summary cannot hold.
import { MARKDOWN_NAMES, codeSafe } from '../../src/core/plan.js';
import type { ProfileOutcome } from '../../src/library/public.js';
import { MAX_PLAN_CHARS } from './plan-comment.js';

/** GitHub refuses a step summary over 1 MiB; the notes around the names stay inside it. */
export const SUMMARY_BYTES = 1024 * 1024 - 4096;

export interface Listing {
  /** Markdown for the job summary after the plan; empty when the plan already shows every name. */
  markdown: string;
  /** The lines the summary could not hold, a group per profile and kind, for the job's log. */
  spilled: Array<{ title: string; lines: string[] }>;
  spilledCount: number;
}

/** How many names the plan adds and deletes, and whether `markdown` (its Markdown plan) shows each of them in a comment. */
export function tally(profiles: readonly ProfileOutcome[], markdown: string): { added: number; deleted: number; whole: boolean } {
  let added = 0;
  let deleted = 0;
  let whole = markdown.length <= MAX_PLAN_CHARS;
  for (const p of profiles) {
    added += p.add.length;
    deleted += p.delete.length;
    if (p.add.length > MARKDOWN_NAMES || p.delete.length > MARKDOWN_NAMES) whole = false;
  }
  return { added, deleted, whole };
}

/**
 * Every name in `budget` bytes of Markdown: the deletions of every profile first (what a reviewer must not
 * miss, in a block left open), then the additions (folded). What does not fit is spilled, never dropped.
 */
export function everyName(profiles: readonly ProfileOutcome[], budget: number): Listing {
  const listing: Listing = { markdown: '', spilled: [], spilledCount: 0 };
  let left = budget;
  const block = (kind: 'delete' | 'add'): string[] => {
    const sign = kind === 'delete' ? '-' : '+';
    const lines: string[] = [];
    for (const p of profiles) {
      const names = p[kind];
      if (names.length === 0) continue;
      const heading = `# ${codeSafe(p.profile)}: ${names.length} to ${kind}`;
      let i = 0;
      if (left > Buffer.byteLength(heading) + 1) {
        lines.push(heading);
        left -= Buffer.byteLength(heading) + 1;
        for (; i < names.length; i++) {
          const line = `${sign} ${codeSafe(names[i]!)}`;
          const bytes = Buffer.byteLength(line) + 1;
          if (bytes > left) break;
          lines.push(line);
          left -= bytes;
        }
      }
      if (i < names.length) {
        listing.spilled.push({ title: `scpctl: ${p.profile}: the names to ${kind} the job summary could not hold (${names.length - i} of ${names.length})`, lines: names.slice(i).map((n) => `${sign} ${n}`) });
        listing.spilledCount += names.length - i;
      }
    }
    return lines;
  };
  const deletions = block('delete');
  const additions = block('add');
  const out = ['', '#### Every name of this plan', '', `A comment shows at most ${MARKDOWN_NAMES} names of each list; here is each of them, the deletions first.`, ''];
  if (deletions.length > 0) out.push('```diff', ...deletions, '```', '');
  if (additions.length > 0) out.push('<details><summary>every name to add</summary>', '', '```diff', ...additions, '```', '', '</details>', '');
  if (listing.spilledCount > 0) {
    out.push(`**${listing.spilledCount} names did not fit in this summary (GitHub keeps 1 MiB of it): the job log lists them, each group named \`scpctl: PROFILE: the names to ...\`.**`, '');
  }
  listing.markdown = out.join('\n');
  return listing;
}
