// Which settings are in effect (contract section 2): flag, then environment, then the selected context, then default.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it, expect, vi } from 'vitest';
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_SECONDS, parseRetries, parseTimeout, resolveSettings, type SettingFlags } from '../../src/settings/resolve.js';
import { normalizeBaseUrl } from '../../src/settings/base-url.js';
import { checkedToken } from '../../src/library/policy.js';
import { endpointUrl, hasScheme, isLoopbackHost } from '../../src/core/urls.js';
import type { ConfigData } from '../../src/settings/config-file.js';
import { AuthError, UsageError } from '../../src/errors.js';
import { caught } from './caught.js';

const CONFIG: ConfigData = {
  contexts: {
    default: { baseUrl: 'https://config.example.com', token: 'config-token', timeout: '45', retries: '5', caCert: '/config/ca.pem' },
    prod: { baseUrl: 'https://prod.example.com', token: 'prod-token', timeout: '12', retries: '1', caCert: '/prod/ca.pem' },
    empty: {},
  },
};
const EMPTY: ConfigData = { contexts: {} };
const noReader = (): string => {
  throw new Error('the token file reader should not be called');
};
const resolve = (flags: SettingFlags = {}, env: NodeJS.ProcessEnv = {}, config: ConfigData = CONFIG, reader = noReader) =>
  resolveSettings(flags, env, config, reader);


describe('resolveSettings: base URL', () => {
  it('takes the flag over the environment and the config', () => {
    const s = resolve({ baseUrl: 'https://flag.example.com' }, { SCPCTL_BASE_URL: 'https://env.example.com' });
    expect(s.baseUrl).toMatchObject({ value: 'https://flag.example.com', kind: 'flag', source: '--base-url' });
  });

  it('takes the environment over the config', () => {
    const s = resolve({}, { SCPCTL_BASE_URL: 'https://env.example.com' });
    expect(s.baseUrl).toMatchObject({ value: 'https://env.example.com', kind: 'env', source: 'SCPCTL_BASE_URL' });
  });

  it('takes the config of the selected context', () => {
    expect(resolve().baseUrl).toMatchObject({ value: 'https://config.example.com', kind: 'config' });
    expect(resolve({ context: 'prod' }).baseUrl).toMatchObject({ value: 'https://prod.example.com', kind: 'config' });
    expect(resolve({ context: 'prod' }).baseUrl!.source).toContain('prod');
  });

  it('has no default', () => {
    expect(resolve({}, {}, EMPTY).baseUrl).toBeUndefined();
  });

  it('treats a blank environment variable as unset', () => {
    const s = resolve({}, { SCPCTL_BASE_URL: '  ' });
    expect(s.baseUrl).toMatchObject({ value: 'https://config.example.com', kind: 'config' });
  });

  it('refuses an empty flag instead of falling back to another source (exit 2)', () => {
    expect(() => resolve({ baseUrl: '' }, { SCPCTL_BASE_URL: 'https://env.example.com' })).toThrow(/--base-url: the value is empty/);
    expect(() => resolve({ context: ' ' }, {})).toThrow(UsageError);
  });
});

describe('resolveSettings: CA certificate', () => {
  it('takes flag, then environment, then config', () => {
    expect(resolve({ caCert: '/flag.pem' }, { SCPCTL_CA_CERT: '/env.pem' }).caCert).toMatchObject({ value: '/flag.pem', kind: 'flag' });
    expect(resolve({}, { SCPCTL_CA_CERT: '/env.pem' }).caCert).toMatchObject({ value: '/env.pem', kind: 'env' });
    expect(resolve({}, {}).caCert).toMatchObject({ value: '/config/ca.pem', kind: 'config' });
    expect(resolve({}, {}, EMPTY).caCert).toBeUndefined();
  });
});

