// docs/architecture.md's guide to adding a command, followed: its example (docs/examples/hello-command.ts)
// added to the tree as step 3 does, then run through main(argv, io) like any command.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { COMMANDS, buildProgram } from '../../src/cli.js';
import { completeWords } from '../../src/commands/completion/candidates.js';
import type { Io } from '../../src/io.js';
import { main } from '../../src/main.js';
import { helloCommand } from '../../docs/examples/hello-command.js';

const ROOT = resolve(import.meta.dirname, '../..');
const commands = [...COMMANDS, helloCommand];

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) => new Writable({ write: (chunk, _e, done) => (into.push(String(chunk)), done()) });
  const io = { stdout: sink(out), stderr: sink(err), stdin: Readable.from([]), env: { NO_COLOR: '1' } } as unknown as Io;
  const code = await main(argv, io, { commands });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('adding a command as docs/architecture.md says', () => {
  it('the guide shows the example as it is', () => {
    const guide = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const example = readFileSync(join(ROOT, 'docs/examples/hello-command.ts'), 'utf8');
    const start = example.indexOf('export async function hello');
    const action = example.slice(start, example.indexOf('\n}\n', start) + 2);
    const lines = action.split('\n').map((line) => line.trim()).filter(Boolean);
    expect(lines.length).toBeGreaterThan(2); // the action's lines, not an empty slice
    for (const line of lines) expect(guide).toContain(line);
    for (const field of ["name: 'hello'", "args: [{ name: '<name>', description: 'who to greet' }]", "options: [{ flags: '--shout', description: 'in capitals' }]"]) {
      expect(guide).toContain(field);
    }
  });

  it('runs with its typed arguments and options', async () => {
    expect(await run(['hello', 'world'])).toEqual({ code: 0, stdout: 'hello, world\n', stderr: '' });
    expect((await run(['hello', 'world', '--shout'])).stdout).toBe('HELLO, WORLD\n');
  });

  it('bad input is a usage error, one line, exit 2', async () => {
    const empty = await run(['hello', ' ']);
    expect(empty).toMatchObject({ code: 2, stdout: '' });
    expect(empty.stderr).toBe('scpctl: hello: the name is empty\n');
    const missing = await run(['hello']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing required argument 'name'");
  });

  it('shows in help with its examples, and completion offers it and its flags', async () => {
    const help = await run(['--help']);
    expect(help.stdout).toMatch(/Setup:[\s\S]*hello \[options\] <name>\s+greet someone/);
    expect((await run(['hello', '--help'])).stdout).toContain('$ scpctl hello world --shout');
    const tree = buildProgram(undefined, commands);
    expect(completeWords(tree, ['hel'], {})).toEqual(['words', 'hello\tgreet someone (an example of a command)', 'help\tdisplay help for command']);
    expect(completeWords(tree, ['hello', '--s'], {})).toEqual(['words', '--shout\tin capitals']);
  });
});
