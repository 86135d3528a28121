// How tokens are shown and masked: the one module (src/core/secrets.ts) every output path masks through.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MIN_SECRET_LENGTH, mayHoldSecret, maskInValue, maskSecret, maskToken, maskTokenParam, maskUrlCredentials, secretForms, secretMask } from '../../src/core/secrets.js';

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

  it('masks a token the answer uses as a key (red-team review: the library returned it to its caller)', () => {
    const answer = { status: 'success', data: { 'tok_S3cr3tValue123abc': 'added', [`x-${encodeURIComponent('tok_S3cr3t+Value')}`]: 1 } };
    expect(JSON.stringify(maskInValue(answer, ['tok_S3cr3tValue123abc', 'tok_S3cr3t+Value']))).toBe('{"status":"success","data":{"***":"added","x-***":1}}');
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

describe('every form a token travels in (contract 13: the mask knows them all)', () => {
  const token = 'tok_S3cr3t+/=Zq9XyW7vU5tR';
  const base64 = (text: string): string => Buffer.from(text).toString('base64');
  const url = (text: string): string => text.replace(/\+/g, '-').replace(/\//g, '_');
  const percentAll = (text: string, hex: (h: string) => string): string => [...Buffer.from(text)].map((b) => `%${hex(b.toString(16).padStart(2, '0'))}`).join('');
  /** No 6 characters of the token's start, in the form `form` gave it. */
  const starts = (form: (text: string) => string): string[] => [form(token.slice(0, 6))];

  // Each form is put in a longer text, as a URL, a JSON answer or a log line holds it.
  const cases: Array<[string, string, string[]]> = [
    ['upper-cased', token.toUpperCase(), starts((t) => t.toUpperCase())],
    ['lower-cased', token.toLowerCase(), starts((t) => t.toLowerCase())],
    ['percent-encoded fully, upper-case hex', percentAll(token, (h) => h.toUpperCase()), starts((t) => percentAll(t, (h) => h.toUpperCase()))],
    ['percent-encoded fully, lower-case hex', percentAll(token, (h) => h), starts((t) => percentAll(t, (h) => h))],
    ['percent-encoded in part (every other character)', [...token].map((c, i) => (i % 2 ? percentAll(c, (h) => h) : c)).join(''), ['tok_%53', '%74o%6b']],
    ['percent-encoded and upper-cased', percentAll(token.toUpperCase(), (h) => h.toUpperCase()), starts((t) => percentAll(t.toUpperCase(), (h) => h.toUpperCase()))],
    ['JSON \\u escapes', [...token].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''), ['\\u0074\\u006f\\u006b\\u005f\\u0053\\u0033']],
    ['JSON-escaped with \\/', token.replace(/\//g, '\\/'), [token.slice(0, 6)]],
    ['base64 alone', base64(token), [base64(token.slice(0, 6))]],
    ['base64url alone', url(base64(token).replace(/=+$/, '')), [url(base64(token.slice(0, 6)))]],
  ];
  // Inside a longer base64 text the token's encoding depends on where it starts: all three alignments.
  for (const before of ['', 'a', 'ab']) {
    const encoded = base64(`${'x'.repeat(30)}${before}${token}${'y'.repeat(7)}`);
    cases.push([`base64 inside a longer text (${before.length} bytes off)`, encoded, [base64(token.slice(0, 6)).slice(0, 6)]]);
    cases.push([`base64url inside a longer text (${before.length} bytes off)`, url(encoded), []]);
  }

  for (const [label, form, leaks] of cases) {
    it(`${label}: masked, and found by the cheap look in text and bytes`, () => {
      const text = `GET /dl?x=1&token=${form}&y=2 done`;
      expect(mayHoldSecret(text, [token]), label).toBe(true);
      expect(mayHoldSecret(Buffer.from(text), [token]), label).toBe(true);
      const masked = maskSecret(text, [token]);
      expect(masked).toContain('***');
      expect(masked.startsWith('GET /dl?x=1&token=')).toBe(true);
      expect(masked.endsWith('&y=2 done')).toBe(true);
      for (const leak of leaks) expect(masked.toLowerCase()).not.toContain(leak.toLowerCase());
      // What is left of a base64 text around the token is at most the two groups it shares with its neighbours.
      expect(masked.length).toBeLessThan(text.length - Math.floor(token.length / 2));
    });
  }

  it('text with none of them is left alone, and the cheap look says so (escapes of other characters included)', () => {
    const text = 'https://files.example/a%20b%2Fc?q=%3D1 \\u00e9 bWFueSBidWNrZXRz alpha-data';
    expect(mayHoldSecret(text, [token])).toBe(false);
    expect(mayHoldSecret(Buffer.from(text), [token])).toBe(false);
    expect(maskSecret(text, [token])).toBe(text);
  });

  it('a mask of a run: masks each cell whole, and leaves clean rows as they are (one look for all)', () => {
    const mask = secretMask([token]);
    const rows = [['a', 'b'], ['c', 'd']];
    expect(mask.maskRows(rows)).toBe(rows);
    expect(mask.maskRows([['a', `x${token}y`], [token.toUpperCase(), 'd']])).toEqual([['a', 'x***y'], ['***', 'd']]);
    expect(mask.maskEach(['one', `two ${base64(token)}`])).toEqual(['one', 'two ***']);
  });
});
