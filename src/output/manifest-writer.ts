// A manifest of live lists (apply --export) drawn as YAML or JSON, in pieces (a 400,000-name list is never
// one string made twice). The YAML is the shape apply reads fastest: one `- name` a line under `buckets:`,
// which the manifest reader lifts straight from the text (core/manifest-lift.ts). Only what that reader
// reads back as the same string is written plain; every other key or name is a JSON string of ASCII
// alone (JSON's double-quoted strings are YAML's), so no profile name can change the document's shape.
import { readsAsWritten } from '../core/manifest-lift.js';
import { safeJsonText } from '../core/service-text.js';

/** A manifest as a value (the library's ManifestInput, as export makes it). */
export interface ManifestValue {
  profiles: Record<string, { buckets?: readonly string[]; files?: readonly string[]; allowEmpty?: boolean }>;
}

/** Lines a piece: a few hundred KB of text each. */
const LINES_A_PIECE = 10_000;

/** Past this YAML takes a key only in its explicit form (`? key`), since an implicit one must end within 1024 characters. */
const IMPLICIT_KEY_MAX = 512;

/** The manifest's text as `format` (one of FORMATS.manifest: yaml, json) draws it, a piece at a time. */
export function manifestPieces(format: string, value: ManifestValue): Iterable<string> {
  // JSON indented, one name a line: a file meant to be committed reads and diffs line by line.
  return format === 'json' ? [`${safeJsonText(JSON.stringify(value, null, 2))}\n`] : yamlPieces(value);
}

/** A scalar as the manifest's YAML holds it: plain when read back the same, else a JSON string of ASCII. */
export function yamlScalar(text: string): string {
  if (readsAsWritten(text)) return text;
  return JSON.stringify(text).replace(/[^\x20-\x7e]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function* yamlPieces(value: ManifestValue): Generator<string> {
  yield 'profiles:\n';
  for (const [profile, desired] of Object.entries(value.profiles)) {
    const key = yamlScalar(profile);
    yield key.length > IMPLICIT_KEY_MAX ? `  ? ${key}\n  :\n` : `  ${key}:\n`;
    if (desired.buckets !== undefined) yield* listPieces('buckets', desired.buckets);
    if (desired.files !== undefined) yield* listPieces('files', desired.files);
    if (desired.allowEmpty !== undefined) yield `    allowEmpty: ${desired.allowEmpty}\n`;
  }
}

function* listPieces(key: string, items: readonly string[]): Generator<string> {
  if (items.length === 0) {
    yield `    ${key}: []\n`;
    return;
  }
  yield `    ${key}:\n`;
  for (let at = 0; at < items.length; at += LINES_A_PIECE) {
    let piece = '';
    for (const item of items.slice(at, at + LINES_A_PIECE)) piece += `      - ${yamlScalar(item)}\n`;
    yield piece;
  }
}
