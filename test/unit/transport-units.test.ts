// The pure parts of the transport: reading Retry-After and describing network failures.
import { describe, it, expect } from 'vitest';
import { AttemptError, describeNetworkFailure, trustedTls } from '../../src/api/attempt.js';
import { retryAfterMs } from '../../src/core/retry-policy.js';

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0); // a whole second, so HTTP dates (second precision) are exact

describe('retryAfterMs', () => {
  it.each([
    ['0', 0],
    ['1', 1_000],
    ['5', 5_000],
    ['59', 59_000],
    ['60', 60_000],
    [' 7 ', 7_000],
  ])('reads %j seconds as %i ms', (header, ms) => {
    expect(retryAfterMs(header, NOW)).toBe(ms);
  });

  it.each([
    ['1.5', 1_500],
    ['0.25', 250],
    ['2.0', 2_000],
  ])('reads decimal seconds %j as %i ms', (header, ms) => {
    expect(retryAfterMs(header, NOW)).toBe(ms);
  });

  it.each(['61', '120', '3600', '99999999999'])('caps %j seconds at 60 s', (header) => {
    expect(retryAfterMs(header, NOW)).toBe(60_000);
  });

  it('reads an HTTP date in the future as the time until then', () => {
    expect(retryAfterMs(new Date(NOW + 10_000).toUTCString(), NOW)).toBe(10_000);
    expect(retryAfterMs('Wed, 15 Jan 2025 12:00:30 GMT', NOW)).toBe(30_000);
  });

  it('caps an HTTP date far in the future at 60 s', () => {
    expect(retryAfterMs(new Date(NOW + 3_600_000).toUTCString(), NOW)).toBe(60_000);
  });

  it('reads an HTTP date in the past as no wait', () => {
    expect(retryAfterMs(new Date(NOW - 10_000).toUTCString(), NOW)).toBe(0);
    expect(retryAfterMs('Sun, 06 Nov 1994 08:49:37 GMT', NOW)).toBe(0);
  });

  it('reads the obsolete RFC 850 date form', () => {
    const now = Date.UTC(1994, 10, 6, 8, 49, 30);
    expect(retryAfterMs('Sunday, 06-Nov-94 08:49:37 GMT', now)).toBe(7_000);
  });

  it('takes the first of repeated headers', () => {
    expect(retryAfterMs(['3', '9'], NOW)).toBe(3_000);
  });

  it.each([undefined, '', '   '])('is undefined for a missing header (%j)', (header) => {
    expect(retryAfterMs(header, NOW)).toBeUndefined();
  });

  it.each(['soon', 'later', '5s', '5 seconds', '1e3', '0x10', 'Infinity', 'NaN', 'tomorrow'])(
    'is undefined for garbage %j',
    (header) => {
      expect(retryAfterMs(header, NOW)).toBeUndefined();
    },
  );

  // V8's Date.parse reads these as dates in 2001; they are neither delay-seconds (1*DIGIT) nor an HTTP date.
  it.each(['-1', '+5', 'in 5'])('is undefined for the malformed value %j, not an immediate retry', (header) => {
    expect(retryAfterMs(header, NOW)).toBeUndefined();
  });
});

