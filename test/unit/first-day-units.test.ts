// Small pure pieces of the first-day fixes: --wait keeping its arguments, the slow-request label, and which
// failed mutations may still have been applied.
import { describe, expect, it } from 'vitest';
import { keepWaitArguments } from '../../src/main.js';
import { slowLabel } from '../../src/output/slow-spinner.js';
import { mayHaveBeenApplied } from '../../src/api/client.js';
import { NetworkError, PendingError, ResponseError, UsageError } from '../../src/errors.js';

describe('keepWaitArguments', () => {
  it.each([
    [['buckets', 'append', '--wait', 'finance', 'a'], ['buckets', 'append', 'finance', 'a', '--wait']],
    [['buckets', 'view', '--wait', 'finance'], ['buckets', 'view', 'finance', '--wait']],
    [['buckets', 'view', '--wait', 'finance', '--', '-odd'], ['buckets', 'view', 'finance', '--wait', '--', '-odd']],
  ])('moves a --wait followed by a word that is not a number: %j', (argv, expected) => {
    expect(keepWaitArguments(argv)).toEqual(expected);
  });

  it.each([
    [['buckets', 'view', 'finance', '--wait', '30']],
    [['buckets', 'view', '--wait', '2.5', 'finance']],
    [['buckets', 'view', 'finance', '--wait']],
    [['buckets', 'view', '--wait', '-q', 'finance']],
    [['buckets', 'view', '--wait=soon', 'finance']],
    [['buckets', 'view', 'finance', '--wait', '--', 'x']],
    [['buckets', 'view', 'x', '--', '--wait', 'finance']],
  ])('leaves everything else as it is: %j', (argv) => {
    expect(keepWaitArguments(argv)).toEqual(argv);
  });
});

describe('slowLabel', () => {
  it('names the operation and the seconds so far, to a tenth', () => {
    expect(slowLabel('viewBucketList finance', 2449)).toBe('viewBucketList finance (2.4 s)');
    expect(slowLabel('report', -5)).toBe('report (0.0 s)');
  });
});

describe('mayHaveBeenApplied', () => {
  it('yes when the request may have arrived: a timeout, a reset, 5xx after the retries, an unreadable answer', () => {
    expect(mayHaveBeenApplied(new NetworkError('no complete answer from h:1 within 0.5 s (timeout)'))).toBe(true);
    expect(mayHaveBeenApplied(new NetworkError('connection to h:1 was reset'))).toBe(true);
    expect(mayHaveBeenApplied(new NetworkError('appendToBucketList p: HTTP 503: busy (after 4 attempts)'))).toBe(true);
    expect(mayHaveBeenApplied(new ResponseError('an empty answer'))).toBe(true);
  });

  it('no when it never left this machine, or the service answered clearly', () => {
    expect(mayHaveBeenApplied(new NetworkError('connection to h:1 refused'))).toBe(false);
    expect(mayHaveBeenApplied(new NetworkError('cannot resolve host h (ENOTFOUND)'))).toBe(false);
    expect(mayHaveBeenApplied(new NetworkError('TLS certificate of h could not be verified (X)'))).toBe(false);
    expect(mayHaveBeenApplied(new PendingError('pending'))).toBe(false);
    expect(mayHaveBeenApplied(new UsageError('bad'))).toBe(false);
  });
});
