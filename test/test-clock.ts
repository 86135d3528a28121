// A clock for tests of waiting, back-off and rate limits: a pause takes no real time. Sleepers wake in the
// order of their wake-up times, and the clock jumps to each in turn once the event loop has run what was
// ready, so several waiters (a rate limit's queue, parallel --wait runs) see one consistent timeline.
//
// `following: 'real time'` also lets it run with the wall clock between pauses: the e2e harness hands one to
// the emulator and to every run in the test's process, and a built binary (which knows only the real clock)
// still sees the emulator's pending changes clear. `'nothing'` moves only when somebody sleeps (unit tests).
import type { Clock } from '../src/core/clock.js';
import { Interrupted } from '../src/errors.js';

interface Sleeper {
  at: number;
  wake: () => void;
}

export class TestClock implements Clock {
  private skipped = 0;
  private sleepers: Sleeper[] = [];
  private scheduled = false;

  constructor(
    private readonly following: 'real time' | 'nothing',
    private readonly start = 1_700_000_000_000,
  ) {}

  now(): number {
    return (this.following === 'real time' ? Date.now() : this.start) + this.skipped;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new Interrupted('interrupted'));
      const sleeper: Sleeper = {
        at: this.now() + Math.max(0, ms),
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        reject(new Interrupted('interrupted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.sleepers.push(sleeper);
      this.schedule();
    });
  }

  /** After what is ready has run: jump to the earliest wake-up time and wake everyone due by then. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.sleepers.length === 0) return;
      const earliest = Math.min(...this.sleepers.map((s) => s.at));
      if (earliest > this.now()) this.skipped += earliest - this.now();
      const now = this.now();
      const due = this.sleepers.filter((s) => s.at <= now);
      this.sleepers = this.sleepers.filter((s) => s.at > now);
      for (const sleeper of due) sleeper.wake();
      if (this.sleepers.length > 0) this.schedule();
    });
  }
}
