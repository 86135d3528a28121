// Long output on a terminal goes through the user's pager, as git and gh do: SCPCTL_PAGER, else PAGER, else
// `less -FRX` (quit if it fits, keep colours, leave the text on the screen). Only the Terminal calls this,
// and only when stdout is a terminal and the text is taller than the screen; piped output never pages.
import { spawn } from 'node:child_process';
import type { Interruption } from '../interrupt.js';

export const DEFAULT_PAGER = 'less -FRX';

/** The pager command, or null for none (an empty value or `cat` turn paging off). */
export function pagerCommand(env: NodeJS.ProcessEnv): string | null {
  const command = (env.SCPCTL_PAGER ?? env.PAGER ?? DEFAULT_PAGER).trim();
  return command === '' || command === 'cat' ? null : command;
}

/**
 * Writes `text` into the pager and waits until the user leaves it. While it runs, the run's signals are
 * the pager's: Ctrl-C is left to it (less uses it to stop a search), SIGTERM ends it. A pager that cannot
 * be started (exit 126 or 127 from the shell) gets the text written to stdout instead.
 */
export async function runPager(
  command: string,
  text: string,
  streams: { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream },
  env: NodeJS.ProcessEnv,
  interruption?: Interruption,
): Promise<void> {
  const { stdout, stderr } = streams;
  const child = spawn(command, {
    shell: true,
    // The run's own streams (a terminal: the pager is used only there), not whatever the process has.
    stdio: ['pipe', stdout, stderr],
    env: { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' },
  });
  const giveBack = interruption?.lend((signal) => {
    if (signal !== 'SIGTERM') return true;
    child.kill('SIGTERM');
    return false;
  });
  try {
    const closed = new Promise<number | null>((resolve) => {
      child.on('close', (code) => resolve(code));
      child.on('error', () => resolve(127));
    });
    // The user may quit before reading it all: the pipe then breaks, which is no error.
    child.stdin.on('error', () => {});
    child.stdin.end(text);
    const code = await closed;
    if (code === 126 || code === 127) stdout.write(text);
  } finally {
    giveBack?.();
  }
}
