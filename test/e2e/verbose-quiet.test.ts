// --verbose and --quiet are what commander read from the line, decided once (src/run.ts): never guessed from
// raw words that commander reads as an option's value. In this process and through bin/scpctl.js, whose
// own guess (to load the bundle with its source map) must not print a stack either.
import { describe, expect, it } from 'vitest';
import { scpctl, useEmulator, type Emulator } from './harness.js';

let emu: Emulator;
let env: Record<string, string | undefined>;
useEmulator(['--profile', 'finance=alpha-one,beta-two'], (suite) => ({ emu, env } = suite));

const stackLines = (stderr: string): string[] => stderr.split('\n').filter((line) => /^\s+at /.test(line));

describe.each([['in this process', false], ['through bin/scpctl.js', true]])('%s', (_, real) => {
  it('-ov is --output "v": one usage line, exit 2, no stack (the shim guesses verbose from the words, and loads the bundle with its source map)', async () => {
    const r = await scpctl(['buckets', 'view', 'finance', '-ov'], { env, real });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('scpctl: -o v is not a format of this command; use table, text, json\n');
  });

});

describe('in this process', () => {
  it('--context -v is the context named "-v": exit 2, its message and hint, no stack', async () => {
    const r = await scpctl(['--context', '-v', 'buckets', 'view', 'finance'], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^scpctl: no context named "-v" \(from --context\)/);
    expect(stackLines(r.stderr)).toEqual([]);
    expect(r.stderr.trim().split('\n')).toHaveLength(2);
  });
});

it('-qv is quiet and verbose (bin/scpctl.js, NODE_TLS_REJECT_UNAUTHORIZED=0 set): the request lines and the stack, no warning', async () => {
  const r = await scpctl(['-qv', 'buckets', 'view', 'nosuch'], { env: { ...env, NODE_TLS_REJECT_UNAUTHORIZED: '0' }, real: true });
  expect(r.exitCode).toBe(4);
  expect(r.stderr).not.toContain('warning:');
  expect(r.stderr).toMatch(/^→ POST .*op=viewBucketList/m);
  expect(stackLines(r.stderr).length).toBeGreaterThan(0);
  expect(emu.url).toBeTruthy();
});

it('a failure before commander has read the whole line (an unknown option after -v): no stack', async () => {
  const r = await scpctl(['-v', 'buckets', 'view', 'finance', '--no-such-option'], { env });
  expect(r.exitCode).toBe(2);
  expect(stackLines(r.stderr)).toEqual([]);
});
