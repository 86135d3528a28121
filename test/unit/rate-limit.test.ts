// The client-side rate limiter: never more than N requests in any window, counted from each answer.
import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE, RateLimiter, parseRate, rateFromEnv } from '../../src/api/rate-limit.js';
import { TestClock } from '../test-clock.js';
import { Interrupted, UsageError } from '../../src/errors.js';
import { caught } from './caught.js';

describe('parseRate', () => {
  it.each([
    ['24/5', { requests: 24, windowMs: 5000 }],
    [' 10 / 0.5s ', { requests: 10, windowMs: 500 }],
    ['1/1', { requests: 1, windowMs: 1000 }],
  ])('reads %j', (text, rate) => {
    expect(parseRate(text)).toEqual(rate);
  });

  it.each(['', 'fast', '0/5', '24/0', '24', '-1/5', '24/5/1', '1e3/5'])('refuses %j (exit 2), naming the variable', (text) => {
    const error = caught(() => parseRate(text));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain('SCPCTL_RATE');
  });

  it('defaults to the 24 in 5 s public v1 clients observe', () => {
    expect(rateFromEnv({})).toEqual(DEFAULT_RATE);
    expect(DEFAULT_RATE).toEqual({ requests: 24, windowMs: 5000 });
    expect(rateFromEnv({ SCPCTL_RATE: '5/2' })).toEqual({ requests: 5, windowMs: 2000 });
  });
});

describe('RateLimiter', () => {
  it('starts at most N requests in any window, counting each from its answer', async () => {
    const clock = new TestClock('nothing');
    const limiter = new RateLimiter({ requests: 3, windowMs: 150 }, clock);
    const starts: number[] = [];
    const ends: number[] = [];
    const started = clock.now();
    await Promise.all(
      Array.from({ length: 9 }, async () => {
        const release = await limiter.acquire();
        starts.push(clock.now());
        await clock.sleep(10); // the request's own time
        ends.push(clock.now());
        release();
      }),
    );
    starts.sort((a, b) => a - b);
    ends.sort((a, b) => a - b);
    // The (i+3)-th start comes a whole window after the i-th answer.
    for (let i = 3; i < starts.length; i++) expect(starts[i]! - ends[i - 3]!).toBeGreaterThanOrEqual(150);
    // And it does not dawdle: the third batch starts two windows (and two requests' time) after the first.
    expect(starts.at(-1)! - started).toBe(2 * (150 + 10));
  });

  it('lets requests through at once while under the rate', async () => {
    const limiter = new RateLimiter({ requests: 24, windowMs: 5000 });
    const started = performance.now();
    const releases = await Promise.all(Array.from({ length: 24 }, () => limiter.acquire()));
    // At once: far within the 5 s window it would otherwise wait (room for a busy machine's event loop).
    expect(performance.now() - started).toBeLessThan(1000);
    for (const release of releases) release();
  });

  it('a release given twice counts once', async () => {
    const limiter = new RateLimiter({ requests: 2, windowMs: 1000 }, new TestClock('nothing'));
    const release = await limiter.acquire();
    release();
    release();
    await limiter.acquire(); // held
    await limiter.acquire(); // held, once the first release has left the window
    // Two requests are in flight: a third must wait. Counted twice, the release would have freed a slot.
    const third = limiter.acquire().then(() => 'granted');
    const waited = new Promise((resolve) => setTimeout(() => resolve('waiting'), 20));
    expect(await Promise.race([third, waited])).toBe('waiting');
  });

  it('an abort while waiting stops with Interrupted', async () => {
    const limiter = new RateLimiter({ requests: 1, windowMs: 60_000 });
    (await limiter.acquire())();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    setTimeout(() => controller.abort(), 20);
    await expect(waiting).rejects.toBeInstanceOf(Interrupted);
  });
});
