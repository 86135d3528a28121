// Gathers bucket names from arguments, files and standard input, in the contract's order (section 3),
// and turns invalid names into one usage error that lists them.
import { statSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import { checkedNames, invalidNamesError } from '../../library/names.js';
import type { ByteNameSource, ByteNamesResult } from '../../core/name-bytes.js';
import type { CommandContext } from '../context.js';
import { MAX_INPUT_BYTES, readInput } from '../../files/read-input.js';

export interface NameInput {
  /** Names given on the command line, each possibly several (`a,b c`). */
  args: string[];
  /** `-f FILE` values; `-` is standard input. */
  files: string[];
  /** How argument origins are labelled in messages (`arg 2`, `--add 1`). */
  argLabel?: string;
  /** Read standard input when nothing else is given and it is not a terminal. */
  stdinFallback: boolean;
  /** `--literal`: names that are also paths are meant as names. */
  literal?: boolean;
  /** The flag that reads a file in place of these arguments, for the hint (`-f`, `--add-file`). */
  fileFlag?: string;
}

/**
 * Reads and checks one input's names, from its sources in order: arguments, then each file, then standard
 * input as a fallback. Invalid ones are in the result, for `acceptNames` to refuse.
 */
export async function readNames(ctx: CommandContext, input: NameInput, validate: boolean): Promise<ByteNamesResult> {
  if (!input.literal) refusePathNames(input);
  const sources: ByteNameSource[] = input.args.map((text, i) => ({
    origin: { kind: 'arg', index: i + 1, label: input.argLabel },
    bytes: Buffer.from(text, 'utf8'),
  }));
  let stdinUsed = false;
  // One limit for all the sources of a command: five files of 30 MiB are no more a list than one of 150.
  let read = input.args.reduce((sum, arg) => sum + arg.length, 0);
  const add = (source: ByteNameSource): void => {
    read += source.bytes.length;
    if (read > MAX_INPUT_BYTES) {
      throw new UsageError(`the names given take ${read.toLocaleString('en-US')} bytes, more than the input limit of ${MAX_INPUT_BYTES / 1024 / 1024} MiB for one command`);
    }
    sources.push(source);
  };
  const fallback = input.stdinFallback && input.args.length === 0 && input.files.length === 0;
  if (fallback && ctx.term.stdinIsTTY) {
    throw new UsageError('no bucket names given', {
      hint: 'Name buckets as arguments, with -f FILE, or pipe them in: cat names.txt | scpctl buckets ...',
    });
  }
  for (const file of fallback ? ['-'] : input.files) {
    if (file === '-') {
      // Standard input can be read once; a second `-f -` adds nothing.
      if (!stdinUsed) add({ origin: { kind: 'stdin' }, bytes: await readInput(ctx.term.stdin) });
      stdinUsed = true;
      continue;
    }
    add({ origin: { kind: 'file', path: file }, bytes: await readInput(file) });
  }
  return checkedNames(sources, ctx.knownTokens(), validate);
}

/**
 * `buckets replace demo demo-list.txt` (the -f forgotten) would make the whole allowlist one bucket named
 * `demo-list.txt`, a valid name. A name argument that is also an existing path (relative to the working
 * folder, or absolute) is refused before anything is read or sent; --literal sends it. One stat a name.
 */
function refusePathNames(input: NameInput): void {
  const flag = input.fileFlag ?? '-f';
  input.args.forEach((arg, i) => {
    for (const word of new Set([arg, ...arg.split(/[\s,]+/)])) {
      if (word === '') continue;
      let kind: string;
      try {
        kind = statSync(word).isDirectory() ? 'a folder' : 'a file';
      } catch {
        continue;
      }
      throw new UsageError(`${input.argLabel ?? 'arg'} ${i + 1}: ${JSON.stringify(word)} is also ${kind} here, so it is probably not a bucket name; nothing was sent`, {
        hint: kind === 'a file'
          ? `To read names from it: ${flag} ${word}. To send it as a bucket name: --literal.`
          : `A folder holds no names; to send it as a bucket name: --literal.`,
      });
    }
  });
}

/**
 * Stops the command before anything is sent when any of the results holds invalid names: one usage error
 * that lists them all (the first 20 over every result, then how many more). Otherwise says how many
 * duplicates were dropped.
 */
export function acceptNames(ctx: CommandContext, validate: boolean, ...results: ByteNamesResult[]): void {
  const invalid = invalidNamesError(validate, results, ctx.knownTokens());
  if (invalid) throw invalid;
  const duplicates = results.reduce((sum, result) => sum + result.duplicates, 0);
  if (duplicates > 0) ctx.term.info(`dropped ${duplicates} duplicate name${duplicates === 1 ? '' : 's'}`);
}

/**
 * Reads, validates and de-duplicates; invalid names stop the command before anything is sent. The result
 * holds the names as bytes, indexed (sync's diff reuses the index).
 */
export async function collectNames(ctx: CommandContext, input: NameInput, validate: boolean): Promise<ByteNamesResult> {
  const result = await readNames(ctx, input, validate);
  acceptNames(ctx, validate, result);
  return result;
}
