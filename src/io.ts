// The world a run of scpctl sees: its three streams and its environment. The binary hands in the process's;
// tests hand in their own, so that a whole command runs in the test's process (see test/e2e/harness.ts).
export interface Io {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env: NodeJS.ProcessEnv;
}

export function processIo(): Io {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}
