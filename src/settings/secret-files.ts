// The files a run's secrets and trust come from: the token file (--token-file, SCPCTL_TOKEN_FILE) and the
// CA file (--ca-cert): a regular file or a pipe, capped, strictly UTF-8; a pipe a run has already read on
// the event loop is taken from there (CommandContext.preloadPipes).
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { AuthError, UsageError } from '../errors.js';
import { decodeUtf8 } from '../core/utf8.js';
import { givenTokenSource } from './token-source.js';

/** Reads up to one byte past `maxBytes`, so that the caller can tell a file that is too large. */
function readCapped(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (let read = 1; read > 0 && length <= maxBytes; length += read) {
      read = readSync(fd, buffer, length, buffer.length - length, null);
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * Pipes a run has already read on the event loop, by path (CommandContext.preloadPipes): a FIFO can be read
 * only once, and reading it here would block. The run's own, handed in, never a module's.
 */
export type PreloadedPipes = ReadonlyMap<string, Buffer>;

export function tokenFilePath(flags: { tokenFile?: string }, env: NodeJS.ProcessEnv): string | undefined {
  const given = givenTokenSource(flags, env);
  return given?.kind === 'env' ? undefined : given?.path;
}

/** A token is short: anything past this is not a token file (or is /dev/zero), and is refused before reading. */
export const MAX_TOKEN_FILE_BYTES = 64 * 1024;

export function readTokenFile(path: string, origin: string, pipes?: PreloadedPipes): string {
  if (path.trim() === '') throw new UsageError(`${origin}: the value is empty`);
  const token = readSmallTextFile(path, origin, 'token file', MAX_TOKEN_FILE_BYTES, pipes).trim();
  if (token === '') throw new AuthError(`${origin}: the token file ${path} is empty`);
  return token;
}

/**
 * Reads a small settings file (a token, a CA certificate): a regular file of at most `maxBytes` of UTF-8.
 * Devices and huge files are refused rather than read, so `--token-file /dev/zero` cannot hang.
 */
export function readSmallTextFile(path: string, origin: string, what: string, maxBytes: number, pipes?: PreloadedPipes): string {
  try {
    const stats = statSync(path);
    if (!stats.isFile() && !stats.isFIFO()) throw new UsageError(`${origin}: ${path} is not a regular file or a pipe`);
    const tooLarge = new UsageError(`${origin}: the ${what} ${path} is larger than ${maxBytes / 1024} KiB`);
    if (stats.size > maxBytes) throw tooLarge; // a regular file says its size (a pipe's is 0)
    // A pipe, as `--token-file <(pass show scpctl)` makes: read to its end, but never past the cap.
    const bytes = stats.isFIFO() ? (pipes?.get(path) ?? readCapped(path, maxBytes)) : readFileSync(path);
    if (bytes.length > maxBytes) throw tooLarge;
    return decodeUtf8(bytes, path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${origin}: cannot read the ${what} ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** CA bundles run to a few hundred KiB; 4 MiB leaves room and still refuses a device or a wrong file. */
export const MAX_CA_FILE_BYTES = 4 * 1024 * 1024;

/** A CA file's PEM text: readable, a regular file or a pipe, under 4 MiB, and holding a certificate. */
export function readCaFile(path: string, origin: string, pipes?: PreloadedPipes): string {
  const pem = readSmallTextFile(path, origin, 'CA file', MAX_CA_FILE_BYTES, pipes);
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`${origin}: ${path} holds no PEM certificate`);
  return pem;
}
