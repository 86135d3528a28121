// Riding out a pending change (`--wait`): retry with the transport's retry policy (capped exponential
// back-off, equal jitter here) until the profile is free or the time is up.
import { PendingError } from '../errors.js';
import { PENDING_BACKOFF, backoffDelay, type Backoff } from './retry-policy.js';
import { systemClock, type Clock } from './clock.js';

export interface WaitOptions {
  /** How long to keep trying, in seconds; undefined means do not wait at all. */
  seconds?: number;
  signal?: AbortSignal;
  /** Called before each pause, so the caller can show progress. */
  onPending?: (info: { attempt: number; elapsedMs: number; delayMs: number; error: PendingError }) => void;
  /** The pauses between attempts: PENDING_BACKOFF unless a test shortens them. */
  backoff?: Backoff;
  clock?: Clock;
}

export const DEFAULT_WAIT_SECONDS = 120;

export async function retryWhilePending<T>(action: () => Promise<T>, options: WaitOptions): Promise<T> {
  if (options.seconds === undefined) return action();
  const clock = options.clock ?? systemClock;
  const policy = options.backoff ?? PENDING_BACKOFF;
  const started = clock.now();
  const deadline = started + options.seconds * 1000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await action();
    } catch (error) {
      if (!(error instanceof PendingError)) throw error;
      const remaining = deadline - clock.now();
      if (remaining <= 0) {
        const waited = Math.round((clock.now() - started) / 1000);
        const out = new PendingError(`${error.message} (still pending after waiting ${waited} s)`, {
          hint: 'Wait longer with --wait SECONDS, or look in the management console for a stuck change.',
        });
        out.mayBeOwnChange = error.mayBeOwnChange;
        throw out;
      }
      const delayMs = Math.min(remaining, backoffDelay(policy, attempt));
      options.onPending?.({ attempt, elapsedMs: clock.now() - started, delayMs, error });
      await clock.sleep(delayMs, options.signal);
    }
  }
}
