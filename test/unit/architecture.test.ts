// The house rules of docs/architecture.md, checked: small files, small functions, a thin cli.ts, and
// imports that never run in a circle. A change that breaks one fails here, with the place named.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from '@babel/parser';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

const files = sourceFiles(SRC);
const text = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));
/** A node of the syntax tree @babel/parser gives (TypeScript's own compiler, version 7, has no parser API). */
interface SyntaxNode {
  type: string;
  body?: unknown;
  loc: { start: { line: number }; end: { line: number } };
}
/** Every node of a file's syntax tree, parsed once for every test that walks it. */
const trees = new Map<string, SyntaxNode[]>();
const nodesOf = (file: string): SyntaxNode[] => {
  let nodes = trees.get(file);
  if (nodes) return nodes;
  nodes = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      if (typeof (value as SyntaxNode).type === 'string' && 'loc' in value) nodes!.push(value as SyntaxNode);
      for (const [key, child] of Object.entries(value)) if (key !== 'loc' && typeof child === 'object') walk(child);
    }
  };
  walk(parse(text.get(file)!, { sourceType: 'module', plugins: ['typescript'] }).program);
  trees.set(file, nodes);
  return nodes;
};
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'ObjectMethod', 'ClassMethod', 'ClassPrivateMethod']);
const name = (file: string): string => relative(ROOT, file);

