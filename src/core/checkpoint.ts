// Incremental export (`report --all --checkpoint FILE [--lag SECONDS]`, contract section 7). Pure: the
// command reads and writes the file; here are its shape and the window it gives.
//
// The API keeps events with starttime < timestamp <= endtime (the API page, report parameters), so a run
// over (S, E] followed by one over (E, E2] leaves no gap and no overlap. A run that fails writes nothing,
// and the next run repeats its window: records are delivered at least once, never lost.
import { UsageError } from '../errors.js';
import { isoSeconds } from './time.js';

export const DEFAULT_LAG_SECONDS = 300;
export const FIRST_RUN_SECONDS = 86_400;
const KIND = 'scpctl-report-checkpoint';

export interface Checkpoint {
  /** The end of the last complete run's window (Unix seconds): the next run starts here. */
  end: number;
  /** The start of that window. */
  start: number;
  records: number;
  completedAt: string;
  /** The report's parameters other than the window: a checkpoint belongs to one report. */
  filters: Array<[string, string]>;
}

/** The parameters that set the window; everything else identifies the report. */
const WINDOW_PARAMS = new Set(['timeperiod', 'starttime', 'endtime']);

export function reportIdentity(filters: ReadonlyArray<readonly [string, string]>): Array<[string, string]> {
  return filters.filter(([key]) => !WINDOW_PARAMS.has(key)).map(([key, value]) => [key, value]);
}

/** The checkpoint in FILE's text; `undefined` text (no file yet) or an empty file means a first run. */
export function parseCheckpoint(text: string | undefined, path: string): Checkpoint | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const fail = (why: string): never => {
    throw new UsageError(`--checkpoint ${path}: ${why}`, {
      hint: 'Give a checkpoint file written by scpctl, or a new path to start afresh (from --start, else 24 hours ago).',
    });
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail('the file is not JSON');
  }
  const object = value as Record<string, unknown>;
  if (typeof object !== 'object' || object === null || object.kind !== KIND) fail('the file is not a scpctl report checkpoint');
  const { end, start, records, completedAt, filters } = object;
  if (!isSeconds(end) || !isSeconds(start)) fail('"start" and "end" must be Unix seconds');
  const pairs = Array.isArray(filters) && filters.every((f) => Array.isArray(f) && f.length === 2 && f.every((s) => typeof s === 'string'));
  if (!pairs) fail('"filters" must be a list of [name, value] pairs');
  return {
    end: end as number,
    start: start as number,
    records: typeof records === 'number' ? records : 0,
    completedAt: typeof completedAt === 'string' ? completedAt : '',
    filters: filters as Array<[string, string]>,
  };
}

export function serializeCheckpoint(checkpoint: Checkpoint): string {
  return JSON.stringify({ kind: KIND, version: 1, ...checkpoint }, null, 2) + '\n';
}

export interface CheckpointWindow {
  start: number;
  end: number;
  /** Said on stderr: where the window came from. */
  note: string;
}

/**
 * The window of this run: from the last complete run's end (the first time: `start`, else 24 hours ago)
 * to now − lag. Refuses a checkpoint made for a different report: mixing them would lose records.
 */
export function checkpointWindow(args: {
  checkpoint: Checkpoint | undefined;
  path: string;
  identity: Array<[string, string]>;
  start: number | undefined;
  now: number;
  lag: number;
}): CheckpointWindow {
  const { checkpoint, path, identity, now, lag } = args;
  const end = now - lag;
  if (checkpoint) {
    if (JSON.stringify(checkpoint.filters) !== JSON.stringify(identity)) {
      throw new UsageError(
        `--checkpoint ${path} belongs to another report (${describe(checkpoint.filters)}), not this one (${describe(identity)})`,
        { hint: 'Use one checkpoint file per report (type, groupby and query).' },
      );
    }
    const ignored = args.start !== undefined ? '; --start is ignored once a checkpoint exists' : '';
    return { start: checkpoint.end, end, note: `continuing from ${path}: ${isoSeconds(checkpoint.end)} to ${isoSeconds(end)}${ignored}` };
  }
  const start = args.start ?? now - FIRST_RUN_SECONDS;
  const from = args.start !== undefined ? '--start' : 'no checkpoint yet: the last 24 hours';
  return { start, end, note: `first run for ${path} (${from}): ${isoSeconds(start)} to ${isoSeconds(end)}` };
}

function describe(filters: ReadonlyArray<readonly [string, string]>): string {
  return filters.length === 0 ? 'no filters' : filters.map(([key, value]) => `${key}=${value}`).join(' ');
}

function isSeconds(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
