// How tokens are shown and masked: the one module (src/core/secrets.ts) every output path masks through.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MIN_SECRET_LENGTH, mayHoldSecret, maskInValue, maskSecret, maskToken, maskTokenParam, maskUrlCredentials, secretForms } from '../../src/core/secrets.js';

describe('maskToken', () => {
  it('shows the first 4 characters of a long token, nothing of a short one', () => {
    expect(maskToken('tok_S3cr3t+/=Zq9')).toBe('tok_***');
    expect(maskToken('short-token')).toBe('***');
  });
});

describe('mayHoldSecret (what is searched before anything is masked)', () => {
  const token = 'tok_S3cr3t+/=Zq9XyW7vU5tR';

  it('finds every form of a token, in text and in bytes', () => {
    for (const form of secretForms(token)) {
      // Percent-encoding's hex digits are either case.
      for (const text of [`a ${form} b`, form.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())]) {
        expect(maskSecret(text, [token])).not.toBe(text);
        expect(mayHoldSecret(text, [token]), text).toBe(true);
        expect(mayHoldSecret(Buffer.from(`x\n${text}\n`).subarray(2), [token]), text).toBe(true);
      }
    }
  });

  it('clears text that holds no form, and never searches for a token too short to mask', () => {
    expect(mayHoldSecret('plain-name\nother-name\n', [token])).toBe(false);
    expect(mayHoldSecret(Buffer.from('tok_S3cr3t alone'), [token])).toBe(false);
    expect(mayHoldSecret('abcde', ['abcde'.slice(0, MIN_SECRET_LENGTH - 1)])).toBe(false);
  });

  it('a token with no run that every form keeps is searched the long way', () => {
    expect(mayHoldSecret('nothing here', ['+/=+/=+/='])).toBe(true);
  });
});

describe('maskInValue', () => {
  it('masks the token wherever the answer echoes it, in any form, for every token given', () => {
    const answer = { status: 'success', echo: ['token=secret-123 here', 7], nested: { url: '/x?token=secret%2B1', other: 'ctx-b-token-9' } };
    expect(maskInValue(answer, ['secret-123', 'secret+1', 'ctx-b-token-9'])).toEqual({ status: 'success', echo: ['token=*** here', 7], nested: { url: '/x?token=***', other: '***' } });
  });

  it('leaves the answer alone for a token shorter than 6 characters', () => {
    expect(MIN_SECRET_LENGTH).toBe(6);
    const answer = { status: 'success', data: ['alpha-bucket', 'beta-bucket'] };
    expect(maskInValue(answer, 'a')).toEqual(answer);
    expect(maskInValue(answer, 'bucke')).toEqual(answer);
    expect(maskInValue(answer, 'bucket')).toEqual({ status: 'success', data: ['alpha-***', 'beta-***'] });
  });
});

describe('one rule for every form', () => {
  it('raw, JSON-escaped, percent-encoded in either case, form-encoded and HTML-escaped', () => {
    const token = 'tok_"S3+/=<&>';
    const forms = [token, JSON.stringify(token).slice(1, -1), encodeURIComponent(token), encodeURIComponent(token).toLowerCase(), new URLSearchParams({ t: token }).toString().slice(2), 'tok_&quot;S3+/=&lt;&amp;&gt;'];
    expect(maskSecret(forms.join(' | '), [token])).toBe(forms.map(() => '***').join(' | '));
  });

  it('a request URL keeps everything but the token; a proxy URL loses its credentials', () => {
    expect(maskTokenParam(new URL('https://h/api/v1/x?token=abc%2Bdef&name=p&op=v'))).toBe('https://h/api/v1/x?token=***&name=p&op=v');
    expect(maskUrlCredentials('http://user:secret@proxy.corp:3128')).toBe('http://user:***@proxy.corp:3128');
    expect(maskUrlCredentials('http://tok3n@proxy.corp:3128/')).toBe('http://***@proxy.corp:3128');
  });

  it('no other module spells out how a token is masked', () => {
    const root = resolve(import.meta.dirname, '../../src');
    const files = readdirSync(root, { recursive: true }).map(String).filter((f) => f.endsWith('.ts') && f !== join('core', 'secrets.ts'));
    const offenders = files.filter((f) => /encodeURIComponent\(secret|secret\.length <|token\.length < \d|slice\(0, 4\)\}\*\*\*/.test(readFileSync(join(root, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
