// The world a run of scpctl sees: its three streams, its environment and its clock. The binary hands in the
// process's; tests hand in their own, so that a whole command runs in the test's process (test/e2e/harness.ts).
import { fstatSync, statSync, writeSync } from 'node:fs';
import type { Clock } from './core/clock.js';

export interface Io {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  env: NodeJS.ProcessEnv;
  /** What time it is and how waiting passes (waits, back-off, rate limits); the system's when absent. */
  clock?: Clock;
  /** Where help goes, and how wide it may be; `stdout` when absent (tests). */
  helpOut?: HelpOut;
}

/** A short text written whole, at once (help): where it goes and its terminal's width, if it is one. */
export interface HelpOut {
  columns: number | undefined;
  write(text: string): void;
}

/**
 * The process's world. Its streams are made at the first read: Node builds each on first touch, and the one
 * of a pipe loads net and the stream machinery (4 ms of a 44 ms `--help`; stdin 1 to 2 ms), which a command
 * that does not use it should not pay. `onStdoutError` is told of a failed write to stdout, made either way.
 */
export function processIo(onStdoutError?: (error: NodeJS.ErrnoException) => void): Io {
  let stdout: NodeJS.WriteStream | undefined;
  let direct: HelpOut | null | undefined;
  const stdoutStream = (): NodeJS.WriteStream => {
    if (stdout) return stdout;
    stdout = process.stdout;
    if (onStdoutError) stdout.on('error', onStdoutError);
    return stdout;
  };
  return {
    get stdout() {
      return stdoutStream();
    },
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    get helpOut() {
      if (stdout) return streamOut(stdout);
      if (direct === undefined) direct = fdOut(1, stdoutStream, onStdoutError) ?? null;
      return direct ?? streamOut(stdoutStream());
    },
  };
}

/**
 * The process's rule for a failed write to stdout: a reader gone away (`scpctl buckets view p | head`) is
 * its choice, not an error, and the run ends quietly; any other failure to write the data (a full disk) is
 * one line and exit 1.
 */
export function exitOnStdoutFailure(error: NodeJS.ErrnoException): never {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`scpctl: cannot write the output: ${error.code ?? error.message}\n`);
  process.exit(1);
}

/**
 * Runs `run` as the process: its streams (a failed write to stdout as exitOnStdoutFailure says), its
 * SIGINT and SIGTERM, its exit, and the exit code `run` gives (main.ts's runAsProcess).
 */
export async function runInProcess(run: (io: Io, options: { signals: NodeJS.EventEmitter; exit: (code: number) => void }) => Promise<number>): Promise<void> {
  process.exitCode = await run(processIo(exitOnStdoutFailure), { signals: process, exit: (code) => process.exit(code) });
}

function streamOut(stream: NodeJS.WriteStream): HelpOut {
  return { columns: (stream.isTTY && stream.columns) || undefined, write: (text) => void stream.write(text) };
}

/**
 * Straight to the file descriptor when it is a pipe, a file, a socket or the null device: never a terminal,
 * so no width to ask (another character device may be one, and gets the stream: asking would load what the
 * stream does). A pipe another process made non-blocking and full (EAGAIN) takes the rest through the
 * stream, which waits for room.
 */
function fdOut(fd: number, stream: () => NodeJS.WriteStream, onError?: (error: NodeJS.ErrnoException) => void): HelpOut | undefined {
  if (!notATerminal(fd)) return undefined;
  return {
    columns: undefined,
    write(text) {
      const bytes = Buffer.from(text);
      let done = 0;
      try {
        while (done < bytes.length) done += writeSync(fd, bytes, done);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') stream().write(bytes.subarray(done));
        else if (onError) onError(error as NodeJS.ErrnoException);
        else throw error;
      }
    },
  };
}

function notATerminal(fd: number): boolean {
  try {
    const kind = fstatSync(fd);
    if (kind.isFIFO() || kind.isFile() || kind.isSocket()) return true;
    const nul = kind.isCharacterDevice() && process.platform !== 'win32' ? statSync('/dev/null') : undefined;
    return nul !== undefined && nul.rdev === kind.rdev;
  } catch {
    return false;
  }
}
