// The first day as a person meets it, in a real pseudo-terminal (`script` for the byte stream): a spinner
// while a slow request hangs, and Ctrl-C or a rejected token at the login prompt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { BIN, TOKEN, envFor, removeDir, startEmulator, tempDir, type Emulator } from './harness.js';

const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/; // ora's "dots"
const strip = (text: string): string => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;
const has = (tool: string): boolean => {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
beforeAll(async () => {
  emu = await startEmulator(['--profile', 'finance=alpha-one,beta-two', '--profile', 'slow=alpha-one']);
  dir = tempDir();
  env = envFor(emu, dir);
});
afterAll(async () => {
  await emu?.stop();
  removeDir(dir);
});

/** Everything a run wrote to an 80×40 pseudo-terminal, escape codes kept. */
async function inTerminal(args: string[], extra: Record<string, string | undefined> = {}) {
  const command = `stty cols 80 rows 40; node ${quote(BIN)} ${args.map(quote).join(' ')}`;
  const r = await execa('script', ['-qfec', command, '/dev/null'], {
    env: { ...env, TERM: 'xterm-256color', ...extra } as Record<string, string>,
    extendEnv: false,
    stdin: 'ignore',
    reject: false,
    timeout: 20_000,
  });
  const output = String(r.stdout);
  expect(output.includes(TOKEN) || output.includes(encodeURIComponent(TOKEN)), 'token leaked').toBe(false);
  return { output, exitCode: r.exitCode ?? -1 };
}

describe.skipIf(!has('script'))('a slow request on a terminal', () => {
  it('shows a spinner naming the operation and the seconds so far, then the answer', async () => {
    await emu.faults([{ kind: 'delay', ms: 1500, endpoint: 'bucket', op: 'viewBucketList' }]);
    const { output, exitCode } = await inTerminal(['buckets', 'view', 'slow']);
    expect(exitCode).toBe(0);
    expect(output).toMatch(SPINNER);
    expect(strip(output)).toMatch(/viewBucketList slow \(1\.\d s\)/);
    expect(strip(output)).toContain('slow: 1 bucket');
  });

  it('a mutation too', async () => {
    await emu.faults([{ kind: 'delay', ms: 1000, endpoint: 'bucket', op: 'appendToBucketList' }]);
    const { output, exitCode } = await inTerminal(['buckets', 'append', 'slow', 'gamma-three']);
    expect(exitCode).toBe(0);
    expect(strip(output)).toMatch(/appendToBucketList slow \(\d\.\d s\)/);
    expect(strip(output)).toContain('✔ appendToBucketList slow: 1 name sent');
  });
});
