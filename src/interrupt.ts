// Ctrl-C (SIGINT) and SIGTERM, for one run: abort what is in flight, let commands close their output on a
// whole record, say so on stderr, and give the exit code, 130 or 143. Commands register cleanups here
// rather than knowing about signals; the output layer asks `exiting` and drops what the aborted command
// still tries to print. Making the process exit (after stdout has taken everything, which `process.exit`
// alone would drop) is run.ts's business, for the binary only.
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { Interrupted } from './errors.js';

const EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

export class Interruption {
  // Made when first asked for: Node loads AbortController at its first use, half a millisecond that help and
  // other runs without a request need not pay.
  private controller?: AbortController;
  private readonly cleanups: Array<() => void> = [];
  private borrower?: (signal: NodeJS.Signals) => boolean;
  /** Set once a signal has been handled. */
  exitCode: number | undefined;

  /** Aborted when the user interrupts; the transport and waits listen to it. */
  get signal(): AbortSignal {
    return (this.controller ??= new AbortController()).signal;
  }

  /** True once a signal has been handled: the command is being stopped and what it prints now is dropped. */
  get exiting(): boolean {
    return this.exitCode !== undefined;
  }

  /** Work to finish synchronously on a signal before exiting (close a JSON array, say). Returns its remover. */
  onCleanup(cleanup: () => void): () => void {
    this.cleanups.push(cleanup);
    return () => {
      const i = this.cleanups.indexOf(cleanup);
      if (i >= 0) this.cleanups.splice(i, 1);
    };
  }

  /**
   * Shows the run's signals to `borrower` first until the returned function is called; it returns true for
   * a signal it took. While the pager owns the terminal, Ctrl-C is the pager's (less uses it to stop a
   * search); SIGTERM ends the pager and then the run.
   */
  lend(borrower: (signal: NodeJS.Signals) => boolean): () => void {
    this.borrower = borrower;
    return () => {
      if (this.borrower === borrower) this.borrower = undefined;
    };
  }

  /** Shows `signal` to whoever borrowed the signals: true when it took it, else the run is interrupted. */
  lent(signal: NodeJS.Signals): boolean {
    return this.borrower?.(signal) ?? false;
  }

  /** Stops the run: aborts, runs the cleanups, says so on `stderr`. Returns the exit code. */
  interrupt(signal: NodeJS.Signals | string, stderr: NodeJS.WritableStream): number {
    if (this.exitCode !== undefined) return this.exitCode;
    (this.controller ??= new AbortController()).abort(new Interrupted('interrupted'));
    for (const cleanup of this.cleanups.splice(0)) {
      try {
        cleanup();
      } catch {
        // Exiting anyway.
      }
    }
    this.exitCode = EXIT_CODES[signal] ?? 130;
    stderr.write(`\nscpctl: ${signal === 'SIGTERM' ? 'terminated' : 'interrupted'}\n`);
    return this.exitCode;
  }
}

/**
 * Whether a child is started in a process group of its own (`detached`), so that stopping it stops what it
 * started too. Not where scpctl runs at a terminal: a child outside the terminal's foreground group is
 * stopped by the kernel when it reads the terminal (a helper asking for a passphrase), and there Ctrl-C
 * reaches the child and all it started anyway; nor where fds 0-2 are redirected but a terminal controls scpctl.
 * Windows has no process groups to signal. (node:tty is loaded here, not at start: a run whose output is piped
 * never loads it otherwise.)
 */
export async function ownGroup(): Promise<boolean> {
  if (process.platform === 'win32') return false;
  const { isatty } = await import('node:tty');
  if ([0, 1, 2].some((fd) => isatty(fd))) return false;
  // `scpctl … <in >out 2>err` typed at a terminal still has it: Node's detached is setsid, a session with no
  // terminal, where a helper asking on /dev/tty (gpg's pinentry, op) fails with ENXIO.
  try {
    closeSync(openSync('/dev/tty', 'r'));
    return false;
  } catch {
    return true;
  }
}

/**
 * Stops a child and, when it was started in a group of its own (ownGroup), every process it started: a
 * helper script that runs the real tool would otherwise leave that tool running, holding the pipes scpctl
 * gave up on.
 */
export function stopWithItsChildren(child: ChildProcess, grouped: boolean): void {
  if (grouped && child.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL');
      return;
    } catch {
      // The group has already gone: the child alone, if it is still there.
    }
  }
  child.kill('SIGKILL');
}
