// `report --all --checkpoint FILE [--lag SECONDS]`: the file's I/O around core/checkpoint.ts. The file and
// its folder are checked before anything is sent; a first run writes its window before its first request;
// the new end is written atomically (files/atomic-write.ts) only after a complete run whose records have
// all been handed to stdout, so a crash or a failure leaves the window to be repeated.
//
// The file may sit in a folder others share: a symlink in its place (which the atomic rename would replace,
// or a write would follow), a FIFO (which would hold the run and its signals), a device, or a file this
// user cannot write is refused before any request, as is a folder that is missing or not writable.
import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomically } from '../../files/atomic-write.js';
import { NotPlainFile, readPlainFile } from '../../files/plain-file.js';
import { ScpctlError, UsageError } from '../../errors.js';
import {
  DEFAULT_LAG_SECONDS,
  checkpointSealParts,
  checkpointWindow,
  parseCheckpoint,
  reportIdentity,
  serializeCheckpoint,
  type Checkpoint,
  type CheckpointWindow,
} from '../../core/checkpoint.js';
import { buildReportQuery, optionalInteger, type ReportFlags } from '../../core/report-query.js';
import { parseTime } from '../../core/time.js';
import type { Sealer, Tenant, TenantIdentity } from '../../core/tenant.js';
import type { CommandContext } from '../context.js';

const MAX_CHECKPOINT_BYTES = 64 * 1024;

export interface CheckpointFlags extends ReportFlags {
  all?: boolean;
  checkpoint?: string;
  lag?: string;
}

export interface CheckpointBegin extends CheckpointWindow {
  path: string;
  identity: Array<[string, string]>;
  tenant: Tenant;
  /** Seals what is written: the key came with the tenant's scrypt (tenant.ts). */
  sealer: Sealer;
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

export async function planCheckpointRun(options: CheckpointFlags, now: number, who: TenantIdentity): Promise<CheckpointPlan> {
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
  const checkpoint = parseCheckpoint(readCheckedFile(path), path);
  // One scrypt a run: the stored key checked here is the key written back; only a first run makes one.
  const sealer = checkpoint && (await who.sealer(checkpoint.tenant));
  const window = checkpointWindow({ checkpoint, path, identity, baseUrl: who.baseUrl, ownTenant: sealer !== undefined, start, now, lag });
  // The tenant key can be copied from any checkpoint of this tenant; the seal only made with the token.
  if (checkpoint && !sealer!.verify(checkpointSealParts(checkpoint), checkpoint.seal)) {
    throw new UsageError(`--checkpoint ${path}: the checkpoint was changed after it was written (its seal, made with the token, does not match its content); nothing was sent`, {
      hint: `Move it aside and start afresh with --start at the end you trust (it says ${checkpoint.end}).`,
    });
  }
  const flags: ReportFlags = { ...options, start: String(window.start), end: String(window.end), period: undefined };
  if (window.start >= window.end) {
    return { flags, upToDate: `nothing to fetch yet: ${path} already reaches now − ${lag} s; the checkpoint is unchanged` };
  }
  const tenant: Tenant = checkpoint ? checkpoint.tenant : await who.make();
  return { flags, begin: { ...window, path, identity, tenant, sealer: sealer ?? (await who.sealer(tenant))! } };
}

/**
 * Before the first request of a first run: the window's start is written as the checkpoint's end, so a run
 * that fails (or is killed) is repeated from there, never from a new "24 hours ago".
 */
export function beginCheckpointRun(begin: CheckpointBegin): void {
  const { start, end } = begin;
  if (begin.first) writeCheckpoint(begin, { end: start, start, records: 0, completedAt: '', running: { start, end } }, true);
}

/** Records the run's end once stdout holds every record. */
export async function completeCheckpointRun(ctx: CommandContext, begin: CheckpointBegin, records: number): Promise<void> {
  await new Promise<void>((resolve, reject) => ctx.term.stdout.write('', (error) => (error ? reject(error) : resolve())));
  writeCheckpoint(begin, { end: begin.end, start: begin.start, records, completedAt: new Date(ctx.clock.now()).toISOString() });
  ctx.term.debug(`checkpoint ${begin.path}: next run starts at ${begin.end}`);
}

/** The file's text, undefined when there is none yet; every check on the file and its folder first. */
function readCheckedFile(path: string): string | undefined {
  const refuse = (why: string): never => {
    throw new UsageError(`--checkpoint ${path}: ${why}; nothing was sent`);
  };
  const folder = dirname(path);
  try {
    // statSync: the folder may be a symlink to a folder (a mounted volume), the user's own choice.
    if (!statSync(folder).isDirectory()) refuse(`its folder ${folder} is not a folder`);
    accessSync(folder, constants.W_OK | constants.X_OK);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    refuse(code === 'ENOENT' ? `its folder ${folder} does not exist` : `its folder ${folder} is not writable (${code ?? 'error'})`);
  }
  try {
    // O_NOFOLLOW: a symlink is refused, not followed.
    const bytes = readPlainFile(path, (stats) => {
      if (!stats.isFile()) refuse('not a regular file');
      if (stats.size > MAX_CHECKPOINT_BYTES) refuse(`${stats.size.toLocaleString('en-US')} bytes, more than a checkpoint holds`);
      try {
        accessSync(path, constants.W_OK);
      } catch {
        refuse('the file is not writable, so the run could not record its end');
      }
    }, constants.O_NOFOLLOW);
    return bytes?.toString('utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (error instanceof NotPlainFile) return refuse(`not a regular file (it is ${error.kind})`);
    const code = (error as NodeJS.ErrnoException).code;
    return refuse(code === 'ELOOP' ? 'it is a symlink (a checkpoint must be a file of its own)' : `cannot read it (${code ?? 'error'})`);
  }
}

/** The checkpoint of `begin`'s report and tenant, sealed; `before`: before the run's first request. */
function writeCheckpoint(begin: CheckpointBegin, run: Omit<Checkpoint, 'filters' | 'tenant' | 'seal'>, before = false): void {
  const { path } = begin;
  const checkpoint: Checkpoint = { ...run, filters: begin.identity, tenant: begin.tenant };
  try {
    writeFileAtomically(path, serializeCheckpoint({ ...checkpoint, seal: begin.sealer.seal(checkpointSealParts(checkpoint)) }), 0o644);
  } catch (error) {
    if (error instanceof NotPlainFile) throw new UsageError(`--checkpoint ${path}: it is ${error.kind}, not a regular file`);
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    if (before) throw new CheckpointWriteError(`cannot write the checkpoint ${path} (${code}); nothing was sent`);
    throw new CheckpointWriteError(`cannot write the checkpoint ${path} (${code}); every record was written`, {
      hint: 'The next run repeats this window (records may come again): fix the path or its permissions.',
    });
  }
}
