// How tokens are shown and masked.
import { describe, expect, it } from 'vitest';
import { MIN_MASKED_LENGTH, maskToken } from '../../src/output/mask.js';
import { maskEchoedToken } from '../../src/commands/buckets/common.js';

describe('maskToken', () => {
  it('shows the first 4 characters of a long token, nothing of a short one', () => {
    expect(maskToken('tok_S3cr3t+/=Zq9')).toBe('tok_***');
    expect(maskToken('short-token')).toBe('***');
  });
});

describe('maskEchoedToken', () => {
  it('masks the token wherever the answer echoes it', () => {
    const answer = { status: 'success', echo: ['token=secret-123 here', 7], nested: { url: '/x?token=secret-123' } };
    expect(maskEchoedToken(answer, 'secret-123')).toEqual({ status: 'success', echo: ['token=*** here', 7], nested: { url: '/x?token=***' } });
  });

  it('leaves the answer alone for a token shorter than 6 characters', () => {
    expect(MIN_MASKED_LENGTH).toBe(6);
    const answer = { status: 'success', data: ['alpha-bucket', 'beta-bucket'] };
    expect(maskEchoedToken(answer, 'a')).toEqual(answer);
    expect(maskEchoedToken(answer, 'bucke')).toEqual(answer);
    expect(maskEchoedToken(answer, 'bucket')).toEqual({ status: 'success', data: ['alpha-***', 'beta-***'] });
  });
});
