// The argument parsers, fuzzed: whatever a user or a script types, the result is a value or a typed usage
// error (exit 2), never an uncaught exception.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runs } from './property-runs.js';
import { Command, CommanderError } from 'commander';
import { buildProgram } from '../../src/cli.js';
import { buildReportQuery, type ReportFlags } from '../../src/core/report-query.js';
import { parsePeriod, parseTime } from '../../src/core/time.js';
import { parseWait } from '../../src/commands/buckets/common.js';
import { checkProfileName } from '../../src/library/buckets.js';
import { parseRetries, parseTimeout } from '../../src/settings/resolve.js';
import { ScpctlError } from '../../src/errors.js';

/** Either a value or a ScpctlError with exit code 2. */
function valueOrUsageError(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ScpctlError);
    expect((error as ScpctlError).exitCode).toBe(2);
  }
}

const TOKENS = [
  'buckets', 'view', 'append', 'delete', 'replace', 'modify', 'sync', 'report', 'login', 'logout', 'config', 'get',
  'set', 'list', 'doctor', 'completion', 'bash', '-f', '--file', '-', '--add', '--delete', '--wait', '--json', '-o',
  'table', 'csv', '--type', 'alert', '--groupby', 'activity', '--period', '7d', '--start', '--end', '--limit',
  '--skip', '--all', '--chart', '--where', '-q', '-v', '-qv', '--timeout', '--retries', '--base-url', '--context',
  '--no-color', '--dry-run', '--exit-code', '--verify', '--allow-empty', '--no-validate', '--', '-x', '--bogus', '',
];

/** The real command tree with every action replaced, so parsing is all that runs. */
function parseOnly(): Command {
  const program = buildProgram();
  const all = (command: Command): Command[] => command.commands.flatMap((sub) => [sub, ...all(sub)]);
  for (const command of [program, ...all(program)]) {
    command.exitOverride();
    command.configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
    if (command.commands.length === 0) command.action(() => {});
  }
  return program;
}

describe('properties: the command line', () => {
  it('any argv parses or fails with a commander usage error (exit 2 in main)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constantFrom(...TOKENS), fc.string({ maxLength: 12 })), { maxLength: 8 }), async (argv) => {
        try {
          await parseOnly().parseAsync(argv, { from: 'user' });
        } catch (error) {
          expect(error).toBeInstanceOf(CommanderError);
        }
      }),
      { numRuns: runs(1500) },
    );
  });

  it('report flags build a query or a usage error', () => {
    const text = fc.option(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('1h', '24h', '7d', '30d', '3600', '2h', '3d', '2024-05-01', '1714557600', '0', '-1', '10000', 'alert', 'activity')), { nil: undefined });
    fc.assert(
      fc.property(
        fc.record({
          type: text, groupby: text, period: text, start: text, end: text, insertionStart: text, insertionEnd: text,
          query: text, limit: text, skip: text, alertType: text,
          where: fc.option(fc.array(fc.string({ maxLength: 12 }), { maxLength: 3 }), { nil: undefined }),
        }),
        (flags) => valueOrUsageError(() => buildReportQuery(flags as ReportFlags, 1_700_000_000)),
      ),
      { numRuns: runs(3000) },
    );
  });

  it('times, periods, waits, timeouts, retries and profile names parse or fail as usage errors', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (value) => {
        valueOrUsageError(() => parseTime(value, 1_700_000_000, '--start'));
        valueOrUsageError(() => parsePeriod(value));
        valueOrUsageError(() => parseWait(value));
        valueOrUsageError(() => parseTimeout(value));
        valueOrUsageError(() => parseRetries(value));
        valueOrUsageError(() => checkProfileName(value, ['tok_S3cr3t+/=Zq9XyW7vU5tR']));
      }),
      { numRuns: runs(3000) },
    );
  });
});