describe('architecture', () => {
  it('no source file is over 350 lines, and cli.ts (which only assembles the commands) is under 100', () => {
    const big = files.filter((file) => text.get(file)!.split('\n').length > 350).map(name);
    expect(big).toEqual([]);
    expect(text.get(join(SRC, 'cli.ts'))!.split('\n').length).toBeLessThan(100);
  });

  it('no function is over 60 lines', () => {
    const long: string[] = [];
    for (const file of files) {
      for (const node of nodesOf(file)) {
        if (!FUNCTIONS.has(node.type) || !node.body) continue;
        const lines = node.loc.end.line - node.loc.start.line + 1;
        if (lines > 60) long.push(`${name(file)}:${node.loc.start.line} (${lines} lines)`);
      }
    }
    expect(long).toEqual([]);
  });

  it('no import circle, type imports and lazy imports included', () => {
    const IMPORT = /(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)\.js['"]/g;
    const edges = new Map<string, string[]>();
    for (const file of files) {
      const targets = [...text.get(file)!.matchAll(IMPORT)].map((m) => resolve(dirname(file), `${m[1]}.ts`)).filter((t) => text.has(t));
      edges.set(file, targets);
    }
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      stack.push(file);
      for (const next of edges.get(file) ?? []) {
        if (state.get(next) === 'open') circles.push([...stack.slice(stack.indexOf(next)), next].map(name).join(' → '));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(circles).toEqual([]);
  });

  it('commands → core → transport: api/, core/, emulator/, files/ and history/ know nothing of terminals, commands or settings', () => {
    const offenders = files
      .filter((file) => /\/src\/(api|core|emulator|files|history)\//.test(file))
      .filter((file) => /(from ['"]|import\(['"])\.\.\/(output|commands|settings)\//.test(text.get(file)!) || /from ['"](commander|ora|kleur|cli-table3)['"]/.test(text.get(file)!))
      .map(name);
    expect(offenders).toEqual([]);
  });
});

describe('the library (contract section 14)', () => {
  it('src/library/ builds on api/, core/, settings/, files/ and history/ alone: no terminal, command, commander or process state', () => {
    const allowed = /^\.\.\/(api|core|settings|files|history)\/|^\.\/|^\.\.\/(errors|version)\.js$/;
    const offenders = files
      .filter((file) => file.includes(`${join('src', 'library')}/`))
      .flatMap((file) => [...text.get(file)!.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => [name(file), m[1]!] as const))
      .filter(([, target]) => (target.startsWith('.') ? !allowed.test(target) : !/^(node:|yaml$)/.test(target)))
      .map(([file, target]) => `${file} imports ${target}`);
    expect(offenders).toEqual([]);
  });
});

describe('one convention for commands', () => {
  it('every command lives in src/commands/<noun>/ with its declaration in command.ts; no loose *-command.ts', () => {
    const loose = files.filter((file) => /\/src\/commands\/[^/]+-command\.ts$/.test(file)).map(name);
    expect(loose).toEqual([]);
    const cli = text.get(join(SRC, 'cli.ts'))!;
    const declarations = [...cli.matchAll(/from '\.\/commands\/([^']+)\.js'/g)].map((m) => m[1]).filter((path) => !['command-spec', 'context', 'global-options', 'help-layout'].includes(path));
    for (const path of declarations) expect(path, path).toMatch(/^[a-z-]+\/command$/);
  });
});

describe('the world through Io', () => {
  it('no clock is read outside core/clock.ts: the run hands its Clock to whatever needs the time', () => {
    const readers = files
      .filter((file) => !file.endsWith(join('core', 'clock.ts')))
      .filter((file) => /Date\.now\(|new Date\(\)|performance\.now\(|process\.hrtime/.test(text.get(file)!))
      .map(name);
    expect(readers).toEqual([]);
  });

  it("no module but main, io and interrupt touches the process's environment, streams, working folder, exit or signals", () => {
    // library/connect.ts: connect() without a base URL resolves from the environment, as the CLI does (section 14).
    const allowed = ['main.ts', 'io.ts', 'interrupt.ts', 'library/connect.ts'].map((f) => join(SRC, f));
    const touching = files
      .filter((file) => !allowed.includes(file))
      .filter((file) => /process\.(env|stdout|stderr|stdin|exit|exitCode|on|once|off|cwd|chdir|kill)\b/.test(text.get(file)!.replace(/^\s*(\/\/|\*).*$/gm, '')))
      .map(name);
    expect(touching).toEqual([]);
  });
});

describe('colours come from kleur', () => {
  it('kleur is declared, and no module writes an SGR escape by hand', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.dependencies.kleur).toBeDefined();
    const byHand = files.filter((file) => /`\\u001b\[\$\{|'\\u001b\[\d|"\\u001b\[\d|\\x1b\[\d+m/.test(text.get(file)!)).map(name);
    expect(byHand).toEqual([]);
  });
});

describe('types say what flows', () => {
  it('no `any` in a type position under src/', () => {
    const found: string[] = [];
    for (const file of files) {
      for (const node of nodesOf(file)) if (node.type === 'TSAnyKeyword') found.push(`${name(file)}:${node.loc.start.line}`);
    }
    expect(found).toEqual([]);
  });
});

describe('one change pipeline', () => {
  it('sync and restore go through commands/change-pipeline.ts, apply through the library; only library/guard.ts sends a modifyBucketList', () => {
    for (const user of ['commands/buckets/sync.ts', 'commands/buckets/history.ts']) {
      expect(text.get(join(SRC, user))!, user).toMatch(/from '\.\.\/change-pipeline\.js'/);
    }
    expect(text.get(join(SRC, 'commands/apply/index.ts'))!).toMatch(/from '\.\.\/\.\.\/library\/plan\.js'/);
    const senders = files
      .filter((file) => /bucketOp\([^)]*'modifyBucketList'/.test(text.get(file)!))
      .map(name);
    expect(senders).toEqual(['src/library/guard.ts']);
  });
});

describe('one reader of the line', () => {
  it('commander reads it: main.ts alone takes process.argv, to hand it over; the launchers read no word of it', () => {
    const readers = files.filter((file) => /process\.argv/.test(text.get(file)!.replace(/^\s*(\/\/|\*).*$/gm, ''))).map(name);
    expect(readers).toEqual(['src/main.ts']);
    for (const launcher of ['bin/scpctl.js', 'scripts/sea-main.cjs']) expect(readFileSync(join(ROOT, launcher), 'utf8'), launcher).not.toMatch(/\bargv\b/);
  });
});

describe('one reader each', () => {
  it('bucket names are read by core/name-bytes.ts alone (the text statement of the rules is a test reference)', () => {
    const readers = files.filter((file) => /export function read\w*Name\w*\(/.test(text.get(file)!)).map(name);
    expect(readers).toEqual(['src/core/name-bytes.ts']);
  });
});
