// `report --all --checkpoint FILE [--lag SECONDS]` (contract section 7): the file, its checks and the window
// it gives. The API keeps events with starttime < timestamp <= endtime, so a run over (S, E] followed by one
// over (E, E2] leaves no gap and no overlap. A first run writes its window before its first request, and the
// new end is written atomically (files/atomic-write.ts) only after a complete run whose records have all been
// handed to stdout: a run that fails, or a `kill -9`, leaves the window to be repeated (records are
// delivered at least once, never lost), from where the failed run started.
//
// A checkpoint is bound to its tenant (core/tenant.ts) and its report; an `end` in the future would make
// every run an empty one, silently, so it is refused too. The file may sit in a folder others share: a
// symlink in its place (which the atomic rename would replace, or a write would follow), a FIFO (which would
// hold the run and its signals), a device, or a file this user cannot write is refused before any request,
// as is a folder that is missing or not writable.
import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomically } from '../../files/atomic-write.js';
import { NotPlainFile, readPlainFile } from '../../files/plain-file.js';
import { ScpctlError, UsageError } from '../../errors.js';
import { buildReportQuery, type ReportFlags } from '../../core/report-query.js';
import { optionalInteger } from '../../core/whole-number.js';
import { MAX_UNIX_SECONDS, isoSeconds, parseTime } from '../../core/time.js';
import { isTenant, type Sealer, type Tenant, type TenantIdentity } from '../../core/tenant.js';
import type { CommandContext } from '../context.js';

const DEFAULT_LAG_SECONDS = 300;
const FIRST_RUN_SECONDS = 86_400;
/** How far a checkpoint's end may lie ahead of this machine's clock (two clocks disagree a little). */
const MAX_CLOCK_SKEW_SECONDS = 300;
const KIND = 'scpctl-report-checkpoint';
const VERSION = 3;
/** What an older checkpoint lacks: the first named no tenant, the second bound it with a fast hash (core/tenant.ts). */
const OLD_VERSIONS: Record<number, string> = {
  2: 'its tenant key is a fast hash of the token, which this scpctl no longer trusts',
};
const MAX_CHECKPOINT_BYTES = 64 * 1024;

export interface Checkpoint {
  /** The end of the last complete run's window (Unix seconds): the next run starts here. */
  end: number;
  start: number;
  records: number;
  completedAt: string;
  /** The report's parameters other than the window: a checkpoint belongs to one report. */
  filters: Array<[string, string]>;
  /** The service and token it was made with: another tenant's checkpoint is refused. */
  tenant: Tenant;
  /** The window a run has begun and not completed (a first run writes it before its first request). */
  running?: { start: number; end: number };
  /** The seal of everything above, made with the token (core/tenant.ts): an edited window is refused. */
  seal?: string;
}

export interface CheckpointFlags extends ReportFlags {
  all?: boolean;
  checkpoint?: string;
  lag?: string;
}

export interface CheckpointBegin extends CheckpointWindow {
  path: string;
  identity: Array<[string, string]>;
  tenant: Tenant;
  /** Seals what is written: the key came with the tenant's scrypt (core/tenant.ts). */
  sealer: Sealer;
}

/** 1: a local file could not be written. */
class CheckpointWriteError extends ScpctlError {
  readonly exitCode = 1;
}

