// The quick path (src/quick.ts, dist/quick.cjs): the shim runs a view from the quick bundle and every other
// line from the whole one, and a view answers the same either way, against both of the emulator's error
// styles. test/unit/quick.test.ts holds the two readings of a line equal; this holds the two runs equal.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, scpctl, useEmulator, type EmulatorSuite } from './harness.js';

/** A preload that notes each bundle of dist/ the shim reads, in the file SCPCTL_TEST_READS names. */
const NOTE_READS = `const fs = require('node:fs'); const read = fs.readFileSync;
fs.readFileSync = function (path, ...rest) {
  if (typeof path === 'string' && /dist\\/[a-z]+\\.cjs$/.test(path)) fs.appendFileSync(process.env.SCPCTL_TEST_READS, path.replace(/.*\\//, '') + '\\n');
  return read.call(this, path, ...rest);
};`;

describe('the quick bundle', () => {
  it('holds the view and the run, and neither commander nor any other command (what makes it quick)', () => {
    // esbuild names by its path each module it wraps (every package, and each module first imported lazily):
    // what the build put in, whatever the sources say.
    const bundle = readFileSync(join(ROOT, 'dist', 'quick.cjs'), 'utf8');
    const modules = new Set([...bundle.matchAll(/"((?:src|node_modules)\/[^"]+\.[cm]?[jt]s)"/g)].map((m) => m[1]));
    expect(modules).toContain('src/commands/buckets/view.ts');
    expect(modules).toContain('src/commands/context.ts');
    const foreign = [...modules].filter(
      (path) =>
        path.includes('commander') ||
        /^src\/(cli|main)\.ts$|^src\/commands\/command-spec\.ts$/.test(path) ||
        // Any command's folder (one added later too) but the view's own two modules.
        (/^src\/commands\/[^/]+\//.test(path) && !['src/commands/buckets/view.ts', 'src/commands/buckets/common.ts'].includes(path)),
    );
    expect(foreign).toEqual([]);
  });
});

for (const [i, style] of [[], ['--http200-errors']].entries()) {
  describe(`the quick path (emulator ${style.join(' ') || 'with HTTP error statuses'})`, () => {
    let suite: EmulatorSuite;
    useEmulator([...style, '--profile', 'finance=logs-2024,backups-eu', '--profile', 'empty'], (s) => (suite = s));

    /** Runs the shim, and which bundles it read, in order. */
    const run = async (args: string[]) => {
      const preload = join(suite.dir, 'note-reads.cjs');
      const reads = join(suite.dir, `reads-${Math.random().toString(36).slice(2)}.txt`);
      writeFileSync(preload, NOTE_READS);
      writeFileSync(reads, '');
      const result = await scpctl(args, { env: { ...suite.env, NODE_OPTIONS: `--require ${preload}`, SCPCTL_TEST_READS: reads }, real: true });
      // (With --verbose, require reads the whole bundle again after the shim has checked it.)
      return { ...result, bundles: [...new Set(readFileSync(reads, 'utf8').split('\n').filter(Boolean))] };
    };

    // Which bundle runs does not depend on the service: tried once.
    if (i === 0) it('runs a view from the quick bundle alone, and any other line from the whole one', async () => {
      expect((await run(['buckets', 'view', 'finance'])).bundles).toEqual(['quick.cjs']);
      expect((await run(['buckets', 'view', 'finance', '--json'])).bundles).toEqual(['quick.cjs']);
      // Declined by the quick bundle before it did anything: --wait, `--`, a mistake.
      for (const line of [['buckets', 'view', 'finance', '--wait', '1'], ['buckets', 'view', '--', 'finance'], ['buckets', 'view', 'finance', '--jsn']]) {
        expect((await run(line)).bundles, line.join(' ')).toEqual(['quick.cjs', 'scpctl.cjs']);
      }
      // --verbose wants the whole bundle's source map; other commands never look at the quick one.
      expect((await run(['buckets', 'view', 'finance', '-v'])).bundles).toEqual(['scpctl.cjs']);
      expect((await run(['buckets', 'append', 'finance', 'x', '--dry-run'])).bundles).toEqual(['scpctl.cjs']);
    });

    it('a view says the same through either bundle: names, JSON, a table, an empty list, errors and their exit codes', async () => {
      // The error style changes only what a failed request answers.
      const lines = i === 0
        ? [
            ['finance'],
            ['finance', '--json'],
            ['finance', '-o', 'table', '-q', '--no-color'],
            ['finance', '--output=json', '--context', 'default'],
            ['empty'],
            ['no-such-profile'],
            ['Not A Profile'],
            ['finance', '-o', 'csv'],
            ['finance', '--context', 'nowhere'],
          ]
        : [['no-such-profile'], ['no-such-profile', '--json']];
      const quick = new Map<string, Awaited<ReturnType<typeof run>>>();
      for (const words of lines) {
        // `--` before the profile means the same to commander, and the quick path leaves such a line to it.
        const [taken, left] = await Promise.all([run(['buckets', 'view', ...words]), run(['buckets', 'view', ...words.slice(1), '--', words[0]!])]);
        expect(taken.bundles).toEqual(['quick.cjs']);
        expect(left.bundles).toEqual(['quick.cjs', 'scpctl.cjs']);
        const { stdout, stderr, exitCode } = left;
        expect({ stdout: taken.stdout, stderr: taken.stderr, exitCode: taken.exitCode }, words.join(' ')).toEqual({ stdout, stderr, exitCode });
        quick.set(words.join(' '), taken);
      }
      // Not a vacuous match: the lines above answer, fail and refuse as they should.
      expect(quick.get('no-such-profile')!.exitCode).toBe(4);
      if (i === 0) {
        expect(quick.get('finance')!.stdout).toBe('logs-2024\nbackups-eu\n');
        expect(quick.get('finance -o csv')!.exitCode).toBe(2);
      }
    });
  });
}
