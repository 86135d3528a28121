// The config store file: reading it tolerantly, its keys, and its permissions.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it, expect } from 'vitest';
import {
  CONFIG_KEYS,
  configDir,
  configPath,
  normalizeConfigKey,
  permissionWarning,
  readConfig,
} from '../../src/settings/config-file.js';
import { UsageError } from '../../src/errors.js';
import { caught } from './caught.js';

const dir = mkdtempSync(join(tmpdir(), 'scpctl-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function fileWith(text: string, mode = 0o600): string {
  const path = join(dir, `config-${n++}.json`);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}


describe('configDir and configPath', () => {
  it('follows SCPCTL_CONFIG_DIR', () => {
    expect(configDir({ SCPCTL_CONFIG_DIR: dir })).toBe(dir);
    expect(configPath({ SCPCTL_CONFIG_DIR: dir })).toBe(join(dir, 'config.json'));
  });
});

describe('readConfig', () => {
  it('reads a missing file as an empty store', () => {
    expect(readConfig(join(dir, 'does-not-exist.json'))).toEqual({ contexts: {} });
  });

  it('reads an empty file as an empty store', () => {
    expect(readConfig(fileWith(''))).toEqual({ contexts: {} });
    expect(readConfig(fileWith(' \n'))).toEqual({ contexts: {} });
  });

  it('reads a well-formed store', () => {
    const data = {
      currentContext: 'prod',
      contexts: {
        default: { baseUrl: 'https://a.example.com', token: 'tok-a' },
        prod: { baseUrl: 'https://b.example.com', token: 'tok-b', timeout: '10', retries: '2', caCert: '/ca.pem' },
      },
    };
    expect(readConfig(fileWith(JSON.stringify(data)))).toEqual(data);
  });

  it.each(['{not json', '{"contexts": {', 'contexts: {}', '{"a":1}}'])('refuses invalid JSON %j as a usage error naming the file', (text) => {
    const path = fileWith(text);
    const error = caught(() => readConfig(path));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(path);
    expect(error.hint).toBeTruthy();
  });

  it('refuses a path it cannot read (a folder) as a usage error', () => {
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    const error = caught(() => readConfig(folder));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain(folder);
  });

  it('keeps only the known keys of each context', () => {
    const path = fileWith(JSON.stringify({ contexts: { default: { baseUrl: 'https://a', password: 'x', 'base-url': 'y', extra: 1 } } }));
    expect(readConfig(path)).toEqual({ contexts: { default: { baseUrl: 'https://a' } } });
  });

  it('turns numbers into strings and drops other types', () => {
    const path = fileWith(
      JSON.stringify({ contexts: { default: { timeout: 30, retries: 0, token: null, baseUrl: ['x'], caCert: { path: '/ca' } } } }),
    );
    expect(readConfig(path)).toEqual({ contexts: { default: { timeout: '30', retries: '0' } } });
  });

  it('drops a currentContext that is not a string', () => {
    expect(readConfig(fileWith(JSON.stringify({ currentContext: 5, contexts: {} })))).toEqual({ contexts: {} });
  });

  it('reads a context that is not an object as empty', () => {
    expect(readConfig(fileWith(JSON.stringify({ contexts: { a: 'text', b: null } })))).toEqual({ contexts: { a: {}, b: {} } });
  });

  it.each(['null', '[]', '42', '"text"', 'true'])('reads the JSON value %s as an empty store', (text) => {
    expect(readConfig(fileWith(text))).toEqual({ contexts: {} });
  });

  it('ignores unknown top-level keys', () => {
    expect(readConfig(fileWith(JSON.stringify({ version: 2, contexts: { default: { token: 't' } } })))).toEqual({
      contexts: { default: { token: 't' } },
    });
  });
});

describe('normalizeConfigKey', () => {
  it.each(CONFIG_KEYS.map((k) => [k]))('accepts %s as is', (key) => {
    expect(normalizeConfigKey(key)).toBe(key);
  });

  it('has exactly the contract keys (section 16 adds tokenStore and tokenCommand)', () => {
    expect([...CONFIG_KEYS].sort()).toEqual(['baseUrl', 'caCert', 'historyKeep', 'retries', 'timeout', 'token', 'tokenCommand', 'tokenStore']);
  });

  it.each([
    ['base-url', 'baseUrl'],
    ['ca-cert', 'caCert'],
    ['history.keep', 'historyKeep'],
    ['history-keep', 'historyKeep'],
  ])('accepts the kebab-case %s as %s', (key, expected) => {
    expect(normalizeConfigKey(key)).toBe(expected);
  });

  it.each(['password', 'base_url', 'baseurl', 'BaseUrl', 'url', '', 'tokens', 'time-out', 'base-url-x', 'currentContext', 'contexts'])(
    'refuses the unknown key %j (exit 2), listing the keys',
    (key) => {
      const error = caught(() => normalizeConfigKey(key));
      expect(error).toBeInstanceOf(UsageError);
      expect(error.exitCode).toBe(2);
      expect(error.message).toContain('baseUrl');
      expect(error.message).toContain('caCert');
    },
  );
});

describe.skipIf(process.platform === 'win32')('permissionWarning', () => {
  it('warns about a file others can read (0644), naming it and the fix', () => {
    const path = fileWith('{}', 0o644);
    const warning = permissionWarning(path);
    expect(warning).not.toBeNull();
    expect(warning).toContain(path);
    expect(warning).toContain('0644');
    expect(warning).toMatch(/chmod 600/);
  });

  it.each([0o640, 0o604, 0o660, 0o666, 0o700 | 0o070])('warns about mode %o', (mode) => {
    expect(permissionWarning(fileWith('{}', mode))).not.toBeNull();
  });

  it('is quiet for 0600', () => {
    expect(permissionWarning(fileWith('{}', 0o600))).toBeNull();
  });

  it('is quiet for 0400', () => {
    expect(permissionWarning(fileWith('{}', 0o400))).toBeNull();
  });

  it('is quiet when there is no file', () => {
    expect(permissionWarning(join(dir, 'nothing-here.json'))).toBeNull();
  });
});
