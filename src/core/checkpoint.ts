// Incremental export (`report --all --checkpoint FILE [--lag SECONDS]`, contract section 7). Pure: the
// command reads and writes the file; here are its shape and the window it gives.
//
// The API keeps events with starttime < timestamp <= endtime, so a run over (S, E] followed by one over
// (E, E2] leaves no gap and no overlap. A run that fails leaves `end` where it was, and the next run repeats
// its window: records are delivered at least once, never lost. A first run writes its start as `end` before
// its first request, so a retry after a failure or `kill -9` starts where the failed run did.
//
// A checkpoint is bound to its tenant (tenant.ts) and its report; an `end` in the future would make every
// run an empty one, silently, so it is refused too.
import { UsageError } from '../errors.js';
import { isoSeconds } from './time.js';
import { isTenant, type Tenant } from './tenant.js';

export const DEFAULT_LAG_SECONDS = 300;
export const FIRST_RUN_SECONDS = 86_400;
/** How far a checkpoint's end may lie ahead of this machine's clock (two clocks disagree a little). */
export const MAX_CLOCK_SKEW_SECONDS = 300;
const KIND = 'scpctl-report-checkpoint';
const VERSION = 3;
/** What an older checkpoint lacks: the first named no tenant, the second bound it with a fast hash (tenant.ts). */
const OLD_VERSIONS: Record<number, string> = {
  2: 'its tenant key is a fast hash of the token, which this scpctl no longer trusts',
};

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
  /** The seal of everything above, made with the token (tenant.ts): an edited window is refused. */
  seal?: string;
}

/** What a checkpoint's seal covers: every field but the seal itself. */
export function* checkpointSealParts(checkpoint: Checkpoint): Generator<string> {
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

export interface CheckpointWindow {
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

function isSeconds(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
