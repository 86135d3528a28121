// Reading the times and periods of `report` (contract section 8). Pure: `now` is handed in, in Unix
// seconds, so that tests can pin it.
//
// A time is one of
//   - Unix seconds:            1714557600
//   - ISO 8601:                2024-05-01, 2024-05-01T10:00, 2024-05-01T10:00:00.5+02:00, 2024-05-01 10:00Z
//                              (without an offset the time is UTC, on every machine alike)
//   - a duration ago:          45s, 90m, 2h, 3d, 2w, "2h ago", "3 days ago"
//   - now
import { UsageError } from '../errors.js';

export const PERIODS: Readonly<Record<string, number>> = { '1h': 3600, '24h': 86_400, '7d': 604_800, '30d': 2_592_000 };

/** Each unit's spellings start with its letter. */
const DURATION = /^(\d+)\s*(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?)$/;
const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };
const UNIX_SECONDS = /^\d+$/;
// Above this a number is more likely milliseconds (the year 5138) than seconds; a checkpoint's times and
// --lag stay within it too, where every time is a date (isoSeconds).
export const MAX_UNIX_SECONDS = 99_999_999_999;
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

const FORMS = 'Unix seconds (1714557600), ISO 8601 (2024-05-01T10:00:00Z) or a time ago (90m, 2h, 3d, 2w)';

/** A duration such as `90m` or `3 days` in seconds, or undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim().toLowerCase());
  if (!match) return undefined;
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2]![0]!]!;
  return Number.isSafeInteger(seconds) ? seconds : undefined;
}

/**
 * A point in time as Unix seconds. `flag` names the option in messages (`--start`).
 * Throws UsageError for anything that is not one of the forms above.
 */
export function parseTime(text: string, now: number, flag = 'time'): number {
  const value = text.trim();
  const fail = (why = `is not a time; use ${FORMS}`): never => {
    throw new UsageError(`${flag}: "${text}" ${why}`);
  };
  if (value === '') fail();
  if (value.toLowerCase() === 'now') return now;
  if (UNIX_SECONDS.test(value)) {
    const seconds = Number(value);
    if (seconds > MAX_UNIX_SECONDS) fail('looks like milliseconds; give Unix seconds (divide by 1000)');
    return seconds;
  }
  const ago = parseDuration(value.replace(/\s+ago$/i, ''));
  if (ago !== undefined) return now - ago;
  const iso = parseIso8601(value);
  if (iso === undefined) fail();
  if (iso! < 0) fail('is before 1970');
  return iso!;
}

/** ISO 8601 date or date-time as whole Unix seconds (fractions dropped); undefined when malformed. */
export function parseIso8601(text: string): number | undefined {
  const m = ISO_8601.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((part) => (part === undefined ? undefined : Number(part)));
  if (month! < 1 || month! > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  // Not Date.UTC: it reads the years 0 to 99 as 1900 to 1999. setUTCFullYear takes the year as written.
  const date = new Date(0);
  date.setUTCFullYear(year!, month! - 1, day!);
  date.setUTCHours(hour, minute, second);
  // 2024-02-30 rolls over into March; a calendar date must come back unchanged.
  if (date.getUTCDate() !== day) return undefined;
  const ms = date.getTime();
  const offset = offsetSeconds(m[8]);
  if (offset === undefined) return undefined;
  return Math.floor(ms / 1000) - offset;
}

/** `Z`, `+02`, `+0200` or `-05:30` in seconds east of UTC; no offset at all is UTC. */
function offsetSeconds(text: string | undefined): number | undefined {
  if (text === undefined || text.toUpperCase() === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(text)!;
  const hours = Number(m[2]);
  const minutes = Number(m[3] ?? 0);
  if (hours > 23 || minutes > 59) return undefined;
  return (m[1] === '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
}

/** `--period`: 1h, 24h, 7d, 30d, the same in seconds, or an equal duration (`1d`, `1w`); in seconds. */
export function parsePeriod(text: string): number {
  const value = text.trim().toLowerCase();
  const seconds = UNIX_SECONDS.test(value) ? Number(value) : (PERIODS[value] ?? parseDuration(value));
  if (seconds === undefined || !Object.values(PERIODS).includes(seconds)) {
    const names = Object.entries(PERIODS).map(([name, s]) => `${name} (${s})`);
    throw new UsageError(`--period: "${text}" is not a report period; use ${names.join(', ')}`);
  }
  return seconds;
}

/** `86400` → `24h`. */
export function periodName(seconds: number): string {
  return Object.entries(PERIODS).find(([, s]) => s === seconds)?.[0] ?? `${seconds}s`;
}

export function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}