/** The run's window and what writes it; when the window is empty (run again within the lag), what to say. */
export async function planCheckpointRun(options: CheckpointFlags, now: number, who: TenantIdentity): Promise<CheckpointBegin | string> {
  const path = options.checkpoint!;
  if (path.trim() === '') throw new UsageError('--checkpoint: the file name is empty');
  if (!options.all) throw new UsageError('--checkpoint needs --all', { hint: `For example: scpctl report --all --checkpoint ${path} -o ndjson >> events.ndjson` });
  for (const [flag, value] of [['--end', options.end], ['--period', options.period]] as const) {
    if (value !== undefined) throw new UsageError(`${flag} cannot go with --checkpoint: the window runs from the last complete run to now − lag`);
  }
  if (options.skip !== undefined) throw new UsageError('--skip cannot go with --checkpoint: every run reads its whole window');
  // Bounded: a window ending before any date could be named would fail in isoSeconds, not as a usage error.
  const lag = optionalInteger('--lag', options.lag, 0, MAX_UNIX_SECONDS) ?? DEFAULT_LAG_SECONDS;
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
  if (window.start >= window.end) return `nothing to fetch yet: ${path} already reaches now − ${lag} s; the checkpoint is unchanged`;
  const tenant: Tenant = checkpoint ? checkpoint.tenant : await who.make();
  return { ...window, path, identity, tenant, sealer: sealer ?? (await who.sealer(tenant))! };
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

/** What a checkpoint's seal covers: every field but the seal itself. */
function* checkpointSealParts(checkpoint: Checkpoint): Generator<string> {
  const { end, start, records, completedAt, filters, tenant, running } = checkpoint;
  yield* [KIND, String(VERSION), String(end), String(start), String(records), completedAt, tenant.baseUrl, tenant.key];
  yield* [`filters ${filters.length}`, ...filters.flat()];
  yield* running ? ['running', String(running.start), String(running.end)] : ['complete'];
}

/** Everything but the window identifies the report. */
const WINDOW_PARAMS = new Set(['timeperiod', 'starttime', 'endtime']);

export function reportIdentity(filters: ReadonlyArray<readonly [string, string]>): Array<[string, string]> {
  return filters.filter(([key]) => !WINDOW_PARAMS.has(key)).map(([key, value]) => [key, value]);
}

/**
 * The checkpoint in FILE's text; `undefined` text (no file yet) means a first run. Anything else that is not
 * a checkpoint of this version, an empty file included, is refused: taking it for a first run would skip
 * or repeat a window without a word.
 */
export function parseCheckpoint(text: string | undefined, path: string): Checkpoint | undefined {
  if (text === undefined) return undefined;
  const fail = (why: string): never => {
    throw new UsageError(`--checkpoint ${path}: ${why}`, {
      hint: 'Give a checkpoint file written by scpctl, or a new path to start afresh (from --start, else 24 hours ago).',
    });
  };
  if (text.trim() === '') fail('the file is empty, not a checkpoint');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail('the file is not JSON');
  }
  const object = value as Record<string, unknown>;
  if (typeof object !== 'object' || object === null || object.kind !== KIND) fail('the file is not a scpctl report checkpoint');
  const { end, start, records, completedAt, filters, tenant, running } = object;
  if (object.version !== VERSION) {
    // Refused, never taken for a first run: the hint gives the end to continue from, so no window is lost.
    const resume = isSeconds(end) ? `, or continue with a new file: --start ${end as number}` : '';
    const why = OLD_VERSIONS[object.version as number] ?? 'it names no tenant';
    throw new UsageError(`--checkpoint ${path}: written by an older scpctl, ${why}`, {
      hint: `Move it aside and start afresh${resume}`,
    });
  }
  if (!isSeconds(end) || !isSeconds(start)) fail('"start" and "end" must be Unix seconds');
  const pairs = Array.isArray(filters) && filters.every((f) => Array.isArray(f) && f.length === 2 && f.every((s) => typeof s === 'string'));
  if (!pairs) fail('"filters" must be a list of [name, value] pairs');
  if (!isTenant(tenant)) fail('"tenant" is missing or malformed');
  const window = running as { start?: unknown; end?: unknown } | undefined;
  if (window !== undefined && (typeof window !== 'object' || window === null || !isSeconds(window.start) || !isSeconds(window.end))) {
    fail('"running" must hold the Unix seconds "start" and "end"');
  }
  return {
    end: end as number,
    start: start as number,
    records: typeof records === 'number' ? records : 0,
    completedAt: typeof completedAt === 'string' ? completedAt : '',
    filters: filters as Array<[string, string]>,
    tenant: tenant as Tenant,
    ...(window ? { running: { start: window.start as number, end: window.end as number } } : {}),
    ...(typeof object.seal === 'string' ? { seal: object.seal } : {}),
  };
}

export function serializeCheckpoint(checkpoint: Checkpoint): string {
  return JSON.stringify({ kind: KIND, version: VERSION, ...checkpoint }, null, 2) + '\n';
}

interface CheckpointWindow {
  start: number;
  end: number;
  /** Said on stderr: where the window came from. */
  note: string;
  /** No checkpoint yet: the window is written to FILE before the first request. */
  first: boolean;
}

/**
 * The window of this run: from the last complete run's end (the first time: `start`, else 24 hours ago)
 * to now − lag. Refuses a checkpoint made for a different report: mixing them would lose records.
 */
export function checkpointWindow(args: {
  checkpoint: Checkpoint | undefined;
  path: string;
  identity: Array<[string, string]>;
  baseUrl: string;
  /** Whether the checkpoint was made with this run's base URL and token (tenant.ts checks both: one scrypt). */
  ownTenant: boolean;
  start: number | undefined;
  now: number;
  lag: number;
}): CheckpointWindow {
  const { checkpoint, path, identity, now, lag } = args;
  const end = now - lag;
  if (checkpoint) {
    if (!args.ownTenant) {
      const where = checkpoint.tenant.baseUrl === args.baseUrl ? `${args.baseUrl} with another token` : checkpoint.tenant.baseUrl;
      throw new UsageError(`--checkpoint ${path} belongs to another tenant (${where}), not this one (${args.baseUrl}); nothing was sent`, {
        hint: 'Use one checkpoint file per tenant and report. After a token rotation, start a new file with --start at the old end.',
      });
    }
    if (checkpoint.end > now + MAX_CLOCK_SKEW_SECONDS) {
      throw new UsageError(`--checkpoint ${path}: its end (${isoSeconds(checkpoint.end)}) lies in the future; every run would fetch nothing`, {
        hint: "Check this machine's clock, or move the file aside and start afresh with --start.",
      });
    }
    if (JSON.stringify(checkpoint.filters) !== JSON.stringify(identity)) {
      throw new UsageError(
        `--checkpoint ${path} belongs to another report (${describe(checkpoint.filters)}), not this one (${describe(identity)})`,
        { hint: 'Use one checkpoint file per report (type, groupby and query).' },
      );
    }
    const ignored = args.start !== undefined ? '; --start is ignored once a checkpoint exists' : '';
    const repeat = checkpoint.running ? ' (repeating a run that did not complete)' : '';
    return { start: checkpoint.end, end, first: false, note: `continuing from ${path}${repeat}: ${isoSeconds(checkpoint.end)} to ${isoSeconds(end)}${ignored}` };
  }
  const start = args.start ?? now - FIRST_RUN_SECONDS;
  const from = args.start !== undefined ? '--start' : 'no checkpoint yet: the last 24 hours';
  return { start, end, first: true, note: `first run for ${path} (${from}): ${isoSeconds(start)} to ${isoSeconds(end)}` };
}

function describe(filters: ReadonlyArray<readonly [string, string]>): string {
  return filters.length === 0 ? 'no filters' : filters.map(([key, value]) => `${key}=${value}`).join(' ');
}

/** Whole Unix seconds that are a date: a forged end past that must be refused, not thrown on in isoSeconds. */
function isSeconds(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_UNIX_SECONDS;
}
