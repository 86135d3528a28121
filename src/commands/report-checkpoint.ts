// `report --all --checkpoint FILE [--lag SECONDS]`: the file's I/O around core/checkpoint.ts. The file is
// read before anything is sent and replaced atomically (files/atomic-write.ts) only after a
// complete run whose records have all been handed to stdout, so a crash or a failure leaves the old one.
import { existsSync } from 'node:fs';
import { writeFileAtomically } from '../files/atomic-write.js';
import { ScpctlError, UsageError } from '../errors.js';
import {
  DEFAULT_LAG_SECONDS,
  checkpointWindow,
  parseCheckpoint,
  reportIdentity,
  serializeCheckpoint,
  type CheckpointWindow,
} from '../core/checkpoint.js';
import { buildReportQuery, optionalInteger, type ReportFlags } from '../core/report-query.js';
import { parseTime } from '../core/time.js';
import { readSmallTextFile } from '../settings/resolve.js';
import type { CommandContext } from './context.js';

const MAX_CHECKPOINT_BYTES = 64 * 1024;

/** The flags of `report` this module reads. */
export interface CheckpointFlags extends ReportFlags {
  all?: boolean;
  checkpoint?: string;
  lag?: string;
}

export interface CheckpointBegin extends CheckpointWindow {
  path: string;
  identity: Array<[string, string]>;
}

export interface CheckpointPlan {
  /** The report's flags with the checkpoint's window as --start/--end. */
  flags: ReportFlags;
  begin?: CheckpointBegin;
  /** Set when the window is empty (run again within the lag): said on stderr, nothing sent. */
  upToDate?: string;
}

/** 1: a local file could not be written. */
class CheckpointWriteError extends ScpctlError {
  readonly exitCode = 1;
}

export function planCheckpointRun(options: CheckpointFlags, now: number): CheckpointPlan {
  const path = options.checkpoint!;
  if (path.trim() === '') throw new UsageError('--checkpoint: the file name is empty');
  if (!options.all) throw new UsageError('--checkpoint needs --all', { hint: `For example: scpctl report --all --checkpoint ${path} -o ndjson >> events.ndjson` });
  for (const [flag, value] of [['--end', options.end], ['--period', options.period]] as const) {
    if (value !== undefined) throw new UsageError(`${flag} cannot go with --checkpoint: the window runs from the last complete run to now − lag`);
  }
  if (options.skip !== undefined) throw new UsageError('--skip cannot go with --checkpoint: every run reads its whole window');
  const lag = optionalInteger('--lag', options.lag, 0) ?? DEFAULT_LAG_SECONDS;
  const start = options.start === undefined ? undefined : parseTime(options.start, now, '--start');
  const identity = reportIdentity(buildReportQuery({ ...options, start: undefined, end: undefined, period: undefined }, now).filters);
  const window = checkpointWindow({ checkpoint: parseCheckpoint(readIfPresent(path), path), path, identity, start, now, lag });
  const flags: ReportFlags = { ...options, start: String(window.start), end: String(window.end), period: undefined };
  if (window.start >= window.end) {
    return { flags, upToDate: `nothing to fetch yet: ${path} already reaches now − ${lag} s; the checkpoint is unchanged` };
  }
  return { flags, begin: { ...window, path, identity } };
}

/** Records the run's end once stdout holds every record. */
export async function completeCheckpointRun(ctx: CommandContext, begin: CheckpointBegin, records: number): Promise<void> {
  await new Promise<void>((resolve, reject) => ctx.term.stdout.write('', (error) => (error ? reject(error) : resolve())));
  const text = serializeCheckpoint({
    end: begin.end,
    start: begin.start,
    records,
    completedAt: new Date().toISOString(),
    filters: begin.identity,
  });
  writeCheckpoint(begin.path, text);
  ctx.term.debug(`checkpoint ${begin.path}: next run starts at ${begin.end}`);
}

/** The file's text; undefined before the first complete run. */
function readIfPresent(path: string): string | undefined {
  return existsSync(path) ? readSmallTextFile(path, '--checkpoint', 'checkpoint file', MAX_CHECKPOINT_BYTES) : undefined;
}

function writeCheckpoint(path: string, text: string): void {
  try {
    writeFileAtomically(path, text, 0o644);
  } catch (error) {
    throw new CheckpointWriteError(`cannot write the checkpoint ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}); every record was written`, {
      hint: 'The next run repeats this window (records may come again): fix the path or its permissions.',
    });
  }
}
