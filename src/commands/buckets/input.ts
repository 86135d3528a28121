// Gathers bucket names from arguments, files and standard input, in the contract's order (section 3),
// and turns invalid names into one usage error that lists them.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../errors.js';
import { describeInvalidNames, readBucketNames, type NameSource, type ReadNamesResult } from '../../core/names.js';
import type { CommandContext } from '../context.js';

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

export async function readStdin(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
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
    sources.push({ origin: { kind: 'file', path: file }, text: await readNamesFile(file) });
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

async function readNamesFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : code;
    throw new UsageError(`cannot read ${path}: ${why}`);
  }
}

/** Reads, validates and de-duplicates; invalid names stop the command before anything is sent. */
export async function collectNames(ctx: CommandContext, input: NameInput, validate: boolean): Promise<string[]> {
  return (await collectIndexedNames(ctx, input, validate)).names;
}

/** As collectNames, with the index of the names (for sync's diff). */
export async function collectIndexedNames(ctx: CommandContext, input: NameInput, validate: boolean): Promise<ReadNamesResult> {
  const result = readBucketNames(await gatherSources(ctx, input), { validate });
  if (result.invalidCount > 0) {
    const error = new UsageError(
      `${result.invalidCount} invalid bucket name${result.invalidCount === 1 ? '' : 's'}; nothing was sent`,
      { hint: validate ? 'S3 bucket names: 3-63 characters of a-z, 0-9, "." and "-". --no-validate lifts the rules.' : undefined },
    );
    error.details = describeInvalidNames(result);
    throw error;
  }
  if (result.duplicates > 0) {
    ctx.term.info(`dropped ${result.duplicates} duplicate name${result.duplicates === 1 ? '' : 's'}`);
  }
  return result;
}
