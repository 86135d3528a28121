// A client-side rate limit: at most N requests in any window of S seconds (public v1 clients observe
// 24 in 5), so that `apply` over dozens of profiles never meets a 429 at all.
//
// A request holds its slot from the moment it is sent until its answer has arrived, and the window is
// counted from the answer. The service counts a request when it arrives, which is after we send it and
// before it answers; so N+1 requests can never fall into one of its windows, however the network delays
// them, with no guessed safety margin.
import { Interrupted, UsageError } from '../errors.js';
import { systemClock, type Clock } from '../core/clock.js';

export interface Rate {
  requests: number;
  windowMs: number;
}

export const DEFAULT_RATE: Rate = { requests: 24, windowMs: 5000 };

/** `24/5` (requests per seconds; `24/5s` and `24/0.5` too). `origin` names the setting in the message. */
export function parseRate(text: string, origin = 'SCPCTL_RATE'): Rate {
  const match = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*s?\s*$/.exec(text);
  const requests = match ? Number(match[1]) : NaN;
  const seconds = match ? Number(match[2]) : NaN;
  if (!match || !(requests >= 1) || requests > 100_000 || !(seconds > 0) || seconds > 3600) {
    throw new UsageError(`${origin}: "${text}" is not a rate; use REQUESTS/SECONDS, e.g. 24/5`);
  }
  return { requests, windowMs: Math.round(seconds * 1000) };
}

/** The rate in effect: `SCPCTL_RATE`, else 24 in 5 seconds. */
export function rateFromEnv(env: NodeJS.ProcessEnv): Rate {
  const text = env.SCPCTL_RATE;
  return text === undefined || text.trim() === '' ? DEFAULT_RATE : parseRate(text);
}

export class RateLimiter {
  private inFlight = 0;
  /** When each finished request's answer arrived, oldest first. */
  private finished: number[] = [];
  private readonly wakers: Array<() => void> = [];

  constructor(
    readonly rate: Rate,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Waits for a slot; the function returned gives it back (call it when the answer has arrived or failed). */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    for (;;) {
      if (signal?.aborted) throw new Interrupted('interrupted');
      const now = this.clock.now();
      while (this.finished.length > 0 && this.finished[0]! <= now - this.rate.windowMs) this.finished.shift();
      if (this.inFlight + this.finished.length < this.rate.requests) {
        this.inFlight++;
        let released = false;
        return () => {
          if (released) return;
          released = true;
          this.inFlight--;
          this.finished.push(this.clock.now());
          for (const wake of this.wakers.splice(0)) wake();
        };
      }
      const untilExpiry = this.finished.length > 0 ? this.finished[0]! + this.rate.windowMs - now : undefined;
      await this.pause(untilExpiry, signal);
    }
  }

  /** Until the oldest slot leaves the window, a slot is given back, or the signal aborts. */
  private async pause(ms: number | undefined, signal?: AbortSignal): Promise<void> {
    const woken = new AbortController();
    const done = (): void => woken.abort();
    this.wakers.push(done);
    signal?.addEventListener('abort', done, { once: true });
    try {
      // A sleep ends early when woken: it then rejects, which is no failure here.
      if (ms === undefined) await new Promise<void>((resolve) => woken.signal.addEventListener('abort', () => resolve(), { once: true }));
      else await this.clock.sleep(Math.max(1, Math.ceil(ms)), woken.signal).catch(() => undefined);
    } finally {
      woken.abort();
      signal?.removeEventListener('abort', done);
    }
  }
}