describe('describeNetworkFailure', () => {
  const url = new URL('https://tenant.example.com:8443/api/v1/report');
  const withCode = (code: string, message = `${code} happened`): NodeJS.ErrnoException =>
    Object.assign(new Error(message), { code });

  it('returns an AttemptError', () => {
    expect(describeNetworkFailure(withCode('ECONNREFUSED'), url)).toBeInstanceOf(AttemptError);
  });

  it('says a refused connection with the host, and retries it', () => {
    const failure = describeNetworkFailure(withCode('ECONNREFUSED'), url);
    expect(failure.message).toMatch(/refused/);
    expect(failure.message).toContain('tenant.example.com:8443');
    expect(failure.retryable).toBe(true);
    expect(failure.hint).toMatch(/base URL/i);
  });

  it('says an unknown host, names it, and does not retry', () => {
    const failure = describeNetworkFailure(withCode('ENOTFOUND'), url);
    expect(failure.message).toMatch(/resolve/);
    expect(failure.message).toContain('tenant.example.com');
    expect(failure.message).toContain('ENOTFOUND');
    expect(failure.retryable).toBe(false);
    expect(failure.hint).toMatch(/DNS|proxy|base URL/i);
  });

  it('a timed-out connect never sent the request; a timed-out read or write may have', () => {
    const connect = describeNetworkFailure(Object.assign(withCode('ETIMEDOUT'), { syscall: 'connect' }), url);
    expect(connect.sent).toBe('never sent');
    expect(connect.message).toBe('cannot reach tenant.example.com:8443 (ETIMEDOUT)');
    const read = describeNetworkFailure(Object.assign(withCode('ETIMEDOUT'), { syscall: 'read' }), url);
    expect(read.sent).toBe('may have arrived');
    expect(read.message).toBe('connection to tenant.example.com:8443 timed out (ETIMEDOUT)');
    expect(read.retryable).toBe(true);
  });

  it('retries a temporary DNS failure (EAI_AGAIN)', () => {
    const failure = describeNetworkFailure(withCode('EAI_AGAIN'), url);
    expect(failure.retryable).toBe(true);
    expect(failure.message).toContain('EAI_AGAIN');
  });

  it.each(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ETIMEDOUT', 'ENETUNREACH', 'EHOSTUNREACH'])('retries %s', (code) => {
    const failure = describeNetworkFailure(withCode(code), url);
    expect(failure.retryable).toBe(true);
    expect(failure.message).toContain('tenant.example.com');
  });

  it.each([
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'UNABLE_TO_GET_ISSUER_CERT',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'CERT_HAS_EXPIRED',
    'CERT_NOT_YET_VALID',
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'CERT_UNTRUSTED',
    'CERT_SIGNATURE_FAILURE',
  ])('says %s is about the certificate, hints --ca-cert, and does not retry', (code) => {
    const failure = describeNetworkFailure(withCode(code), url);
    expect(failure.message).toMatch(/certificate/i);
    expect(failure.message).toContain(code);
    expect(failure.message).toContain('tenant.example.com');
    expect(failure.hint).toContain('--ca-cert');
    expect(failure.retryable).toBe(false);
  });

  it('recognises a certificate failure by its words when there is no code', () => {
    const failure = describeNetworkFailure(new Error('self signed certificate in certificate chain'), url);
    expect(failure.message).toMatch(/certificate/i);
    expect(failure.hint).toContain('--ca-cert');
    expect(failure.retryable).toBe(false);
  });

  it('describes anything else by its first line, with the host, as retryable', () => {
    const failure = describeNetworkFailure(withCode('EWHATEVER', 'socket went away\nstack line'), url);
    expect(failure.message).toContain('socket went away');
    expect(failure.message).not.toContain('stack line');
    expect(failure.message).toContain('EWHATEVER');
    expect(failure.message).toContain('tenant.example.com');
    expect(failure.retryable).toBe(true);
  });

  it('copes with something that is not an Error', () => {
    expect(() => describeNetworkFailure('a string', url)).not.toThrow();
    expect(() => describeNetworkFailure(undefined, url)).not.toThrow();
    expect(() => describeNetworkFailure(null, url)).not.toThrow();
    expect(describeNetworkFailure('a string', url).message).toContain('a string');
  });
});

describe('trustedTls', () => {
  it('parses a set of certificates once and hands every connection the same context', async () => {
    const { rootCertificates } = await import('node:tls');
    const [first, second] = [rootCertificates[0]!, rootCertificates[1]!];
    const one = await trustedTls([first], {});
    expect(await trustedTls([first], {})).toBe(one);
    expect(one.ca.slice(0, rootCertificates.length)).toEqual([...rootCertificates]);
    expect(one.ca.at(-1)).toBe(first);
    // Another set is another trust store: a connection that trusts `second` must not trust through `first`'s.
    const other = await trustedTls([second], {});
    expect(other.secureContext).not.toBe(one.secureContext);
    expect(other.ca.at(-1)).toBe(second);
  });
});
