// A manifest's text (YAML, or JSON, which is YAML) into the positioned tree core/manifest.ts checks, within
// the memory bound (contract section 13): long plain lists of names are set aside first and read by the name
// reader (core/manifest-lift.ts), and what is left for the parser is bounded, since the parser makes about
// 1.7 KB of every node. A manifest it cannot hold is refused at once, never parsed into gigabytes.
import { UsageError } from '../errors.js';
import { liftNameLists, originalLine, type LiftedList, type LiftedManifest } from '../core/manifest-lift.js';
import type { ManifestNode } from '../core/manifest.js';
import { randomHex } from '../core/random.js';

type Yaml = typeof import('yaml');

/** What the parser may be given: about 35 MB of nodes at most (a list of 20,000 items, 3 tokens each). */
const MAX_PARSED_CHARS = 2 * 1024 * 1024;
const MAX_PARSED_TOKENS = 60_000;

/** YAML (or JSON) into the positioned tree; syntax errors as `FILE:LINE: message`. */
export async function parseManifestText(text: string, label: string): Promise<{ root: ManifestNode | null; errors: string[] }> {
  // Loaded here only: `apply` is the one command that reads YAML, and the parser is not small.
  const YAML = await import('yaml');
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // A `%YAML 1.1` directive gives plain words other meanings (yes, no, on): such a manifest is read as written.
  const lifted = /^%YAML/m.test(body) ? undefined : liftNameLists(body, randomHex(8));
  const parsed = lifted !== undefined && lifted.lists.length > 0 ? parse(YAML, lifted, label) : undefined;
  if (parsed !== undefined && parsed.errors.length === 0) return parsed;
  // An error may be the stand-in's own (put where no list was, inside a quoted string): the manifest as
  // written says what is wrong, unless it is too large to parse at all.
  try {
    return parse(YAML, { text: body, lists: [], shifts: [] }, label)!;
  } catch (error) {
    if (error instanceof UsageError && parsed !== undefined) return parsed;
    throw error;
  }
}

