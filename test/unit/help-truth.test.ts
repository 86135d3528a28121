// Help and documentation tell the truth (contract section 12): every example in every command's help, and
// every `scpctl ...` line in the README's and docs/' code blocks, parses with the real command tree; the
// formats help names are the ones the commands accept; help wraps at the terminal's width (80 off one).
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { Command } from 'commander';
import { COMMANDS, buildProgram } from '../../src/cli.js';
import type { CommandSpec } from '../../src/commands/command-spec.js';
import { FORMATS } from '../../src/output/formats.js';
import { main, parseLine } from '../../src/main.js';
import type { Io } from '../../src/io.js';
import { wrapExample } from '../../src/commands/help-layout.js';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The real tree, every action replaced: what is left is the parser, reading the line as main() does
 * (parseLine). Returns the parse error, if any.
 */
async function parseError(words: readonly string[]): Promise<string | undefined> {
  const program = buildProgram();
  const all = (command: Command): Command[] => command.commands.flatMap((sub) => [sub, ...all(sub)]);
  let error: string | undefined;
  for (const command of [program, ...all(program)]) {
    command.exitOverride();
    command.configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: (text) => void (error = text.trim()) });
    if (command.commands.length === 0) command.action(() => {});
  }
  try {
    await parseLine(program, words);
  } catch (thrown) {
    const code = (thrown as { code?: string }).code ?? '';
    if (!['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(code)) return error ?? String(thrown);
  }
  return undefined;
}

/** Shell words of the part of a line that is the scpctl command (up to a pipe, redirect, `&&`, `;` or comment). */
function scpctlWords(line: string): string[] | undefined {
  const command = line.replace(/(^|\s)#.*$/, '');
  const found = /(?:^|[|;&(`]|\$\(|\bexec|\brun:|^\s*-|^\s*\$|\b[A-Z_]+=\S*\s)\s*scpctl\s/.exec(command);
  if (!found) return undefined;
  const rest = command.slice(found.index + found[0].length - 1);
  const words: string[] = [];
  const pattern = /\s*(?:'([^']*)'|"((?:[^"\\]|\\.)*)"|([^\s'"|&;<>#)`]+))/y;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(rest)) !== null) {
    const word = match[1] ?? match[2] ?? match[3]!;
    words.push(word);
    if (/^\s*[|&;<>#)`]/.test(rest.slice(pattern.lastIndex))) break;
  }
  return words;
}

function specExamples(specs: readonly CommandSpec[]): string[] {
  return specs.flatMap((spec) => [...spec.examples, ...specExamples(spec.subcommands ?? [])]);
}

describe('help tells the truth', () => {
  it.each(specExamples(COMMANDS).map((example) => [example]))('the help example %s parses', async (example) => {
    const words = scpctlWords(example);
    expect(words, example).toBeDefined();
    expect(await parseError(words!)).toBeUndefined();
  });

  it('every scpctl line in the README and docs/ code blocks parses', async () => {
    const files = ['README.md', ...readdirSync(join(ROOT, 'docs'), { recursive: true }).map((f) => join('docs', String(f)))].filter((f) => /\.(md|sh|yml)$/.test(f));
    const failures: string[] = [];
    let checked = 0;
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const code = file.endsWith('.md') ? [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]!).join('\n') : text;
      for (const line of code.split('\n')) {
        if (/^\s*#/.test(line) || line.includes('scpctl-')) continue;
        const words = scpctlWords(line.replace(/\$\{?\w+\}?/g, 'x-value'));
        if (words === undefined || words.length === 0) continue;
        checked++;
        const error = await parseError(words);
        // A shell variable stands in for a value the parser checks (--type "$TYPE"): not a drift.
        if (error && !error.includes("'x-value' is invalid")) failures.push(`${file}: ${line.trim()}\n    ${error}`);
      }
    }
    expect(checked).toBeGreaterThan(30);
    expect(failures).toEqual([]);
  });

  it('the global -o help names exactly the formats the commands accept', () => {
    const help = buildProgram().helpInformation();
    const lines = help.split('\n');
    const at = lines.findIndex((l) => l.includes('-o, --output'));
    // The option's description, its wrapped lines included (they start past the flags' column).
    const line = [lines[at]!, ...lines.slice(at + 1).filter((_, i, rest) => rest.slice(0, i + 1).every((l) => /^ {10,}\S/.test(l)))].join(' ');
    const named = new Set(line.replace(/.*--output <format>/, '').match(/\b[a-z]+\b/g));
    for (const formats of Object.values(FORMATS)) for (const format of formats) expect(named, `${format} in: ${line}`).toContain(format);
  });

  it('help wraps at 80 columns when stdout is not a terminal, one blank line between sections: every command and subcommand, examples and global options included', async () => {
    const all = (command: Command): Command[] => command.commands.flatMap((sub) => [sub, ...all(sub)]);
    const paths = [[], ...all(buildProgram()).map(wordsOf)];
    expect(paths.length).toBeGreaterThan(25);
    const over: string[] = [];
    for (const words of paths) {
      const { code, out } = await runMain([...words, '--help'], { COLUMNS: '200' });
      expect(code, words.join(' ')).toBe(0);
      expect(out.split('\n').length, words.join(' ')).toBeGreaterThan(8);
      for (const line of out.split('\n')) if (line.length > 80) over.push(`${words.join(' ')}: ${line.length}: ${line}`);
      // One blank line between sections (the formats line and the examples once had two).
      if (out.includes('\n\n\n')) over.push(`${words.join(' ')}: two blank lines in a row`);
    }
    expect(over).toEqual([]);
  });

  it("login's --token-store help names SCPCTL_TOKEN_STORE, its default (docs/configuration.md), as other options name theirs", async () => {
    const { out } = await runMain(['login', '--help']);
    expect(out.replace(/\s+/g, ' ')).toContain('(default: SCPCTL_TOKEN_STORE, else keyring when one answers)');
  });

  it('a long example is continued with a backslash, so that the lines pasted together are the example', () => {
    const example = 'scpctl buckets modify finance --add-file add.txt --delete-file del.txt --query "app eq Dropbox and user eq x" --json';
    const wrapped = wrapExample(example, 60);
    for (const line of wrapped.split('\n')) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(wrapped).toContain('"app eq Dropbox and user eq x"'); // never broken inside quotes
    expect(wrapped.replace(/ \\\n +/g, ' ').replace(/^  \$ /, '')).toBe(example);
  });
});

/** Every command and subcommand under `command`, without the hidden `help` (the reader of `help CMD SUBCMD` lines: cli.ts). */
const commandsIn = (command: Command): Command[] => command.commands.filter((sub) => sub.name() !== 'help').flatMap((sub) => [sub, ...commandsIn(sub)]);
/** The words that run `command`. */
const wordsOf = (command: Command): string[] => (command.parent ? [...wordsOf(command.parent), command.name()] : []);

/** main() in this process, its stdout and stderr kept (neither a terminal). */
async function runMain(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  const sink = (into: string[]) => new Writable({ write: (chunk, _e, done) => (into.push(String(chunk)), done()) }) as unknown as NodeJS.WriteStream;
  const out: string[] = [];
  const err: string[] = [];
  const io = { stdout: sink(out), stderr: sink(err), stdin: Readable.from([]), env: { NO_COLOR: '1', ...env } } as unknown as Io;
  const code = await main(argv, io);
  return { code, out: out.join(''), err: err.join('') };
}

describe('a word that names no command', () => {
  it('`help NOSUCH` is exit 2 with the closest command names, as `scpctl NOSUCH` is; help of a real command stays exit 0', async () => {
    for (const [line, closest] of [[['help', 'bukets'], 'buckets'], [['help', 'buckets', 'veiw'], 'view'], [['help', 'confg', 'get'], 'config']] as const) {
      const help = await runMain([...line]);
      const direct = await runMain(line.slice(1));
      expect(help.code, line.join(' ')).toBe(2);
      expect(help.out, line.join(' ')).toBe('');
      expect(help.err).toContain(`Did you mean ${closest}?`);
      expect(help.err).toBe(direct.err);
    }
    // Close to nothing: every name it could have been, at the level it was typed.
    for (const [line, names] of [[['help', 'nosuch'], 'scpctl are buckets, apply, report'], [['help', 'buckets', 'nosuch'], 'scpctl buckets are append, delete']] as const) {
      const nothingClose = await runMain([...line]);
      expect(nothingClose.code).toBe(2);
      expect(nothingClose.err).toMatch(new RegExp(`^scpctl: unknown command 'nosuch'\nhint: the commands of ${names}`));
      expect(nothingClose.err).toBe((await runMain(line.slice(1))).err);
    }
    // The level is commander's reading: here "buckets" is the value of --context, and nosuch a top-level word.
    expect((await runMain(['--context', 'buckets', 'nosuch'])).err).toMatch(/^scpctl: unknown command 'nosuch'\nhint: the commands of scpctl are buckets, apply/);
    for (const line of [['help'], ['help', 'buckets'], ['help', 'buckets', 'view'], ['help', 'help']]) {
      const shown = await runMain(line);
      expect(shown.code, line.join(' ')).toBe(0);
      expect(shown.out, line.join(' ')).toMatch(/^Usage: scpctl /);
    }
    // Every command and subcommand, not one sample: main() declares only the part of the tree a line runs.
    const differ: string[] = [];
    for (const words of commandsIn(buildProgram()).map(wordsOf)) {
      const [viaHelp, viaFlag] = [await runMain(['help', ...words]), await runMain([...words, '--help'])];
      if (viaHelp.code !== 0 || viaHelp.out !== viaFlag.out) differ.push(words.join(' '));
    }
    expect(differ).toEqual([]);
    // help is read by commander, after a global option too (it showed the help of buckets, and `help nosuch`
    // the program's, exit 0).
    expect((await runMain(['-q', 'help', 'buckets', 'view'])).out).toBe((await runMain(['buckets', 'view', '--help'])).out);
    const quietNosuch = await runMain(['--context', 'x', 'help', 'nosuch']);
    expect([quietNosuch.code, quietNosuch.out]).toEqual([2, '']);
    expect(quietNosuch.err).toMatch(/^scpctl: unknown command 'nosuch'\nhint: the commands of scpctl are buckets, apply/);
  });

  it('`apply FILE` (the -f forgotten) is a usage error whose hint says -f FILE', async () => {
    const forgot = await runMain(['apply', 'scpctl.yaml']);
    expect(forgot.code).toBe(2);
    expect(forgot.err).toContain('scpctl: apply reads the manifest from -f FILE');
    expect(forgot.err).toMatch(/\nhint: .*scpctl apply -f scpctl\.yaml/);
    expect(forgot.err).not.toMatch(/too many arguments/);
  });
});

describe('the exit codes the documentation names are the ones the code uses', () => {
  it('every code in the exit-code table is raised somewhere, and every code raised is in the table', () => {
    const source = ['src/errors.ts', 'src/interrupt.ts'].map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
    const used = new Set([0, ...[...source.matchAll(/exitingWith\((\d+)\)|SIG[A-Z]+: (\d+)/g)].flatMap((m) => m.slice(1).filter(Boolean).map(Number))]);
    const docs = ['README.md', ...readdirSync(join(ROOT, 'docs'), { recursive: true }).map((f) => join('docs', String(f)))].filter((f) => f.endsWith('.md'));
    const tables = docs.flatMap((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const at = text.indexOf('| code | meaning |');
      if (at < 0) return [];
      const rows = text.slice(at).split('\n').slice(2);
      return [rows.slice(0, rows.findIndex((row) => !row.startsWith('|'))).flatMap((row) => row.split('|')[1]!.split(',').map((c) => Number(c.trim())))];
    });
    expect(tables.length).toBeGreaterThan(0);
    for (const codes of tables) expect(new Set(codes)).toEqual(used);
  });
});

describe('the README is a front door', () => {
  it('is at most 15 KB, and its first screen says what scpctl is, installs it and runs the two commands', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15 * 1024);
    const firstScreen = readme.split('\n').slice(0, 30).join('\n');
    expect(firstScreen).toContain('storage constraint profiles');
    expect(firstScreen).toContain('npm ci && npm run demo');
    expect(firstScreen).toContain('npm ci && npm test');
    expect(firstScreen).toMatch(/npm install -g \./);
  });

  it('every link to a file in the README and docs/ leads to one', () => {
    const files = ['README.md', ...readdirSync(join(ROOT, 'docs'), { recursive: true }).map((f) => join('docs', String(f)))].filter((f) => f.endsWith('.md'));
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        try {
          readFileSync(join(ROOT, file, '..', target!));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EISDIR') broken.push(`${file}: ${target}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('the tree main() reads a line with declares a command when commander reaches it', () => {
  it('each command\'s help, as main() prints it, is its help in the whole tree', async () => {
    const whole = buildProgram();
    let shown = '';
    for (const command of [whole, ...commandsIn(whole)]) command.configureOutput({ writeOut: (text) => void (shown += text), getOutHelpWidth: () => 80, getOutHasColors: () => false });
    let compared = 0;
    for (const command of commandsIn(whole)) {
      const words = wordsOf(command);
      shown = '';
      command.outputHelp();
      for (const line of [words, ['--context', 'x', ...words], ['-o', 'json', ...words]]) {
        const { code, out } = await runMain([...line, '--help']);
        expect(code, line.join(' ')).toBe(0);
        expect(out, line.join(' ')).toBe(shown);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(60);
  });

  it('a line declares only the commands commander reads it runs; the rest are there by name; --version declares none', async () => {
    const lazyTree = () => {
      const program = buildProgram(undefined, COMMANDS, true);
      for (const command of [program, ...commandsIn(program)]) command.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
      return program;
    };
    const declared = (program: Command) => commandsIn(program).filter((c) => c.options.length > 0 || c.registeredArguments.length > 0).map((c) => wordsOf(c).join(' '));
    const buckets = lazyTree();
    await expect(parseLine(buckets, ['-o', 'json', 'buckets', '--context', 'view', 'sync', '--help'])).rejects.toMatchObject({ code: 'commander.helpDisplayed' });
    expect(declared(buckets)).toEqual(['buckets sync']); // "view" is the context's name
    expect(commandsIn(buckets).map((c) => wordsOf(c).join(' '))).toEqual(expect.arrayContaining(['report', 'apply', 'buckets view', 'buckets append']));
    const version = lazyTree();
    await expect(parseLine(version, ['--version'])).rejects.toMatchObject({ code: 'commander.version' });
    expect(declared(version)).toEqual([]);
  });

  it('the config keys the parser takes are the ones help, completion and the docs list (tokenStore and tokenCommand included)', async () => {
    const { CONFIG_KEYS } = await import('../../src/settings/config-file.js');
    const { configCommand } = await import('../../src/commands/config/command.js');
    expect(CONFIG_KEYS).toEqual(expect.arrayContaining(['tokenStore', 'tokenCommand']));
    const keyHelp = configCommand.subcommands!.find((c) => c.name === 'get')!.args![0]!.description;
    expect(keyHelp.split(', ')).toEqual([...CONFIG_KEYS]);
    const offered = (await runMain(['__complete', '--', 'config', 'get', ''])).out;
    const configuration = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
    const commands = readFileSync(join(ROOT, 'docs/commands.md'), 'utf8');
    for (const key of CONFIG_KEYS) {
      expect(offered, key).toContain(`\n${key}\n`);
      expect(configuration, key).toMatch(new RegExp(`\\| \`${key}\` \\|`));
      expect(commands, key).toContain(`\`${key}\``);
    }
  });
});
