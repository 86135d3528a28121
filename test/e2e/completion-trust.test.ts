// Completion never runs what it completes (contract section 13): a profile named in the service's console
// as `x$(touch FILE)`, viewed once, must not run at the next Tab, whether it reaches the script through
// scpctl's memory of profiles seen, a planted file, or scpctl itself answering with it.
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { scpctl, scpctlOnPath, type Emulator, useEmulator } from './harness.js';

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
let marker: string;
let hostile: string[];
useEmulator([], (suite) => ({ emu, dir, env } = suite));

let script: string;
beforeAll(async () => {
  marker = join(dir, 'pwned');
  hostile = [`x$(touch ${marker})`, `x\`touch ${marker}\``, `x;touch ${marker}`];
  for (const name of [...hostile, 'safe-profile']) await emu.setProfile(name, ['alpha-data']);
  const r = await scpctl(['completion', 'bash'], { env });
  script = join(dir, 'scpctl.bash');
  writeFileSync(script, r.stdout);
});

/** The bash function called as bash calls it, with `bin` first on PATH; what it offers, one a line. */
async function complete(bin: string, words: string[]): Promise<string[]> {
  const driver = 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _scpctl; printf "%s\\n" "${COMPREPLY[@]}"';
  const r = await execa('bash', ['--norc', '--noprofile', '-c', driver, 'bash', script, ...words], {
    cwd: dir,
    reject: false,
    extendEnv: false,
    env: { ...env, PATH: `${bin}:${process.env.PATH}` } as Record<string, string>,
  });
  expect(r.exitCode, r.stderr).toBe(0);
  return r.stdout.split('\n').filter(Boolean);
}

describe('a hostile profile name from the console', () => {
  it('viewed once, is not remembered, and Tab neither offers nor runs it', async () => {
    for (const name of [...hostile, 'safe-profile']) expect((await scpctl(['buckets', 'view', name], { env })).exitCode).toBe(0);
    const seen = readFileSync(join(dir, 'profiles-seen.json'), 'utf8');
    expect(JSON.parse(seen)).toEqual({ default: ['safe-profile'] });
    const offered = await complete(scpctlOnPath(join(dir, 'bin')), ['scpctl', 'buckets', 'view', 'x']);
    expect(offered).toEqual([]);
    expect(await complete(join(dir, 'bin'), ['scpctl', 'buckets', 'view', ''])).toEqual(['safe-profile']);
    expect(existsSync(marker)).toBe(false);
  });

  it('planted in the file of profiles seen, is never offered', async () => {
    const config = join(dir, 'planted');
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, 'profiles-seen.json'), JSON.stringify({ default: [...hostile, 'ok-one', '-rf'] }));
    const r = await scpctl(['__complete', '--', 'buckets', 'view', ''], { env: { ...env, SCPCTL_CONFIG_DIR: config } });
    expect(r.stdout).toBe('words\nok-one\n');
  });

  it('holding a stored token (kept by an older scpctl), is never offered', async () => {
    const config = join(dir, 'planted-token');
    mkdirSync(config, { recursive: true });
    const stored = 'ctxb7secret9f8e7d6c5b4a';
    writeFileSync(join(config, 'config.json'), JSON.stringify({ currentContext: 'default', contexts: { default: {}, b: { token: stored } } }), { mode: 0o600 });
    writeFileSync(join(config, 'profiles-seen.json'), JSON.stringify({ default: [`p-${stored}`, `p-${stored.toUpperCase()}`, 'ok-one'] }));
    const r = await scpctl(['__complete', '--', 'buckets', 'view', ''], { env: { ...env, SCPCTL_CONFIG_DIR: config } });
    expect(r.stdout).toBe('words\nok-one\n');
  });

  it('even answered by the program itself, the script offers it as text and runs nothing', async () => {
    const fake = join(dir, 'fake-bin');
    mkdirSync(fake, { recursive: true });
    const lines = ['words', ...hostile, 'x*', 'x-plain'].map((name) => `printf '%s\\n' '${name.replace(/'/g, `'\\''`)}'`).join('\n');
    writeFileSync(join(fake, 'scpctl'), `#!/bin/sh\n${lines}\n`, { mode: 0o755 });
    const offered = await complete(fake, ['scpctl', 'buckets', 'view', 'x']);
    expect(existsSync(marker)).toBe(false);
    expect(offered).toContain('x-plain');
    expect(offered).toContain('x*');
    // The text to complete as a file name is only matched against files, never run.
    writeFileSync(join(fake, 'scpctl'), `#!/bin/sh\nprintf '%s\\n' files '${hostile[0]}'\n`, { mode: 0o755 });
    expect(await complete(fake, ['scpctl', 'apply', '-f', 'x'])).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });
});
