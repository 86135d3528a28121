// Found by the red-team review of issue 34's change, each tried as an attacker (or a hurried user) would:
// every test here failed before its fix (the commit that added it says how).
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOKEN, removeDir, scpctl, tempDir } from './harness.js';

const dir = tempDir();
afterAll(() => removeDir(dir));
const env = { PATH: process.env.PATH, HOME: dir, SCPCTL_CONFIG_DIR: dir, SCPCTL_TOKEN: TOKEN };

describe('a line commander refuses is reported as every other error: masked and made visible', () => {
  it('`--token=VALUE` (there is no --token flag) never echoes the token, nor another context\'s stored one', async () => {
    const other = 'other-ctx-Zq9XyW7vU5tR';
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ contexts: { other: { token: other } } }));
    const r = await scpctl([`--token=${TOKEN}`, 'buckets', 'view', 'finance'], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("scpctl: unknown option '--token=***'\n");
    const stored = await scpctl(['buckets', 'view', 'finance', `--tokn=${other}`], { env });
    expect(stored.exitCode).toBe(2);
    expect(stored.stderr).not.toContain(other);
    expect(stored.stderr).toContain("unknown option '--tokn=***'");
  });

  it('an escape sequence in a refused word reaches the terminal as an escape, never as a control character', async () => {
    const r = await scpctl(['buckets', 'view', 'finance', '--\x1b]0;owned\x07\x1b[2J'], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toMatch(/[\x00-\x09\x0b-\x1f]/);
    expect(r.stderr).toContain("unknown option '--\\x1b]0;owned\\x07\\x1b[2J'");
  });

  it('a suggestion and the list of commands stay as they were', async () => {
    const close = await scpctl(['bukets', 'view', 'finance'], { env });
    expect(close.exitCode).toBe(2);
    expect(close.stderr).toContain("scpctl: unknown command 'bukets'");
    expect(close.stderr).toContain('hint: Did you mean buckets?');
    const far = await scpctl(['nosuch'], { env });
    expect(far.exitCode).toBe(2);
    expect(far.stderr).toMatch(/^scpctl: unknown command 'nosuch'\nhint: the commands of scpctl are buckets, apply, /);
  });
});

describe('`help` only shows help', () => {
  it('`help -- config rename-context work` shows help and renames nothing (the words after -- were run, "--help" their last)', async () => {
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ contexts: { work: { baseUrl: 'https://work.example' } } }));
    const r = await scpctl(['help', '--', 'config', 'rename-context', 'work'], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^Usage: scpctl /);
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ contexts: { work: { baseUrl: 'https://work.example' } } });
    const deeper = await scpctl(['help', 'buckets', '--', 'delete', 'finance', 'old-bucket'], { env });
    expect(deeper.exitCode).toBe(0);
    expect(deeper.stdout).toMatch(/^Usage: scpctl buckets /);
  });
});
