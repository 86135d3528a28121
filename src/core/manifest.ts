// The manifest of `apply` (contract section 10): profiles mapped to their desired lists. Pure: the command
// layer parses YAML or JSON into the positioned tree below (so every message can say FILE:LINE), and this
// module checks its shape. Every problem is collected; the caller reports them all at once.
import type { ByteNameSource } from './name-bytes.js';

/** A parsed document, with the line each node starts on. */
export type ManifestNode =
  | { kind: 'map'; line: number; entries: Array<{ key: string; line: number; value: ManifestNode }> }
  | { kind: 'seq'; line: number; items: ManifestNode[] }
  /**
   * `text`: the scalar as written (`123` stays "123"); `value`: as typed by YAML (true, 12, null). `names`: a
   * list of names read from the manifest's text instead (a long plain list). `line`: where its text starts
   * (a block scalar's on the line after its `|` or `>`).
   */
  | { kind: 'scalar'; line: number; text: string; value: unknown; names?: Uint8Array };

export interface ManifestProfile {
  name: string;
  line: number;
  /** Its lists written in the manifest, as the name reader takes them (each from the manifest line it starts on). */
  inline: ByteNameSource[];
  /** Paths as written in the manifest (relative to its folder). */
  files: Array<{ path: string; line: number }>;
  allowEmpty: boolean;
}

export const TOP_KEYS = ['profiles', '$schema'] as const;
export const PROFILE_KEYS = ['buckets', 'files', 'allowEmpty'] as const;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** Why a profile name cannot be meant (as `checkProfileName` refuses it on the command line), or null. */
export function profileNameProblem(name: string): string | null {
  if (name.trim() === '') return 'is empty';
  if (name.trim() !== name) return 'has whitespace at its start or end';
  if (CONTROL_CHARACTER.test(name)) return 'holds a control character';
  return null;
}

/** How problems are reported: a `FILE:LINE: message` line each, and a scalar described (quoted, then cut). */
interface Report {
  file: string;
  fail(line: number, message: string): void;
  describe(node: ManifestNode): string;
}

/**
 * Checks the tree; `errors` hold `FILE:LINE: message` lines, in document order. `mask` runs over a quoted
 * value before it is cut (contract 13: a cut form of a token would escape the output's mask).
 */
export function checkManifest(root: ManifestNode | null, file: string, mask: (text: string) => string = (text) => text): { profiles: ManifestProfile[]; errors: string[] } {
  const errors: string[] = [];
  const fail = (line: number, message: string): void => void errors.push(`${file}:${line}: ${message}`);
  return { profiles: checkRoot(root, { file, fail, describe: (node) => describe(node, mask) }), errors };
}

function checkRoot(root: ManifestNode | null, report: Report): ManifestProfile[] {
  const { fail } = report;
  if (root === null || isNothing(root)) {
    fail(1, 'the manifest is empty; it needs "profiles:"');
    return [];
  }
  if (root.kind !== 'map') {
    fail(root.line, `the manifest must be a mapping with the key "profiles", not ${report.describe(root)}`);
    return [];
  }
  let profilesNode: ManifestNode | undefined;
  for (const entry of root.entries) {
    if (entry.key === 'profiles') profilesNode = entry.value;
    else if (entry.key === '$schema') {
      if (entry.value.kind !== 'scalar' || typeof entry.value.value !== 'string') fail(entry.line, '"$schema" must be a string');
    } else fail(entry.line, `unknown key ${JSON.stringify(entry.key)} (the keys are ${TOP_KEYS.join(', ')})`);
  }
  if (profilesNode === undefined) {
    fail(root.line, 'the manifest has no "profiles:"');
    return [];
  }
  if (profilesNode.kind !== 'map' || profilesNode.entries.length === 0) {
    fail(profilesNode.line, `"profiles" must map profile names to their lists, not ${report.describe(profilesNode)}`);
    return [];
  }
  return profilesNode.entries.flatMap((entry) => checkProfile(entry.key, entry.line, entry.value, report) ?? []);
}

/** An empty document or value (`key:` with nothing, or ""). */
function isNothing(node: ManifestNode): boolean {
  return node.kind === 'scalar' && (node.value === null || node.text === '');
}

function checkProfile(
  name: string,
  line: number,
  node: ManifestNode,
  report: Report,
): ManifestProfile | undefined {
  const { fail } = report;
  const where = `profile ${JSON.stringify(name)}`;
  const nameProblem = profileNameProblem(name);
  if (nameProblem) fail(line, `the profile name ${JSON.stringify(name)} ${nameProblem}`);
  if (node.kind !== 'map') {
    const empty = isNothing(node);
    fail(empty ? line : node.line, empty ? `${where} has neither "buckets" nor "files"` : `${where} must be a mapping (buckets, files, allowEmpty), not ${report.describe(node)}`);
    return undefined;
  }
  const profile: ManifestProfile = { name, line, inline: [], files: [], allowEmpty: false };
  let hasBuckets = false;
  let hasFiles = false;
  for (const entry of node.entries) {
    const value = entry.value;
    switch (entry.key) {
      case 'buckets':
        hasBuckets = true;
        for (const item of stringsOf(value, `${where}: "buckets"`, entry.line, report)) {
          profile.inline.push({ origin: { kind: 'file', path: report.file }, bytes: item.names ?? Buffer.from(item.text), line: item.line });
        }
        break;
      case 'files':
        hasFiles = true;
        for (const item of stringsOf(value, `${where}: "files"`, entry.line, report)) {
          if (item.text.trim() === '') fail(item.line, `${where}: a file path is empty`);
          else if (item.text === '-') fail(item.line, `${where}: "-" (standard input) cannot be a file of a manifest`);
          else profile.files.push({ path: item.text, line: item.line });
        }
        break;
      case 'allowEmpty':
        if (value.kind === 'scalar' && typeof value.value === 'boolean') profile.allowEmpty = value.value;
        else fail(entry.line, `${where}: "allowEmpty" must be true or false`);
        break;
      default:
        fail(entry.line, `${where}: unknown key ${JSON.stringify(entry.key)} (the keys are ${PROFILE_KEYS.join(', ')})`);
    }
  }
  if (!hasBuckets && !hasFiles) fail(line, `${where} has neither "buckets" nor "files"`);
  return profile;
}

type Scalar = Extract<ManifestNode, { kind: 'scalar' }>;

/** A string or a number: its text as written (`123` is a fine bucket name). */
const isText = (node: ManifestNode): node is Scalar => node.kind === 'scalar' && node.value !== null && typeof node.value !== 'boolean';

/** A list of strings, or one string. */
function stringsOf(node: ManifestNode, what: string, line: number, report: Report): Scalar[] {
  const { fail } = report;
  if (node.kind === 'scalar') {
    if (node.value === null) return []; // `buckets:` with nothing: an empty list, refused later unless allowEmpty
    if (isText(node)) return [node];
  } else if (node.kind === 'seq') {
    for (const item of node.items) if (!isText(item)) fail(item.line, `${what} must hold strings, not ${report.describe(item)}`);
    return node.items.filter(isText);
  }
  fail(line, `${what} must be a list of strings or one string, not ${report.describe(node)}`);
  return [];
}

function describe(node: ManifestNode, mask: (text: string) => string): string {
  if (node.kind === 'map') return 'a mapping';
  if (node.kind === 'seq') return 'a list';
  if (node.value === null) return 'nothing';
  return `${typeof node.value === 'string' ? 'the string' : `the ${typeof node.value}`} ${mask(JSON.stringify(node.text)).slice(0, 60)}`;
}
