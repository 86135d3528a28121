// The world a run of scpctl sees: its three streams, its environment and its clock. The binary hands in the
// process's; tests hand in their own, so that a whole command runs in the test's process (test/e2e/harness.ts).
import type { Clock } from './core/clock.js';

export interface Io {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env: NodeJS.ProcessEnv;
  /** What time it is and how waiting passes (waits, back-off, rate limits); the system's when absent. */
  clock?: Clock;
}

export function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Made at the first read: the process's stdin is a stream Node builds on first touch (a pipe, a TTY, a
    // file), 1 to 2 ms that a command not reading it should not pay.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
  };
}
