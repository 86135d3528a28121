// The one retry policy shared by the transport and --wait.
import { describe, expect, it } from 'vitest';
import { Interrupted } from '../../src/errors.js';
import { PENDING_BACKOFF, TRANSPORT_BACKOFF, backoffDelay } from '../../src/core/retry-policy.js';
import { systemClock } from '../../src/core/clock.js';

describe('backoffDelay', () => {
  it('doubles the ceiling each attempt up to the cap', () => {
    const top = (attempt: number) => backoffDelay(TRANSPORT_BACKOFF, attempt, () => 1);
    expect([1, 2, 3, 4, 5, 6].map(top)).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });

  it('full jitter goes down to 0; equal jitter never below half the ceiling', () => {
    expect(backoffDelay(TRANSPORT_BACKOFF, 3, () => 0)).toBe(0);
    expect(backoffDelay(PENDING_BACKOFF, 3, () => 0)).toBe(1000);
    expect(backoffDelay(PENDING_BACKOFF, 3, () => 1)).toBe(2000);
    expect(backoffDelay(PENDING_BACKOFF, 10, () => 1)).toBe(10_000);
  });
});

describe('the system clock', () => {
  it('reads epoch time, and it moves as the wall clock does', async () => {
    // Read monotonically from the wall clock at load: in a test worker that has run for a minute the two may
    // part by the wall clock's own corrections (140 ms seen on a VM), so the offset is bounded loosely and the
    // rate closely.
    expect(Math.abs(systemClock.now() - Date.now())).toBeLessThan(60_000);
    const [clock, wall] = [systemClock.now(), Date.now()];
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(Math.abs(systemClock.now() - clock - (Date.now() - wall))).toBeLessThan(25);
  });

  it('its sleep ends at once with Interrupted when the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = systemClock.sleep(60_000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(Interrupted);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('its sleep refuses to start on an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(systemClock.sleep(0, controller.signal)).rejects.toBeInstanceOf(Interrupted);
  });
});
