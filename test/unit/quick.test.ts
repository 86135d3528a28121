// The quick path (src/quick.ts) reads a line without commander: every line it takes, commander must read the
// same way (the same command, arguments, options and global options), and the action it runs must be the
// one the command's declaration loads. Commander here is read exactly as main.ts reads a line.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runs } from './property-runs.js';
import type { Command } from 'commander';
import { buildProgram, COMMANDS } from '../../src/cli.js';
import { helpAsFlag, keepWaitArguments, shortEquals } from '../../src/main.js';
import { loadView, quickCall } from '../../src/quick.js';
import { processIo } from '../../src/io.js';
import { GLOBAL_OPTIONS } from '../../src/commands/global-options.js';

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
  expect(await commanderReading(argv), argv.join(' ')).toEqual({ path: 'buckets view', args: [call.profile], options: {}, globals: call.globals });
}

/** Every name of every global option (a new one is drawn too), then words that are not options or are odd. */
const OPTION_NAMES = GLOBAL_OPTIONS.flatMap((spec) => spec.flags.split(/[ ,]+/).filter((word) => word.startsWith('-')));
const WORDS = [
  ...OPTION_NAMES,
  'buckets', 'view', 'finance', 'help', '--json', '-q', '--quiet', '-o', '--output', '--output=json', '--output=', 'json', 'text',
  'table', 'csv', '--', '-', '--wait', '5', '-h', '--help', '--verbose', '-v', '-qv', '--no-color', '--context', 'ci', '-oq',
  '-o=json', '-ojson', '--json=1', '--quiet=', '', ' ', 'a,b', '--base-url', 'http://x', '--token-file', '-V', '--version',
  '--timeout', '--retries', '3', '--ca-cert', 'ca.pem', '--context=ci', '--no-color=1', '--token-file=t', '--timeout=', '-c',
];

describe('the quick path reads a line as commander does', () => {
  it('takes the lines scripts run most', () => {
    for (const line of [
      'buckets view finance',
      'buckets view finance --json',
      'buckets view finance -o json',
      'buckets view finance --output=text',
      'buckets view -q finance -o table',
      'buckets view finance --context ci --token-file /run/token --no-color',
      'buckets view --base-url=https://h --timeout 5 --retries 0 --ca-cert ca.pem finance',
    ]) {
      expect(quickCall(line.split(' ')), line).toBeDefined();
    }
  });

  it('leaves to commander help, --verbose, --wait, an option given twice, a value missing, and every other command', () => {
    for (const line of [
      'buckets view finance --help',
      'buckets view finance -v',
      'buckets view finance --verbose',
      'buckets view finance --wait',
      'buckets view finance --no-color --no-color',
      'buckets view finance --context',
      'buckets view finance --context=',
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
    for (const line of [
      'buckets view finance',
      'buckets view finance --json',
      'buckets view -q finance -o table',
      'buckets view help --output=csv',
      'buckets view finance --context ci --token-file /run/token --no-color',
      'buckets view --base-url=https://h --timeout 5 --retries 0 --ca-cert ca.pem finance',
    ]) {
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
    expect(await loadView()).toBe(await view.load!());
  });
});
