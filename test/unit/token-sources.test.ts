// Section 16's token sources as pure rules: a tokenCommand's argv words, how messages name each source, the
// choice of store for login, and which contexts have their token fetched.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTokenCommand, programOf } from '../../src/settings/token-command.js';
import { describeTokenCommand, describeTokenSource, rejectedTokenHint } from '../../src/settings/token-source.js';
import { givenTokenSource } from '../../src/settings/token-source.js';
import { storeChoice, tokenPlace } from '../../src/commands/login/token-store.js';
import { fetchesToken } from '../../src/settings/resolve.js';
import { keyringAccount } from '../../src/settings/credential-store.js';
import { UsageError } from '../../src/errors.js';

describe('tokenCommand words', () => {
  it('takes a JSON array of non-empty strings, and nothing else (exit 2)', () => {
    expect(parseTokenCommand('["pass","show","scp/prod"]')).toEqual(['pass', 'show', 'scp/prod']);
    for (const bad of ['pass show x', '"pass"', '[]', '[1]', '[""]', '["a\\u0000b"]', 'null', '{}', JSON.stringify(Array(65).fill('a'))]) {
      expect(() => parseTokenCommand(bad), bad).toThrow(UsageError);
    }
  });

  it('is named sanitised, on one line: control and invisible characters escaped, long commands cut', () => {
    expect(describeTokenCommand(['printf', '\x1b[2J\u202e'])).toBe('["printf","\\u001b[2J\\u202e"]');
    expect(describeTokenCommand(['x'.repeat(500)]).length).toBeLessThan(260);
    expect(describeTokenSource({ kind: 'command', context: 'prod', argv: ['pass', 'show'] })).toBe('the tokenCommand ["pass","show"] of context prod');
    expect(describeTokenSource({ kind: 'keyring', context: 'prod' })).toBe('the OS credential store (context prod)');
    expect(rejectedTokenHint({ kind: 'keyring', context: 'prod' }, 'scpctl --context prod')).toBe('Store a current token: scpctl --context prod login');
  });
});

describe("a tokenCommand's program", () => {
  it("is a bare name found in PATH's absolute folders alone (Windows: .com or .exe, Path spelt any way), never the current folder", () => {
    const bin = mkdtempSync(join(tmpdir(), 'scpctl-bin-'));
    try {
      writeFileSync(join(bin, 'op.exe'), '');
      expect(programOf('op', { Path: `"${bin}";.;` }, 'win32')).toBe(join(bin, 'op.exe'));
      expect(programOf('op', { PATH: '.;relative' }, 'win32')).toBeUndefined();
      expect(programOf('op', {}, 'win32')).toBeUndefined();
      writeFileSync(join(bin, 'helper'), '', { mode: 0o755 });
      writeFileSync(join(bin, 'not-executable'), '', { mode: 0o644 });
      expect(programOf('helper', { PATH: `:.:${bin}` }, 'linux')).toBe(join(bin, 'helper'));
      expect(programOf('not-executable', { PATH: bin }, 'linux')).toBeUndefined();
      expect(programOf('./helper', { PATH: '' }, 'linux')).toBe('./helper');
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});

describe('where the token is kept', () => {
  it('login: --token-store, else SCPCTL_TOKEN_STORE, else auto; other values are exit 2', () => {
    expect(storeChoice(undefined, {})).toBe('auto');
    expect(storeChoice(undefined, { SCPCTL_TOKEN_STORE: 'file' })).toBe('file');
    expect(storeChoice('keyring', { SCPCTL_TOKEN_STORE: 'file' })).toBe('keyring');
    expect(() => storeChoice(undefined, { SCPCTL_TOKEN_STORE: 'vault' })).toThrow('SCPCTL_TOKEN_STORE: "vault" is not keyring or file');
  });

  it('a context fetches its token when it has a tokenCommand or keeps it in the OS store, unless a flag or variable comes first', () => {
    expect(fetchesToken({ tokenStore: 'keyring' })).toBe(true);
    expect(fetchesToken({ tokenCommand: '["x"]' })).toBe(true);
    expect(fetchesToken({ tokenStore: 'file' })).toBe(false);
    expect(fetchesToken(undefined)).toBe(false);
    expect(givenTokenSource({}, {})).toBeUndefined();
    expect(givenTokenSource({}, { SCPCTL_TOKEN: '' })).toEqual({ kind: 'env' }); // empty: an error naming it, never the store
    expect(givenTokenSource({ tokenFile: 'f' }, { SCPCTL_TOKEN: 't' })).toEqual({ kind: 'flag-file', path: 'f' });
    expect(givenTokenSource({}, { SCPCTL_TOKEN_FILE: 'g' })).toEqual({ kind: 'env-file', path: 'g' });
    expect(tokenPlace({ tokenStore: 'keyring', token: 'x' })).toBe('keyring');
    expect(tokenPlace({ token: 'x' })).toBe('file');
    expect(tokenPlace({})).toBeUndefined();
  });

  it('one entry per context and config folder', () => {
    expect(keyringAccount('prod', { SCPCTL_CONFIG_DIR: '/etc/scp' })).toBe('prod@/etc/scp');
    expect(keyringAccount('prod', { SCPCTL_CONFIG_DIR: '/other' })).not.toBe(keyringAccount('prod', { SCPCTL_CONFIG_DIR: '/etc/scp' }));
  });
});
