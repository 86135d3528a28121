// Riding out a pending change (`--wait`): retry with capped exponential back-off and jitter until the
// profile is free or the time is up.
import { Interrupted, PendingError } from '../errors.js';

export interface WaitOptions {
  /** How long to keep trying, in seconds; undefined means do not wait at all. */
  seconds?: number;
  signal?: AbortSignal;
  /** Called before each pause, so the caller can show progress. */
  onPending?: (info: { attempt: number; elapsedMs: number; delayMs: number; error: PendingError }) => void;
  backoff?: { firstMs: number; capMs: number };
  now?: () => number;
}

export const DEFAULT_WAIT_SECONDS = 120;

export async function retryWhilePending<T>(action: () => Promise<T>, options: WaitOptions): Promise<T> {
  if (options.seconds === undefined) return action();
  const now = options.now ?? Date.now;
  const { firstMs, capMs } = options.backoff ?? { firstMs: 500, capMs: 10_000 };
  const started = now();
  const deadline = started + options.seconds * 1000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await action();
    } catch (error) {
      if (!(error instanceof PendingError)) throw error;
      const remaining = deadline - now();
      if (remaining <= 0) {
        const waited = Math.round((now() - started) / 1000);
        const out = new PendingError(`${error.message} (still pending after waiting ${waited} s)`, {
          hint: 'Wait longer with --wait SECONDS, or look in the management console for a stuck change.',
        });
        out.mayBeOwnChange = error.mayBeOwnChange;
        throw out;
      }
      const ceiling = Math.min(capMs, firstMs * 2 ** (attempt - 1));
      // Equal jitter: never shorter than half the ceiling, so a busy profile is not hammered.
      const delayMs = Math.min(remaining, Math.round(ceiling / 2 + (Math.random() * ceiling) / 2));
      options.onPending?.({ attempt, elapsedMs: now() - started, delayMs, error });
      await pause(delayMs, options.signal);
    }
  }
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Interrupted('interrupted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Interrupted('interrupted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
