// The plan of `apply` (and `restore`): per profile what to add and what to delete, and how it ended.
// Pure: rendering it as text, JSON or Markdown happens here too, without a terminal or the network.
import type { SyncPlan } from './diff.js';
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


/** A profile's names a group at a time (a saved plan's are parsed so, a group after another). */
export interface NameGroups {
  add: Iterable<readonly string[]>;
  delete: Iterable<readonly string[]>;
}

export function groupsOf(plan: SyncPlan): NameGroups {
  return { add: [plan.add], delete: [plan.delete] };
}

/**
 * One profile of the --json plan, a group of names a piece: the text JSON.stringify makes of
 * `{profile, add, delete, applied, status, error?, exitCode?}`, escaped as safeJson does (one character at a time, so piece by piece).
 */
export function* planJsonEntryPieces(p: Omit<ProfilePlan, 'add' | 'delete'>, groups: NameGroups): Generator<string> {
  yield safeJson({ profile: p.profile }).slice(0, -1) + ',"add":[';
  yield* namesJson(groups.add);
  yield '],"delete":[';
  yield* namesJson(groups.delete);
  const rest = safeJson({ applied: p.status === 'applied', status: p.status, ...(p.error ? { error: p.error.message, exitCode: p.error.exitCode } : {}) });
  yield `],${rest.slice(1)}`;
}

/** `--json`: every profile in order, unchanged ones with empty arrays (service text escaped, as everywhere), a profile at a time. */
export function* planJsonPieces(work: readonly ProfileOutline[]): Generator<string> {
  yield '{"profiles":[';
  for (const [i, w] of work.entries()) {
    if (i > 0) yield ',';
    yield* planJsonEntryPieces(w, w.names());
  }
  yield ']}\n';
}

/** The inside of a JSON array of the names, a group a piece. */
function* namesJson(groups: Iterable<readonly string[]>): Generator<string> {
  let first = true;
  for (const group of groups) {
    if (group.length === 0) continue;
    yield `${first ? '' : ','}${safeJson(group).slice(1, -1)}`;
    first = false;
  }
}

/** A profile's plan as it is printed: how many of each, its names asked for (a group at a time) when printed. */
export interface ProfileOutline extends Pick<ProfilePlan, 'profile' | 'status' | 'error'> {
  added: number;
  deleted: number;
  names(): NameGroups;
}

export function outlineOf(plan: ProfilePlan): ProfileOutline {
  return { profile: plan.profile, status: plan.status, error: plan.error, added: plan.add.length, deleted: plan.delete.length, names: () => groupsOf(plan) };
}

/** The first `count` names of each list: read no further than those. */
export function firstNames(groups: NameGroups, count: number): SyncPlan {
  const first = (lists: Iterable<readonly string[]>): string[] => {
    const names: string[] = [];
    for (const group of lists) {
      names.push(...group.slice(0, count - names.length));
      if (names.length >= count) break;
    }
    return names;
  };
  return { add: first(groups.add), delete: first(groups.delete) };
}

const differs = (p: ProfileOutline): boolean => p.added > 0 || p.deleted > 0;

export interface TextStyle {
  /** Cut each profile's lists to this many names of each kind (a terminal); undefined prints them whole. */
  cut?: number;
  add: (s: string) => string;
  del: (s: string) => string;
  heading: (s: string) => string;
  dim: (s: string) => string;
}

/**
 * `+ name` / `- name` lines under a `profile:` heading, for one profile that differs, its names a group at a
 * time, in pieces of at most `size` lines: the lines of 800,000 names are never all held at once.
 */
export function* profileTextPieces(outline: Pick<ProfileOutline, 'profile' | 'added' | 'deleted'>, groups: NameGroups, style: TextStyle, size = 20_000): Generator<string> {
  yield `${style.heading(`${visible(outline.profile)}:`)}\n`;
  yield* linePieces(groups, outline, style, size);
}

/** One profile's lines without a heading (as sync prints them); nothing if none. */
export function* planLinePieces(plan: SyncPlan, style: TextStyle, size = 20_000): Generator<string> {
  yield* linePieces(groupsOf(plan), { added: plan.add.length, deleted: plan.delete.length }, style, size);
}

