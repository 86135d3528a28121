// Ctrl-C (SIGINT) and SIGTERM: abort what is in flight, let commands close their output on a whole record,
// and exit 130 at once. Commands register cleanups here rather than knowing about signals.

const controller = new AbortController();
const cleanups: Array<() => void> = [];

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

/** The signal handler installed by the CLI. */
export function onInterrupt(): void {
  controller.abort();
  for (const cleanup of cleanups.splice(0)) {
    try {
      cleanup();
    } catch {
      // Exiting anyway.
    }
  }
  process.stderr.write('\nscpctl: interrupted\n');
  process.exit(130);
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
