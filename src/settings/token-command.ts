// A context's tokenCommand (contract section 16), as git's credential helpers and AWS's credential_process:
// argv words from the config store (never from a manifest, a plan or the environment), run without a shell,
// with no standard input (scpctl's own may be a list being piped in), 10 s at most; the first line of its
// stdout is the token. Every line it prints on stdout is taken for a secret, so a failure's message, which
// quotes its stderr, masks them all, and the caller adds them to the run's mask.
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { join, posix, win32 } from 'node:path';
import type { Readable } from 'node:stream';
import { AuthError, UsageError } from '../errors.js';
import { maskSecret } from '../core/secrets.js';
import { capMessage, visible } from '../core/service-text.js';
import { describeTokenSource } from './token-source.js';
import { ownGroup, stopWithItsChildren } from '../interrupt.js';

export const TOKEN_COMMAND_TIMEOUT_MS = 10_000;
/** More than any token or helper's complaint: the rest is not kept. */
const MAX_OUTPUT_BYTES = 64 * 1024;
const MAX_WORDS = 64;
/** A line of stderr that may be a token: one word of 16 characters or more. */
const LONG_WORD = /^\S{16,}$/;

/** `config set tokenCommand '["pass","show","scp/prod"]'`: a JSON array of 1 to 64 non-empty strings, no NUL. */
export function parseTokenCommand(text: string, origin = 'tokenCommand'): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const words = Array.isArray(value) ? value : [];
  const good = words.length > 0 && words.length <= MAX_WORDS && words.every((w) => typeof w === 'string' && w !== '' && !w.includes('\0') && w.length <= 4096);
  if (!good) {
    throw new UsageError(`${origin}: not a JSON array of argv words (1 to ${MAX_WORDS} non-empty strings), e.g. '["pass","show","scp/prod"]'`, {
      hint: 'It runs without a shell: each word is one argument, and no $VARIABLE, pipe or ~ is expanded.',
    });
  }
  return words as string[];
}

/**
 * The program a bare name (no `/` or `\\`) runs: looked up in PATH's absolute folders alone. Windows's spawn
 * tries the current folder first, and on POSIX an empty or relative PATH entry means it too: scpctl runs in
 * checkouts of others' pull requests, and a `pass.exe` or `op` there must not be the one run. A name with a
 * folder in it is the user's own choice, run as written. Undefined when no folder of PATH has it.
 */
export function programOf(word: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  if (/[\\/]/.test(word)) return word;
  const windows = platform === 'win32';
  // A copy of Windows's environment keeps its own spelling of the name (Path, PATH).
  const key = Object.keys(env).find((k) => (windows ? k.toUpperCase() === 'PATH' : k === 'PATH'));
  const folders = (key === undefined ? '' : (env[key] ?? '')).split(windows ? win32.delimiter : posix.delimiter);
  // Without a shell, Windows runs .com and .exe files alone.
  const names = windows && !/\.(com|exe)$/i.test(word) ? [`${word}.com`, `${word}.exe`] : [word];
  for (const folder of folders.map((f) => (windows ? f.replace(/^"(.*)"$/, '$1') : f))) {
    if (!(windows ? win32 : posix).isAbsolute(folder)) continue;
    for (const name of names) if (isProgram(join(folder, name), windows)) return join(folder, name);
  }
  return undefined;
}

function isProgram(path: string, windows: boolean): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (!windows) accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface TokenCommandRun {
  env: NodeJS.ProcessEnv;
  context: string;
  /** Tokens already known, masked in the command's stderr as well. */
  known: readonly string[];
  signal?: AbortSignal;
  /** Filled with every line it printed on stdout, success or not: the caller's mask learns them all. */
  printed: string[];
}

/** The timeout: 10 s; SCPCTL_TOKEN_COMMAND_TIMEOUT_MS is internal, for the tests alone. */
function timeoutOf(env: NodeJS.ProcessEnv): number {
  const ms = Number(env.SCPCTL_TOKEN_COMMAND_TIMEOUT_MS);
  return Number.isInteger(ms) && ms > 0 && ms <= TOKEN_COMMAND_TIMEOUT_MS ? ms : TOKEN_COMMAND_TIMEOUT_MS;
}

function captured(stream: Readable): () => string {
  const chunks: Buffer[] = [];
  let bytes = 0;
  stream.on('data', (chunk: Buffer) => {
    if (bytes < MAX_OUTPUT_BYTES) chunks.push(chunk);
    bytes += chunk.length;
  });
  return () => Buffer.concat(chunks).toString('utf8');
}

const trimmedLines = (text: string): string[] => text.split(/\r?\n/).map((line) => line.trim());

/** Runs the command and gives the token; exit 3 (AuthError) naming it when it fails, times out, or prints no token. */
export async function runTokenCommand(argv: readonly string[], run: TokenCommandRun): Promise<string> {
  const name = describeTokenSource({ kind: 'command', context: run.context, argv });
  const timeoutMs = timeoutOf(run.env);
  const program = programOf(argv[0]!, run.env);
  if (program === undefined) throw new AuthError(`${name} could not be run (no such command)`, { hint: `A bare name is looked for in PATH's folders alone, never the current one; name the program by its full path, or put its folder in PATH: scpctl config set tokenCommand '["ARGV","WORDS"]'` });
  const grouped = await ownGroup();
  return new Promise((resolveRun, reject) => {
    const child = spawn(program, argv.slice(1), {
      shell: false, stdio: ['ignore', 'pipe', 'pipe'], env: run.env, windowsHide: true, argv0: argv[0], detached: grouped,
    });
    const stdout = captured(child.stdout);
    const stderr = captured(child.stderr);
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      return true;
    };
    const fail = (what: string): void => {
      if (!settle()) return;
      // A token printed on stderr alone (a helper's debugging echo) cannot be told from its words, except
      // that a token is one long word: every such line of stderr is taken for one too.
      run.printed.push(...trimmedLines(stdout()).filter((line) => line !== ''));
      run.printed.push(...trimmedLines(stderr()).filter((line) => LONG_WORD.test(line)));
      // Masked first (every line it printed on stdout, every token known), then made one line and cut.
      const said = maskSecret(stderr(), [...run.printed, ...run.known]).trim();
      const quoted = said === '' ? '' : `: ${capMessage(visible(said.replace(/\s*\r?\n\s*/g, ' | ')), 300)}`;
      reject(new AuthError(`${name} ${what}${quoted}`, { hint: `Run the command yourself to see what it does, or change it: scpctl config set tokenCommand '["ARGV","WORDS"]'` }));
    };
    const timer = setTimeout(() => {
      stopWithItsChildren(child, grouped);
      child.stdout.destroy();
      child.stderr.destroy();
      fail(`did not finish within ${timeoutMs / 1000} s (stopped)`);
    }, timeoutMs);
    const onAbort = (): void => {
      stopWithItsChildren(child, grouped);
      fail('was interrupted');
    };
    run.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error: NodeJS.ErrnoException) => fail(error.code === 'ENOENT' ? 'could not be run (no such command)' : `could not be run (${error.code ?? error.message})`));
    child.on('close', (code, signal) => {
      if (settled) return;
      if (code !== 0) return fail(signal ? `was ended by ${signal}` : `exited with code ${code}`);
      const lines = trimmedLines(stdout());
      if (lines[0] === '') return fail('printed no token on its first stdout line');
      settle();
      run.printed.push(...lines.filter((line) => line !== ''));
      resolveRun(lines[0]!);
    });
  });
}