/** The lines of a profile's names (each ending in a line break): whole in pieces, or cut as `style` says. */
function* linePieces(groups: NameGroups, counts: Pick<ProfileOutline, 'added' | 'deleted'>, style: TextStyle, size: number): Generator<string> {
  if (style.cut !== undefined) {
    const shown = firstNames(groups, style.cut);
    const lines = [...cutSection(shown.add, counts.added, '+', style.add, style), ...cutSection(shown.delete, counts.deleted, '-', style.del, style)];
    if (lines.length > 0) yield `${lines.join('\n')}\n`;
    return;
  }
  for (const [sign, colour, kind] of [['+', style.add, groups.add], ['-', style.del, groups.delete]] as const) {
    for (const group of kind) {
      for (let i = 0; i < group.length; i += size) yield `${group.slice(i, i + size).map((name) => colour(`${sign} ${visible(name)}`)).join('\n')}\n`;
    }
  }
}

function cutSection(names: readonly string[], count: number, sign: '+' | '-', colour: (s: string) => string, style: TextStyle): string[] {
  const lines = names.map((name) => colour(`${sign} ${visible(name)}`));
  if (lines.length < count) lines.push(style.dim(`  … and ${count - lines.length} more to ${sign === '+' ? 'add' : 'delete'}`));
  return lines;
}

/** How many names of each kind a Markdown plan lists per profile: a pull-request comment holds 65,536 characters. */
export const MARKDOWN_NAMES = 100;

/**
 * A Markdown table of profiles with added and removed counts, then each differing profile's names in a
 * collapsible block, as a pull-request comment or a GitHub step summary wants it, in pieces: the table, then
 * each differing profile's names (the first MARKDOWN_NAMES of each list, asked for one profile at a time).
 */
export function* markdownPieces(plans: readonly ProfileOutline[], options: { title?: string; applying: boolean }): Generator<string> {
  const changed = plans.filter((p) => differs(p) && p.status !== 'failed');
  const failed = plans.filter((p) => p.status === 'failed');
  const out: string[] = [];
  const title = options.title ?? 'scpctl plan';
  const summary = `${changed.length} of ${plans.length} profile${plans.length === 1 ? '' : 's'} ${options.applying ? 'changed' : 'to change'}` +
    (failed.length > 0 ? `, ${failed.length} failed` : '');
  out.push(`### ${escapeInline(title)}: ${summary}`, '');
  out.push('| profile | added | removed | result |', '|---|---:|---:|---|');
  for (const plan of plans) {
    const failure = `failed (exit ${plan.error?.exitCode}): ${escapeInline(plan.error?.message ?? '')}`;
    const result = plan.status === 'failed' ? failure : plan.status;
    out.push(`| ${escapeInline(plan.profile)} | ${plan.added} | ${plan.deleted} | ${result} |`);
  }
  yield out.join('\n');
  for (const plan of plans.filter(differs)) yield `\n${markdownNames(plan).join('\n')}`;
  yield '\n';
}

function markdownNames(plan: ProfileOutline): string[] {
  const note = plan.status === 'failed' ? ' (not applied)' : '';
  const out = ['', `<details><summary>${escapeHtml(plan.profile)}: +${plan.added} −${plan.deleted}${note}</summary>`, '', '```diff'];
  const section = (names: readonly string[], count: number, sign: '+' | '-'): void => {
    for (const name of names) out.push(`${sign} ${codeSafe(name)}`);
    if (count > MARKDOWN_NAMES) out.push(`# … and ${count - MARKDOWN_NAMES} more to ${sign === '+' ? 'add' : 'delete'}`);
  };
  const shown = firstNames(plan.names(), MARKDOWN_NAMES);
  section(shown.add, plan.added, '+');
  section(shown.delete, plan.deleted, '-');
  out.push('```', '', '</details>');
  return out;
}

// Names and messages come from files and from the service: the one sanitiser shows control and bidi
// characters as escapes, and nothing may end a code block, break the table or inject HTML into the comment.
export const codeSafe = (s: string): string => visible(s).replace(/`/g, "'");
const escapeHtml = (s: string): string => visible(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeInline = (s: string): string => escapeHtml(s).replace(/([\\`*_[\]|])/g, '\\$1');
