// Time as a run sees it: what time it is, and waiting. The binary uses the system's; tests of waiting,
// back-off and rate limits hand a run (and the emulator) a clock of their own, so that riding out a pending
// change or a minute of pacing takes no real time (test/e2e/harness.ts). Deadlines of sockets stay real.
import { Interrupted } from '../errors.js';

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Waits `ms`, or throws Interrupted as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The system's time, read monotonically: the epoch time at start-up plus the time elapsed since. A run lasts
 * minutes, so it stays within milliseconds of the wall clock, and an NTP step during a run can never stall
 * a rate limit's window or stretch a wait.
 */
export const systemClock: Clock = { now: monotonicNow, sleep: pause };

// process.hrtime rather than `performance`: the first touch of that global loads node:perf_hooks at start-up.
const startedNs = process.hrtime.bigint();
const startedMs = Date.now();

function monotonicNow(): number {
  return startedMs + Number(process.hrtime.bigint() - startedNs) / 1e6;
}

// Its only failure is the signal's abort (it refuses to start on an aborted signal too).
async function pause(ms: number, signal?: AbortSignal): Promise<void> {
  const { setTimeout: sleep } = await import('node:timers/promises');
  await sleep(Math.max(0, ms), undefined, { signal }).catch(() => Promise.reject(new Interrupted('interrupted')));
}
