// Ctrl-C (SIGINT) and SIGTERM: abort what is in flight, let commands close their output on a whole record,
// let stdout take everything it was already handed (to a slow reader that can be megabytes, which
// `process.exit` would drop), and exit 130 or 143. Commands register cleanups here rather than knowing
// about signals; the output layer asks `exiting()` and drops what the aborted command still tries to print.

const controller = new AbortController();
const cleanups: Array<() => void> = [];
let exitCode: number | undefined;

/** Aborted when the user interrupts; the transport and waits listen to it. */
export const interruptSignal: AbortSignal = controller.signal;

/** Work to finish synchronously on Ctrl-C before exiting (close a JSON array, say). Returns its remover. */
export function onInterruptCleanup(cleanup: () => void): () => void {
  cleanups.push(cleanup);
  return () => {
    const i = cleanups.indexOf(cleanup);
    if (i >= 0) cleanups.splice(i, 1);
  };
}

/** True once a signal has been handled: the command is being stopped and what it prints now is dropped. */
export function exiting(): boolean {
  return exitCode !== undefined;
}

const EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/** The signal handler installed by the CLI. A second signal while stdout drains exits at once. */
export function onInterrupt(signal: NodeJS.Signals = 'SIGINT'): void {
  if (exitCode !== undefined) process.exit(exitCode);
  controller.abort();
  for (const cleanup of cleanups.splice(0)) {
    try {
      cleanup();
    } catch {
      // Exiting anyway.
    }
  }
  exitCode = EXIT_CODES[signal] ?? 130;
  process.exitCode = exitCode;
  process.stderr.write(`\nscpctl: ${signal === 'SIGTERM' ? 'terminated' : 'interrupted'}\n`);
  const code = exitCode;
  whenStdoutDrained(() => process.exit(code));
}

/**
 * Calls `done` once everything handed to stdout has been written. An empty write's callback runs after the
 * writes queued before it; a reader that has gone away (EPIPE) has taken all it will take.
 */
function whenStdoutDrained(done: () => void): void {
  const stdout = process.stdout;
  if (stdout.destroyed || stdout.writableLength === 0) return done();
  stdout.once('error', done);
  stdout.write('', () => done());
}

/** Installed by the CLI for every command. */
export function installInterruptHandlers(): void {
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
}

/** For a command that shuts down on signals itself and counts that as a normal exit (the emulator). */
export function releaseInterruptHandlers(): void {
  process.removeListener('SIGINT', onInterrupt);
  process.removeListener('SIGTERM', onInterrupt);
}