/** The parse of `body`, or undefined when a stand-in did not come back where it was put (read as written then). */
function parse(YAML: Yaml, lifted: LiftedManifest, label: string): { root: ManifestNode | null; errors: string[] } | undefined {
  const { text: body, lists } = lifted;
  refuseLargeYaml(YAML, body, label);
  const lineCounter = new YAML.LineCounter();
  const doc = YAML.parseDocument(body, { lineCounter, uniqueKeys: true, prettyErrors: false, strict: true });
  const lineOf = (offset: number | undefined): number => (offset === undefined ? 1 : originalLine(lifted, lineCounter.linePos(offset).line));
  if (/^\s*[{[]/.test(body)) {
    // JSON gets JSON's own message, which says more about a missing brace than a YAML parser can.
    try {
      JSON.parse(body);
    } catch (error) {
      const position = /position (\d+)/.exec((error as Error).message);
      const line = position ? lineOf(Number(position[1])) : lineOf(body.length);
      return { root: null, errors: [`${label}:${line}: not valid JSON: ${(error as Error).message.replace(/ in JSON at position \d+.*$/, '')}`] };
    }
  }
  if (doc.errors.length > 0) {
    // The first error only: the ones after it are mostly echoes of it.
    const [first] = doc.errors;
    return { root: null, errors: [`${label}:${lineOf(first!.pos[0])}: not valid YAML: ${first!.message.split('\n')[0]}`] };
  }
  // An alias (`*a`) would let a few hundred bytes stand for billions of nodes (the "billion laughs"); a
  // manifest has no use for them, so any alias refuses the document before anything is expanded.
  let alias: number | undefined;
  YAML.visit(doc, {
    Alias(_key, node) {
      alias ??= lineOf(node.range?.[0]);
      return YAML.visit.BREAK;
    },
  });
  if (alias !== undefined) {
    return { root: null, errors: [`${label}:${alias}: YAML aliases (*name) are not allowed in a manifest: write the names out, or list a file under "files:"`] };
  }
  const byMarker = new Map(lists.map((list) => [list.marker, list]));
  if (lists.length > 0 && !standInsInPlace(YAML, doc, byMarker)) return undefined;
  return { root: doc.contents === null ? null : toManifestNode(YAML, doc.contents, 1, lineOf, byMarker), errors: [] };
}

/**
 * Refuses text the parser could not hold within the bound: too long, or too many tokens (each becomes
 * nodes). The tokens are counted by the lexer, which keeps none of them.
 */
function refuseLargeYaml(YAML: Yaml, body: string, label: string): void {
  let tokens = 0;
  if (body.length <= MAX_PARSED_CHARS) {
    if (body.length < 64 * 1024) return; // too short to hold that many tokens
    for (const token of new YAML.Lexer().lex(body)) {
      const c = token.charCodeAt(0);
      if (c !== 0x0a && c !== 0x20 && c !== 0x0d && ++tokens > MAX_PARSED_TOKENS) break;
    }
    if (tokens <= MAX_PARSED_TOKENS) return;
  }
  throw new UsageError(
    `${label}: too large to read as YAML: beyond its plain lists of names it holds ${tokens > MAX_PARSED_TOKENS ? `over ${MAX_PARSED_TOKENS.toLocaleString('en-US')} YAML tokens` : `over ${MAX_PARSED_CHARS / 1024 / 1024} MiB`}; nothing was sent`,
    { hint: 'Write long lists of names plainly under "buckets:" (one "- name" a line, [a, b, c], or a "|" block), or in a file under "files:".' },
  );
}

/** Whether every stand-in came back once, as the double-quoted value of a `buckets` key. */
function standInsInPlace(YAML: Yaml, doc: import('yaml').Document, byMarker: Map<string, LiftedList>): boolean {
  const found = new Set<string>();
  let wrong = false;
  YAML.visit(doc, {
    Scalar(_key, node, path) {
      if (typeof node.value !== 'string' || !byMarker.has(node.value)) return;
      const pair = path[path.length - 1];
      const keyed = YAML.isPair(pair) && pair.value === node && YAML.isScalar(pair.key) && pair.key.value === 'buckets';
      if (!keyed || node.type !== 'QUOTE_DOUBLE' || found.has(node.value)) wrong = true;
      found.add(node.value);
    },
  });
  return !wrong && found.size === byMarker.size;
}

/** A YAML node as the positioned tree core/manifest.ts checks (aliases are refused before this). */
function toManifestNode(YAML: Yaml, node: unknown, fallbackLine: number, lineOf: (offset: number | undefined) => number, lifted: Map<string, LiftedList>, depth = 0): ManifestNode {
  if (depth > 64) return { kind: 'scalar', line: fallbackLine, text: '', value: null };
  if (YAML.isMap(node)) {
    return {
      kind: 'map',
      line: lineOf(node.range?.[0]) || fallbackLine,
      entries: node.items.map((pair) => {
        const keyNode = pair.key;
        const keyLine = YAML.isNode(keyNode) ? lineOf(keyNode.range?.[0]) : fallbackLine;
        const key = YAML.isScalar(keyNode) ? (typeof keyNode.value === 'string' ? keyNode.value : (keyNode.source ?? String(keyNode.value))) : String(keyNode);
        return { key, line: keyLine, value: toManifestNode(YAML, pair.value, keyLine, lineOf, lifted, depth + 1) };
      }),
    };
  }
  if (YAML.isSeq(node)) {
    const line = lineOf(node.range?.[0]);
    return { kind: 'seq', line, items: node.items.map((item) => toManifestNode(YAML, item, line, lineOf, lifted, depth + 1)) };
  }
  if (YAML.isScalar(node)) {
    const value = node.value;
    const list = typeof value === 'string' ? lifted.get(value) : undefined;
    if (list) return { kind: 'scalar', line: list.line, text: '', value: '', names: list.bytes };
    const text = typeof value === 'string' ? value : (node.source ?? String(value));
    const block = node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED';
    return { kind: 'scalar', line: lineOf(node.range?.[0]) + (block ? 1 : 0), text, value };
  }
  return { kind: 'scalar', line: fallbackLine, text: '', value: null };
}