describe('resolveSettings: timeout', () => {
  it('takes flag, then environment, then config, then 30', () => {
    expect(resolve({ timeout: '7' }, { SCPCTL_TIMEOUT: '8' }).timeout).toMatchObject({ value: 7, kind: 'flag' });
    expect(resolve({}, { SCPCTL_TIMEOUT: '8' }).timeout).toMatchObject({ value: 8, kind: 'env', source: 'SCPCTL_TIMEOUT' });
    expect(resolve({}, {}).timeout).toMatchObject({ value: 45, kind: 'config' });
    expect(resolve({}, {}, EMPTY).timeout).toMatchObject({ value: 30, kind: 'default' });
    expect(DEFAULT_TIMEOUT_SECONDS).toBe(30);
  });

  it('refuses a bad timeout naming where it came from', () => {
    const error = caught(() => resolve({}, { SCPCTL_TIMEOUT: 'soon' }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain('SCPCTL_TIMEOUT');
    expect(caught(() => resolve({ timeout: '0' })).message).toContain('--timeout');
  });

  it('refuses a bad timeout from the config too', () => {
    const config: ConfigData = { contexts: { default: { timeout: 'abc' } } };
    expect(caught(() => resolve({}, {}, config)).exitCode).toBe(2);
  });
});

describe('resolveSettings: retries', () => {
  it('takes flag, then config, then 3', () => {
    expect(resolve({ retries: '0' }).retries).toMatchObject({ value: 0, kind: 'flag' });
    expect(resolve({}).retries).toMatchObject({ value: 5, kind: 'config' });
    expect(resolve({ context: 'prod' }).retries).toMatchObject({ value: 1, kind: 'config' });
    expect(resolve({}, {}, EMPTY).retries).toMatchObject({ value: 3, kind: 'default' });
    expect(DEFAULT_RETRIES).toBe(3);
  });

  it('refuses a bad number of retries', () => {
    expect(caught(() => resolve({ retries: 'many' })).exitCode).toBe(2);
  });
});

describe('resolveSettings: context', () => {
  const withCurrent: ConfigData = { ...CONFIG, currentContext: 'prod' };

  it('is "default" when nothing chooses one', () => {
    expect(resolve({}, {}, EMPTY).context).toMatchObject({ value: 'default', kind: 'default' });
  });

  it('follows currentContext of the config', () => {
    const s = resolve({}, {}, withCurrent);
    expect(s.context).toMatchObject({ value: 'prod', kind: 'config' });
    expect(s.baseUrl!.value).toBe('https://prod.example.com');
    expect(s.token!.value).toBe('prod-token');
  });

  it('takes SCPCTL_CONTEXT over currentContext', () => {
    const s = resolve({}, { SCPCTL_CONTEXT: 'default' }, withCurrent);
    expect(s.context).toMatchObject({ value: 'default', kind: 'env', source: 'SCPCTL_CONTEXT' });
    expect(s.baseUrl!.value).toBe('https://config.example.com');
  });

  it('takes --context over SCPCTL_CONTEXT', () => {
    const s = resolve({ context: 'prod' }, { SCPCTL_CONTEXT: 'default' }, CONFIG);
    expect(s.context).toMatchObject({ value: 'prod', kind: 'flag', source: '--context' });
    expect(s.timeout.value).toBe(12);
    expect(s.caCert!.value).toBe('/prod/ca.pem');
  });

  it('uses nothing from other contexts', () => {
    const s = resolve({ context: 'empty' });
    expect(s.baseUrl).toBeUndefined();
    expect(s.token).toBeUndefined();
    expect(s.caCert).toBeUndefined();
    expect(s.timeout).toMatchObject({ value: 30, kind: 'default' });
    expect(s.retries).toMatchObject({ value: 3, kind: 'default' });
  });

  it('treats an unknown context as empty', () => {
    const s = resolve({ context: 'staging' });
    expect(s.context.value).toBe('staging');
    expect(s.baseUrl).toBeUndefined();
    expect(s.token).toBeUndefined();
  });

  it('still lets flags and environment fill in a context', () => {
    const s = resolve({ context: 'empty', baseUrl: 'https://flag.example.com' }, { SCPCTL_TOKEN: 'env-token' });
    expect(s.baseUrl!.value).toBe('https://flag.example.com');
    expect(s.token!.value).toBe('env-token');
  });
});

describe('resolveSettings: token', () => {
  it('reads --token-file through the injected reader, over everything else', () => {
    const reader = vi.fn(() => 'file-token');
    const s = resolve(
      { tokenFile: '/run/secrets/token' },
      { SCPCTL_TOKEN: 'env-token', SCPCTL_TOKEN_FILE: '/other' },
      CONFIG,
      reader,
    );
    expect(s.token).toMatchObject({ value: 'file-token', kind: 'flag', source: '--token-file' });
    expect(reader).toHaveBeenCalledTimes(1);
    expect(reader).toHaveBeenCalledWith('/run/secrets/token', '--token-file');
  });

  it('takes SCPCTL_TOKEN over the config, trimmed', () => {
    const s = resolve({}, { SCPCTL_TOKEN: '  env-token\n' });
    expect(s.token).toMatchObject({ value: 'env-token', kind: 'env', source: 'SCPCTL_TOKEN' });
  });

  it('reads SCPCTL_TOKEN_FILE through the reader, over the config', () => {
    const reader = vi.fn(() => 'file-token');
    const s = resolve({}, { SCPCTL_TOKEN_FILE: '/run/secrets/t' }, CONFIG, reader);
    expect(s.token).toMatchObject({ value: 'file-token', kind: 'env', source: 'SCPCTL_TOKEN_FILE' });
    expect(reader).toHaveBeenCalledWith('/run/secrets/t', 'SCPCTL_TOKEN_FILE');
  });

  it('falls back to the token stored for the context', () => {
    expect(resolve().token).toMatchObject({ value: 'config-token', kind: 'config' });
    expect(resolve({ context: 'prod' }).token).toMatchObject({ value: 'prod-token', kind: 'config' });
  });

  it('has no token when none is configured', () => {
    expect(resolve({}, {}, EMPTY).token).toBeUndefined();
  });

  it('names an empty SCPCTL_TOKEN instead of falling back to another source', () => {
    const settings = resolve({}, { SCPCTL_TOKEN: '   ', SCPCTL_TOKEN_FILE: '/nonexistent' });
    expect(settings.token).toBeUndefined();
    expect(settings.tokenError?.message).toBe('SCPCTL_TOKEN is set but empty');
  });

  describe('with the real file reader', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scpctl-settings-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('trims surrounding whitespace from the token file', () => {
      const path = join(dir, 'token');
      writeFileSync(path, '\n  secret-token-123 \r\n');
      expect(resolveSettings({ tokenFile: path }, {}, EMPTY).token!.value).toBe('secret-token-123');
      expect(resolveSettings({}, { SCPCTL_TOKEN_FILE: path }, EMPTY).token!.value).toBe('secret-token-123');
    });

    it('refuses an unreadable token file as a usage error (2) naming it, when the token is needed', () => {
      const missing = join(dir, 'missing');
      const settings = resolveSettings({ tokenFile: missing }, {}, EMPTY);
      expect(settings.unreadTokenFile).toMatchObject({ value: missing, source: '--token-file' });
      const error = caught(() => checkedToken(settings));
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toContain(missing);
    });

    it('refuses an empty token file as an authentication error (3)', () => {
      const path = join(dir, 'empty');
      writeFileSync(path, ' \n');
      const error = caught(() => checkedToken(resolveSettings({ tokenFile: path }, {}, EMPTY)));
      expect(error).toBeInstanceOf(AuthError);
      expect(error.exitCode).toBe(3);
    });
  });
});

describe('normalizeBaseUrl and endpointUrl', () => {
  const endpoint = (input: string, path = 'report'): string => endpointUrl(normalizeBaseUrl(input), path).href;

  it('reads a bare host name as https', () => {
    expect(normalizeBaseUrl('tenant.example.com').href).toBe('https://tenant.example.com/');
    expect(endpoint('tenant.example.com')).toBe('https://tenant.example.com/api/v1/report');
  });

  it('reads a bare host with a port or a path as https', () => {
    expect(endpoint('tenant.example.com:8443')).toBe('https://tenant.example.com:8443/api/v1/report');
    expect(endpoint('tenant.example.com/tenant-a')).toBe('https://tenant.example.com/tenant-a/api/v1/report');
    expect(endpoint('localhost:8787')).toBe('https://localhost:8787/api/v1/report');
  });

  it('works with a trailing slash or none', () => {
    expect(endpoint('https://h.example.com')).toBe('https://h.example.com/api/v1/report');
    expect(endpoint('https://h.example.com/')).toBe('https://h.example.com/api/v1/report');
    expect(endpoint('https://h.example.com//')).toBe('https://h.example.com/api/v1/report');
  });

  it('keeps a path in the base URL', () => {
    expect(endpoint('https://h/tenant-a')).toBe('https://h/tenant-a/api/v1/report');
    expect(endpoint('https://h/tenant-a/')).toBe('https://h/tenant-a/api/v1/report');
    expect(endpoint('https://h/a/b/c', 'storage_constraint_profile')).toBe('https://h/a/b/c/api/v1/storage_constraint_profile');
  });

  it('trims surrounding whitespace', () => {
    expect(endpoint('  https://h.example.com/ \n')).toBe('https://h.example.com/api/v1/report');
  });

  it('accepts any case of the scheme', () => {
    expect(normalizeBaseUrl('HTTPS://H.Example.COM').href).toBe('https://h.example.com/');
  });

  it('does not change the base it is given', () => {
    const base = normalizeBaseUrl('https://h/tenant-a');
    endpointUrl(base, 'report');
    expect(base.href).toBe('https://h/tenant-a');
  });

  it.each([
    'http://example.com',
    'http://tenant.example.com:8080/x',
    'http://10.0.0.1',
    'http://192.168.1.1:8787',
    'http://128.0.0.1',
    'http://127.0.0.1.nip.io',
    'http://localhost.evil.example',
    'http://[::2]',
    'http://[2001:db8::1]',
    'http://0.0.0.0',
  ])('refuses plain http to %s (exit 2)', (input) => {
    const error = caught(() => normalizeBaseUrl(input));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/http/);
  });

  it('hints at the https address when refusing http', () => {
    expect(caught(() => normalizeBaseUrl('http://h.example.com/tenant')).hint).toContain('https://h.example.com/tenant');
  });

  it.each([
    ['http://localhost', 'http://localhost/api/v1/report'],
    ['http://localhost:8787', 'http://localhost:8787/api/v1/report'],
    ['http://LOCALHOST:8787/', 'http://localhost:8787/api/v1/report'],
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787/api/v1/report'],
    ['http://127.1.2.3', 'http://127.1.2.3/api/v1/report'],
    ['http://127.255.255.254:1/x', 'http://127.255.255.254:1/x/api/v1/report'],
    ['http://[::1]:8080', 'http://[::1]:8080/api/v1/report'],
    ['http://[::1]', 'http://[::1]/api/v1/report'],
    ['HTTP://127.0.0.1', 'http://127.0.0.1/api/v1/report'],
  ])('accepts plain http on loopback: %s', (input, expected) => {
    expect(endpoint(input)).toBe(expected);
  });

  it.each(['', '   ', 'https://', 'http://', 'https://exa mple.com', 'https://h:99999', 'https://[::1', '://h'])(
    'refuses the invalid URL %j (exit 2)',
    (input) => {
      const error = caught(() => normalizeBaseUrl(input));
      expect(error).toBeInstanceOf(UsageError);
      expect(error.exitCode).toBe(2);
    },
  );

  it.each(['ftp://h.example.com', 'file:///etc/passwd', 'ws://localhost'])('refuses the scheme of %j (exit 2)', (input) => {
    expect(caught(() => normalizeBaseUrl(input)).exitCode).toBe(2);
  });

  it('names the origin in its messages', () => {
    expect(caught(() => normalizeBaseUrl('http://example.com', 'SCPCTL_BASE_URL')).message).toContain('SCPCTL_BASE_URL');
  });
});

