// The quick path (src/quick.ts) reads a line without commander: every line it takes, commander must read the
// same way (the same command, arguments, options and global options), and the action it runs must be the
// one the command's declaration loads. Commander here is read exactly as main.ts reads a line.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runs } from './property-runs.js';
import type { Command } from 'commander';
import { buildProgram, COMMANDS } from '../../src/cli.js';
import { helpAsFlag, keepWaitArguments, shortEquals } from '../../src/main.js';
import { QUICK_ACTIONS, quickCall } from '../../src/quick.js';
import { processIo } from '../../src/io.js';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

class Reached {
  constructor(readonly reading: { path: string; args: unknown[]; options: unknown; globals: unknown }) {}
}

/** How commander reads `argv` into a command with a context (main.ts's words, tree and parse), or its error. */
async function commanderReading(argv: readonly string[]): Promise<Reached['reading'] | 'no command run' | 'commander refused'> {
  const words = keepWaitArguments(helpAsFlag(shortEquals(argv)));
  const context = async (command: Command): Promise<never> => {
    const path: string[] = [];
    for (let c: Command | null = command; c?.parent; c = c.parent) path.unshift(c.name());
    throw new Reached({ path: path.join(' '), args: command.processedArgs, options: command.opts(), globals: command.optsWithGlobals() });
  };
  const program = buildProgram({ context, io: processIo() }, COMMANDS, words);
  const all = (command: Command): Command[] => command.commands.flatMap((sub) => [sub, ...all(sub)]);
  for (const command of [program, ...all(program)]) {
    command.exitOverride();
    command.configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
  }
  try {
    await program.parseAsync(words, { from: 'user' });
    return 'no command run';
  } catch (error) {
    if (error instanceof Reached) return error.reading;
    return 'commander refused';
  }
}

async function expectCommanderAgrees(argv: readonly string[]): Promise<void> {
  const call = quickCall(argv);
  if (!call) return;
  expect(await commanderReading(argv), argv.join(' ')).toEqual({ path: call.path, args: call.args, options: call.options, globals: call.globals });
}

const WORDS = [
  'buckets', 'view', 'finance', 'help', '--json', '-q', '--quiet', '-o', '--output', '--output=json', '--output=', 'json', 'text',
  'table', 'csv', '--', '-', '--wait', '5', '-h', '--help', '--verbose', '-v', '-qv', '--no-color', '--context', 'ci', '-oq',
  '-o=json', '-ojson', '--json=1', '--quiet=', '', ' ', 'a,b', '--base-url', 'http://x', '--token-file', '-V', '--version',
];

describe('the quick path reads a line as commander does', () => {
  it('takes the lines scripts run most', () => {
    for (const line of [
      'buckets view finance',
      'buckets view finance --json',
      'buckets view finance -o json',
      'buckets view finance --output=text',
      'buckets view -q finance -o table',
    ]) {
      expect(quickCall(line.split(' ')), line).toBeDefined();
    }
  });

  it('leaves to commander help, --verbose, --wait, other options, an option given twice, a value missing, and every other command', () => {
    for (const line of [
      'buckets view finance --help',
      'buckets view finance -v',
      'buckets view finance --verbose',
      'buckets view finance --wait',
      'buckets view finance --no-color',
      'buckets view finance --context ci',
      'buckets view finance --json --json',
      'buckets view finance -o json -o text',
      'buckets view finance -o',
      'buckets view finance -o --json',
      'buckets view finance -ojson',
      'buckets view finance -- x',
      'buckets view',
      'buckets view a b',
      'buckets append finance a',
      'help buckets view',
      '--json buckets view finance',
    ]) {
      expect(quickCall(line.split(' ')), line).toBeUndefined();
    }
  });

  it('the lines it takes, commander reads the same way', async () => {
    for (const line of ['buckets view finance', 'buckets view finance --json', 'buckets view -q finance -o table', 'buckets view help --output=csv']) {
      const argv = line.split(' ');
      expect(quickCall(argv)).toBeDefined();
      await expectCommanderAgrees(argv);
    }
  });

  it('any line it takes, commander reads the same way (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 6 })), { maxLength: 6 }), async (rest) => {
        await expectCommanderAgrees(['buckets', 'view', ...rest]);
      }),
      { numRuns: runs(1500) },
    );
  });

  it('runs the very action the declaration loads', async () => {
    const view = COMMANDS.find((spec) => spec.name === 'buckets')!.subcommands!.find((spec) => spec.name === 'view')!;
    expect(await QUICK_ACTIONS['buckets view']()).toBe(await view.load!());
  });

  it("the quick bundle's entry reaches neither commander nor the command tree, lazily or not (what makes it quick)", () => {
    const SRC = resolve(import.meta.dirname, '../../src');
    const reached = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string): void => {
      if (reached.has(file)) return;
      reached.add(file);
      // Type-only imports are erased; every other import, static or import(), is in the bundle.
      const code = readFileSync(file, 'utf8').replace(/^import type .*$/gm, '');
      for (const [, target] of code.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)) {
        if (target!.startsWith('.')) visit(resolve(dirname(file), target!.replace(/\.js$/, '.ts')));
        else packages.add(target!);
      }
    };
    visit(join(SRC, 'quick-entry.ts'));
    expect(reached).toContain(join(SRC, 'commands', 'buckets', 'view.ts'));
    expect([...packages].filter((name) => !name.startsWith('node:'))).not.toContain('commander');
    for (const tree of ['main.ts', 'cli.ts', join('commands', 'command-spec.ts'), join('commands', 'buckets', 'command.ts')]) expect(reached).not.toContain(join(SRC, tree));
  });
});
