// Gathers bucket names from arguments, files and standard input, in the contract's order (section 3),
// and turns invalid names into one usage error that lists them.
import { UsageError } from '../../errors.js';
import {
  MAX_REPORTED_INVALID,
  describeInvalidNames,
  readBucketNames,
  type NameSource,
  type ReadNamesResult,
} from '../../core/names.js';
import type { CommandContext } from '../context.js';
import { readStdin, readTextFile } from '../read-input.js';

export interface NameInput {
  /** Names given on the command line, each possibly several (`a,b c`). */
  args: string[];
  /** `-f FILE` values; `-` is standard input. */
  files: string[];
  /** How argument origins are labelled in messages (`arg 2`, `--add 1`). */
  argLabel?: string;
  /** Read standard input when nothing else is given and it is not a terminal. */
  stdinFallback: boolean;
}

/** The raw sources, in order: arguments, then each file, then standard input as a fallback. */
export async function gatherSources(ctx: CommandContext, input: NameInput): Promise<NameSource[]> {
  const sources: NameSource[] = input.args.map((text, i) => ({
    origin: { kind: 'arg', index: i + 1, label: input.argLabel },
    text,
  }));
  let stdinUsed = false;
  for (const file of input.files) {
    if (file === '-') {
      // Standard input can be read once; a second `-f -` adds nothing.
      if (!stdinUsed) sources.push({ origin: { kind: 'stdin' }, text: await readStdin(ctx.term.stdin) });
      stdinUsed = true;
      continue;
    }
    sources.push({ origin: { kind: 'file', path: file }, text: await readTextFile(file) });
  }
  if (input.stdinFallback && input.args.length === 0 && input.files.length === 0) {
    if (ctx.term.stdinIsTTY) {
      throw new UsageError('no bucket names given', {
        hint: 'Name buckets as arguments, with -f FILE, or pipe them in: cat names.txt | scpctl buckets ...',
      });
    }
    sources.push({ origin: { kind: 'stdin' }, text: await readStdin(ctx.term.stdin) });
  }
  return sources;
}

/** Reads and checks one input's names; invalid ones are in the result, for `acceptNames` to refuse. */
export async function readNames(ctx: CommandContext, input: NameInput, validate: boolean): Promise<ReadNamesResult> {
  return readBucketNames(await gatherSources(ctx, input), { validate });
}

/**
 * Stops the command before anything is sent when any of the results holds invalid names: one usage error
 * that lists them all (the first 20 over every result, then how many more). Otherwise says how many
 * duplicates were dropped.
 */
export function acceptNames(ctx: CommandContext, validate: boolean, ...results: ReadNamesResult[]): void {
  const invalidCount = results.reduce((sum, result) => sum + result.invalidCount, 0);
  if (invalidCount > 0) {
    const error = new UsageError(
      `${invalidCount} invalid bucket name${invalidCount === 1 ? '' : 's'}; nothing was sent`,
      { hint: validate ? 'S3 bucket names: 3-63 characters of a-z, 0-9, "." and "-". --no-validate lifts the rules.' : undefined },
    );
    const invalid = results.flatMap((result) => result.invalid).slice(0, MAX_REPORTED_INVALID);
    error.details = describeInvalidNames({ invalid, invalidCount });
    throw error;
  }
  const duplicates = results.reduce((sum, result) => sum + result.duplicates, 0);
  if (duplicates > 0) ctx.term.info(`dropped ${duplicates} duplicate name${duplicates === 1 ? '' : 's'}`);
}

/**
 * Reads, validates and de-duplicates; invalid names stop the command before anything is sent. The result
 * holds the names and their index (sync's diff reuses it).
 */
export async function collectNames(ctx: CommandContext, input: NameInput, validate: boolean): Promise<ReadNamesResult> {
  const result = await readNames(ctx, input, validate);
  acceptNames(ctx, validate, result);
  return result;
}
