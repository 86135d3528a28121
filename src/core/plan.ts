// The plan of `apply` (and `restore`): per profile what to add and what to delete, and how it ended.
// Pure: rendering it as text, JSON or Markdown happens here too, without a terminal or the network.
import { isInSync, type SyncPlan } from './diff.js';
import { safeJson, visible } from './service-text.js';

export type ProfileStatus = 'planned' | 'unchanged' | 'applied' | 'failed';

export interface ProfilePlan extends SyncPlan {
  profile: string;
  /** The fingerprint of the live list the plan was made from (absent when the profile could not be read). */
  fingerprint?: string;
  status: ProfileStatus;
  /** Why it failed, one line, and the exit code it failed with. */
  error?: { message: string; exitCode: number };
}

/** `--json`: every profile in order, unchanged ones with empty arrays (service text escaped, as everywhere). */
export function planJson(plans: readonly ProfilePlan[]): string {
  return safeJson({
    profiles: plans.map((p) => ({
      profile: p.profile,
      add: p.add,
      delete: p.delete,
      applied: p.status === 'applied',
      status: p.status,
      ...(p.error ? { error: p.error.message, exitCode: p.error.exitCode } : {}),
    })),
  });
}

export interface TextStyle {
  /** Cut each profile's lists to this many names of each kind (a terminal); undefined prints them whole. */
  cut?: number;
  add: (s: string) => string;
  del: (s: string) => string;
  heading: (s: string) => string;
  dim: (s: string) => string;
}

/** `+ name` / `- name` lines under a `profile:` heading, for each profile that differs. */
export function planText(plans: readonly ProfilePlan[], style: TextStyle): string {
  const lines: string[] = [];
  for (const plan of plans) {
    if (isInSync(plan)) continue;
    lines.push(style.heading(`${visible(plan.profile)}:`));
    // One at a time: spread, the lines of a 400,000-name plan are more arguments than the stack holds.
    for (const line of planLines(plan, style)) lines.push(line);
  }
  return lines.length > 0 ? lines.join('\n') + '\n' : '';
}

/**
 * planText in pieces of at most `size` lines, the same text in all: the lines of a plan of 800,000 names are
 * never all held at once (as strings they take about 40 bytes a name; printed in pieces, one piece).
 */
export function* planTextPieces(plans: readonly ProfilePlan[], style: TextStyle, size = 20_000): Generator<string> {
  for (const plan of plans) {
    if (isInSync(plan)) continue;
    yield `${style.heading(`${visible(plan.profile)}:`)}\n`;
    yield* planLinePieces(plan, style, size);
  }
}

/** planLines as text (each line ending in a line break) in pieces of at most `size` lines; nothing if none. */
export function* planLinePieces(plan: SyncPlan, style: TextStyle, size = 20_000): Generator<string> {
  if (style.cut !== undefined) {
    const lines = planLines(plan, style);
    if (lines.length > 0) yield `${lines.join('\n')}\n`;
    return;
  }
  for (let i = 0; i < plan.add.length; i += size) yield `${planLines({ add: plan.add.slice(i, i + size), delete: [] }, style).join('\n')}\n`;
  for (let i = 0; i < plan.delete.length; i += size) yield `${planLines({ add: [], delete: plan.delete.slice(i, i + size) }, style).join('\n')}\n`;
}

/** One profile's `+ name` / `- name` lines (sync prints them without a heading), cut as `style` says. */
export function planLines(plan: SyncPlan, style: TextStyle): string[] {
  const lines: string[] = [];
  const section = (names: string[], sign: '+' | '-', colour: (s: string) => string): void => {
    const shown = style.cut === undefined ? names : names.slice(0, style.cut);
    for (const name of shown) lines.push(colour(`${sign} ${visible(name)}`));
    if (shown.length < names.length) lines.push(style.dim(`  … and ${names.length - shown.length} more to ${sign === '+' ? 'add' : 'delete'}`));
  };
  section(plan.add, '+', style.add);
  section(plan.delete, '-', style.del);
  return lines;
}

/** How many names of each kind a Markdown plan lists per profile: a pull-request comment holds 65,536 characters. */
export const MARKDOWN_NAMES = 100;

/**
 * A Markdown table of profiles with added and removed counts, then each differing profile's names in a
 * collapsible block, as a pull-request comment or a GitHub step summary wants it.
 */
export function planMarkdown(plans: readonly ProfilePlan[], options: { title?: string; applying: boolean }): string {
  const changed = plans.filter((p) => !isInSync(p) && p.status !== 'failed');
  const failed = plans.filter((p) => p.status === 'failed');
  const out: string[] = [];
  const title = options.title ?? 'scpctl plan';
  const summary = `${changed.length} of ${plans.length} profile${plans.length === 1 ? '' : 's'} ${options.applying ? 'changed' : 'to change'}` +
    (failed.length > 0 ? `, ${failed.length} failed` : '');
  out.push(`### ${escapeInline(title)}: ${summary}`, '');
  out.push('| profile | added | removed | result |', '|---|---:|---:|---|');
  for (const plan of plans) {
    const result = plan.status === 'failed' ? `failed (exit ${plan.error?.exitCode}): ${escapeCell(plan.error?.message ?? '')}` : plan.status;
    out.push(`| ${escapeCell(plan.profile)} | ${plan.add.length} | ${plan.delete.length} | ${result} |`);
  }
  for (const plan of plans.filter((p) => !isInSync(p))) {
    const note = plan.status === 'failed' ? ' (not applied)' : '';
    out.push('', `<details><summary>${escapeHtml(plan.profile)}: +${plan.add.length} −${plan.delete.length}${note}</summary>`, '', '```diff');
    const section = (names: string[], sign: '+' | '-'): void => {
      for (const name of names.slice(0, MARKDOWN_NAMES)) out.push(`${sign} ${codeSafe(name)}`);
      if (names.length > MARKDOWN_NAMES) out.push(`# … and ${names.length - MARKDOWN_NAMES} more to ${sign === '+' ? 'add' : 'delete'}`);
    };
    section(plan.add, '+');
    section(plan.delete, '-');
    out.push('```', '', '</details>');
  }
  return out.join('\n') + '\n';
}

// Names and messages come from files and from the service: the one sanitiser shows control and bidi
// characters as escapes, and nothing may end a code block, break the table or inject HTML into the comment.
const codeSafe = (s: string): string => visible(s).replace(/`/g, "'");
const escapeHtml = (s: string): string => visible(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeInline = (s: string): string => escapeHtml(s).replace(/([\\`*_[\]|])/g, '\\$1');
const escapeCell = (s: string): string => escapeInline(s);
