// The context commands as kubectl has them: use, current, get (an aligned table), delete, rename. A context
// that does not exist is a usage error that changes nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, scpctl, tempDir } from './harness.js';

let cfg: string;
let env: Record<string, string | undefined>;
const run = (...args: string[]) => scpctl(args, { env });
const stored = () => JSON.parse(readFileSync(join(cfg, 'config.json'), 'utf8'));

beforeEach(async () => {
  cfg = tempDir();
  env = { PATH: process.env.PATH, SCPCTL_CONFIG_DIR: cfg };
  expect((await run('--context', 'tenant-b', 'config', 'set', 'base-url', 'https://tenant-b.example.com')).exitCode).toBe(0);
  expect((await run('config', 'set', 'timeout', '40')).exitCode).toBe(0);
});
afterEach(() => removeDir(cfg));

describe('config use-context', () => {
  it('switches to a context that exists', async () => {
    const r = await run('config', 'use-context', 'tenant-b');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('✔ the default context is now tenant-b\n');
    expect((await run('config', 'current-context')).stdout).toBe('tenant-b\n');
  });

  it('refuses one that does not (exit 2), naming those there are, and changes nothing', async () => {
    const before = readFileSync(join(cfg, 'config.json'), 'utf8');
    const r = await run('config', 'use-context', 'nope');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^scpctl: use-context: no context named "nope"; the contexts are default, tenant-b\nhint: .*--context nope login/);
    expect(readFileSync(join(cfg, 'config.json'), 'utf8')).toBe(before);
  });
});

describe('config current-context', () => {
  it('prints the context in effect: --context, then SCPCTL_CONTEXT, then the stored default, then default', async () => {
    expect((await run('config', 'current-context')).stdout).toBe('default\n');
    await run('config', 'use-context', 'tenant-b');
    expect((await run('config', 'current-context')).stdout).toBe('tenant-b\n');
    expect((await scpctl(['config', 'current-context'], { env: { ...env, SCPCTL_CONTEXT: 'default' } })).stdout).toBe('default\n');
    expect((await run('--context', 'x', 'config', 'current-context')).stdout).toBe('x\n');
  });
});

describe('config get-contexts', () => {
  it('is an aligned table on a terminal-style request (-o table), the current one starred', async () => {
    await run('config', 'use-context', 'tenant-b');
    const r = await run('config', 'get-contexts', '-o', 'table');
    expect(r.stdout).toBe(
      [
        'CURRENT  NAME      BASE URL                      TOKEN',
        '         default   -                             none',
        '*        tenant-b  https://tenant-b.example.com  none',
        '',
      ].join('\n'),
    );
  });

  it('piped: the same columns without the header; --json: an array', async () => {
    const r = await run('config', 'get-contexts');
    expect(r.stdout).toBe('*  default   -                             none\n   tenant-b  https://tenant-b.example.com  none\n');
    expect(JSON.parse((await run('config', 'get-contexts', '--json')).stdout)).toEqual([
      { name: 'default', current: true, baseUrl: '', token: 'none' },
      { name: 'tenant-b', current: false, baseUrl: 'https://tenant-b.example.com', token: 'none' },
    ]);
  });
});

describe('config delete-context and rename-context', () => {
  it('rename moves the settings, and the default follows the renamed context', async () => {
    await run('config', 'use-context', 'tenant-b');
    const r = await run('config', 'rename-context', 'tenant-b', 'staging');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('✔ context tenant-b renamed to staging\n');
    expect(stored()).toEqual({ currentContext: 'staging', contexts: { default: { timeout: '40' }, staging: { baseUrl: 'https://tenant-b.example.com' } } });
  });

  it('rename refuses an unknown source, an existing target and a bad name (exit 2, nothing changed)', async () => {
    const before = readFileSync(join(cfg, 'config.json'), 'utf8');
    for (const [args, message] of [
      [['nope', 'x'], 'rename-context: no context named "nope"'],
      [['tenant-b', 'default'], 'rename-context: a context named "default" exists already'],
      [['tenant-b', 'a b'], 'rename-context: "a b" is not a context name'],
    ] as const) {
      const r = await run('config', 'rename-context', ...args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(`scpctl: ${message}`);
    }
    expect(readFileSync(join(cfg, 'config.json'), 'utf8')).toBe(before);
  });

  it('delete forgets a context; deleting the default one falls back to default, with a warning', async () => {
    await run('config', 'use-context', 'tenant-b');
    const r = await run('config', 'delete-context', 'tenant-b');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('✔ context tenant-b deleted\nwarning: tenant-b was the default context; the default is now default\n');
    expect(stored()).toEqual({ contexts: { default: { timeout: '40' } } });
    expect((await run('config', 'current-context')).stdout).toBe('default\n');
    const again = await run('config', 'delete-context', 'tenant-b');
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('no context named "tenant-b"');
  });
});