describe('isLoopbackHost', () => {
  it.each(['localhost', 'LOCALHOST', '127.0.0.1', '127.0.0.2', '127.255.255.255', '::1', '[::1]'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each(['example.com', '128.0.0.1', '126.0.0.1', '127.0.0.1.example.com', 'localhost.example.com', '::2', '0.0.0.0', '10.0.0.1', ''])(
    '%j is not loopback',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
});

describe('hasScheme (base URLs and proxy variables)', () => {
  it.each(['https://h', 'HTTPS://h', 'Http://h', 'socks5h://p:1080', 'svn+ssh://h', 'a.b-c://h'])('%s names its scheme', (text) => {
    expect(hasScheme(text)).toBe(true);
  });

  it.each(['proxy:3128', 'h', '1http://h', 'http:/h', '-x://h', ' http://h', 'ht tp://h', 'é://h', ''])('%j does not', (text) => {
    expect(hasScheme(text)).toBe(false);
  });
});

describe('parseTimeout', () => {
  it.each([
    ['30', 30],
    ['1', 1],
    ['0.5', 0.5],
    ['3600', 3600],
    ['12.25', 12.25],
  ])('reads %j as %d s', (input, value) => {
    expect(parseTimeout(input)).toBe(value);
  });

  it.each(['0', '0.0', '-1', '3601', 'abc', '', ' ', '10s', 'NaN', 'Infinity', '1,5'])('refuses %j (exit 2)', (input) => {
    const error = caught(() => parseTimeout(input, '--timeout'));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain('--timeout');
  });
});

describe('parseRetries', () => {
  it.each([
    ['0', 0],
    ['3', 3],
    ['10', 10],
  ])('reads %j as %d', (input, value) => {
    expect(parseRetries(input)).toBe(value);
  });

  it.each(['11', '-1', '1.5', 'x', '', 'three', '1e1'])('refuses %j (exit 2)', (input) => {
    const error = caught(() => parseRetries(input, '--retries'));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain('--retries');
  });
});
