// Riding out a pending change (`--wait`, contract section 6).
import { describe, it, expect, vi } from 'vitest';
import { retryWhilePending, DEFAULT_WAIT_SECONDS } from '../../src/core/wait.js';
import { PENDING_BACKOFF } from '../../src/core/retry-policy.js';
import { AuthError, Interrupted, NetworkError, PendingError, ScpctlError } from '../../src/errors.js';

/** A clock that only moves when told to; its pauses take no time (they are kept, to be looked at). */
function fakeClock(start = 1_000_000) {
  let t = start;
  const sleeps: number[] = [];
  return { now: () => t, sleep: async (ms: number) => void sleeps.push(ms), advance: (ms: number) => void (t += ms), sleeps };
}

const FAST = { ...PENDING_BACKOFF, baseMs: 1, capMs: 4 };

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('retryWhilePending', () => {
  it('waits 120 s by default (the constant the CLI uses)', () => {
    expect(DEFAULT_WAIT_SECONDS).toBe(120);
  });

  it('returns at once when the action succeeds', async () => {
    const action = vi.fn(async () => 'done');
    await expect(retryWhilePending(action, { seconds: 10, backoff: FAST })).resolves.toBe('done');
    expect(action).toHaveBeenCalledTimes(1);
  });

  it('retries until the pending change clears', async () => {
    const clock = fakeClock();
    let calls = 0;
    const action = async (): Promise<string> => {
      calls++;
      clock.advance(1_000);
      if (calls <= 4) throw new PendingError('a change is pending on finance');
      return 'applied';
    };
    const seen: number[] = [];
    const result = await retryWhilePending(action, {
      seconds: 60,
      backoff: FAST,
      clock,
      onPending: (info) => {
        seen.push(info.attempt);
        expect(info.error).toBeInstanceOf(PendingError);
        expect(info.delayMs).toBeGreaterThanOrEqual(0);
        expect(info.delayMs).toBeLessThanOrEqual(FAST.capMs);
      },
    });
    expect(result).toBe('applied');
    expect(calls).toBe(5);
    expect(seen).toEqual([1, 2, 3, 4]);
  });

  it('reports elapsed time from the injected clock', async () => {
    const clock = fakeClock();
    let calls = 0;
    const elapsed: number[] = [];
    await retryWhilePending(
      async () => {
        clock.advance(2_500);
        if (++calls < 3) throw new PendingError('pending');
        return 1;
      },
      { seconds: 60, backoff: FAST, clock, onPending: (info) => elapsed.push(info.elapsedMs) },
    );
    expect(elapsed).toEqual([2_500, 5_000]);
  });

  it('backs off exponentially, capped, with at least half of each ceiling', async () => {
    const clock = fakeClock();
    let calls = 0;
    const delays: number[] = [];
    await retryWhilePending(
      async () => {
        if (++calls <= 6) throw new PendingError('pending');
        return 'ok';
      },
      { seconds: 600, backoff: { ...PENDING_BACKOFF, baseMs: 2, capMs: 16 }, clock, onPending: (i) => delays.push(i.delayMs) },
    );
    const ceilings = [2, 4, 8, 16, 16, 16];
    expect(delays).toHaveLength(ceilings.length);
    expect(clock.sleeps).toEqual(delays); // what it said it would wait is what it waited
    delays.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual(ceilings[i]! / 2);
      expect(d).toBeLessThanOrEqual(ceilings[i]!);
    });
  });

  it('never pauses past the deadline', async () => {
    const clock = fakeClock();
    let calls = 0;
    const delays: number[] = [];
    await retryWhilePending(
      async () => {
        if (++calls === 1) {
          clock.advance(9_997); // 3 ms left of 10 s
          throw new PendingError('pending');
        }
        return 'ok';
      },
      { seconds: 10, backoff: { ...PENDING_BACKOFF, baseMs: 5_000, capMs: 5_000 }, clock, onPending: (i) => delays.push(i.delayMs) },
    );
    expect(delays).toEqual([3]);
    expect(clock.sleeps).toEqual([3]);
  });

  it('gives up with a PendingError (exit 5) that says how long it waited', async () => {
    const clock = fakeClock();
    let calls = 0;
    const error = await caught(
      retryWhilePending(
        async () => {
          calls++;
          clock.advance(4_000);
          throw new PendingError('appendToBucketList finance: change pending');
        },
        { seconds: 10, backoff: FAST, clock },
      ),
    );
    expect(error).toBeInstanceOf(PendingError);
    expect((error as PendingError).exitCode).toBe(5);
    expect(calls).toBe(3); // at 4 s, 8 s, then 12 s is past the 10 s deadline
    expect((error as Error).message).toContain('appendToBucketList finance: change pending');
    expect((error as Error).message).toMatch(/\b12 ?s\b/);
    expect((error as PendingError).hint).toMatch(/--wait/);
  });

  it('carries mayBeOwnChange over to the final error', async () => {
    const clock = fakeClock();
    const error = await caught(
      retryWhilePending(
        async () => {
          clock.advance(5_000);
          const e = new PendingError('pending');
          e.mayBeOwnChange = true;
          throw e;
        },
        { seconds: 1, backoff: FAST, clock },
      ),
    );
    expect(error).toBeInstanceOf(PendingError);
    expect((error as PendingError).mayBeOwnChange).toBe(true);
  });

  it.each([
    ['AuthError', () => new AuthError('Invalid token')],
    ['NetworkError', () => new NetworkError('connection refused')],
    ['TypeError', () => new TypeError('boom')],
  ])('lets a %s through at once, untouched', async (_, make) => {
    const thrown = make();
    const action = vi.fn(async () => {
      throw thrown;
    });
    const error = await caught(retryWhilePending(action, { seconds: 60, backoff: FAST }));
    expect(error).toBe(thrown);
    expect(action).toHaveBeenCalledTimes(1);
  });

  it('passes a non-pending error through after some pending ones', async () => {
    let calls = 0;
    const auth = new AuthError('token revoked');
    const error = await caught(
      retryWhilePending(
        async () => {
          if (++calls < 3) throw new PendingError('pending');
          throw auth;
        },
        { seconds: 60, backoff: FAST },
      ),
    );
    expect(error).toBe(auth);
    expect(calls).toBe(3);
  });

  it('does not retry at all when seconds is undefined (no --wait)', async () => {
    const pending = new PendingError('a change is pending');
    const action = vi.fn(async () => {
      throw pending;
    });
    const onPending = vi.fn();
    const error = await caught(retryWhilePending(action, { backoff: FAST, onPending }));
    expect(error).toBe(pending);
    expect(action).toHaveBeenCalledTimes(1);
    expect(onPending).not.toHaveBeenCalled();
  });

  it('returns the value without --wait', async () => {
    await expect(retryWhilePending(async () => 42, {})).resolves.toBe(42);
  });

  it('stops with Interrupted when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const action = vi.fn(async () => {
      throw new PendingError('pending');
    });
    const error = await caught(retryWhilePending(action, { seconds: 60, backoff: FAST, signal: controller.signal }));
    expect(error).toBeInstanceOf(Interrupted);
    expect(error).toBeInstanceOf(ScpctlError);
    expect(action).toHaveBeenCalledTimes(1);
  });

  it('stops a long pause with Interrupted as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const promise = retryWhilePending(
      async () => {
        throw new PendingError('pending');
      },
      { seconds: 600, backoff: { baseMs: 60_000, capMs: 60_000, jitter: 'equal' }, signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 20);
    const error = await caught(promise);
    expect(error).toBeInstanceOf(Interrupted);
    expect((error as Interrupted).exitCode).toBe(130);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
