// The process makes each stream at its first touch (a pipe's stderr is a socket): a run that prints nothing
// on stderr (a small view into a pipe) must not make it, and one that does learns what stderr is then.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/io.js';
import { Terminal } from '../../src/output/terminal.js';

function io(): { io: Io; touches: () => number; stderr: () => string } {
  const [out, err] = [new PassThrough(), new PassThrough()];
  let [touches, text] = [0, ''];
  err.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const world = {
    stdout: out,
    get stderr() {
      touches++;
      return err;
    },
    stdin: new PassThrough(),
    env: {},
  } as unknown as Io;
  return { io: world, touches: () => touches, stderr: () => text };
}

describe('Terminal and stderr', () => {
  it('writes data to stdout without making stderr', () => {
    const world = io();
    const term = new Terminal({}, world.io);
    term.out('small-bucket-0\n');
    term.debug('not verbose: nothing');
    expect(world.touches()).toBe(0);
  });

  it('makes stderr at the first message, and says it is no terminal', () => {
    const world = io();
    const term = new Terminal({}, world.io);
    term.warn('careful');
    expect(world.touches()).toBeGreaterThan(0);
    expect(term.stderrIsTTY).toBe(false);
    expect(term.animate).toBe(false);
    expect(world.stderr()).toBe('warning: careful\n');
  });
});
