// The one retry policy of scpctl: exponential back-off with jitter, and `Retry-After`.
// The transport retries network failures, 429 and 5xx with it; `--wait` rides out pending changes with it.
export interface Backoff {
  /** The ceiling of the first pause; each later ceiling doubles, up to `capMs`. */
  baseMs: number;
  capMs: number;
  /**
   * `full`: anywhere from 0 to the ceiling (AWS's "full jitter"; retries of many clients spread out).
   * `equal`: from half the ceiling to the ceiling, so a busy resource is never hammered at once.
   */
  jitter: 'full' | 'equal';
}

export const TRANSPORT_BACKOFF: Backoff = { baseMs: 500, capMs: 8_000, jitter: 'full' };
export const PENDING_BACKOFF: Backoff = { baseMs: 500, capMs: 10_000, jitter: 'equal' };

const RETRY_AFTER_CAP_MS = 60_000;
const HTTP_DATE =
  /^(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]+day, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/** 429 and 5xx: answers another attempt may change, and that are never taken for the service's last word. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** The pause before attempt `attempt + 1` (attempt counts from 1). */
export function backoffDelay(policy: Backoff, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** (attempt - 1));
  return policy.jitter === 'full' ? Math.round(random() * ceiling) : Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** `Retry-After` as seconds or an HTTP date, capped; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  let ms: number;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) ms = Number(value) * 1000;
  else {
    // Only an HTTP date (IMF-fixdate, RFC 850, asctime) counts; V8's Date.parse would also read "-1" as a date.
    if (!HTTP_DATE.test(value.trim())) return undefined;
    const date = Date.parse(/GMT$/i.test(value.trim()) ? value : `${value.trim()} GMT`);
    if (Number.isNaN(date)) return undefined;
    ms = date - now;
  }
  return Math.min(RETRY_AFTER_CAP_MS, Math.max(0, Math.round(ms)));
}
