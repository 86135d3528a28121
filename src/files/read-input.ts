// Reading what the user hands in (names files, standard input, a piped token): at most 32 MiB for all the
// names of one command, so that `-f /dev/zero`, an endless pipe or a pull request's huge file is a usage
// error and not a crash (and scpctl stays under about 200 MB: a 32 MiB list peaks near 175 MB), and
// strictly UTF-8, so that a stray Latin-1 byte is reported where it stands instead of becoming U+FFFD.
import { isUtf8 } from 'node:buffer';
// node:fs's promises, reached at each call: node:fs/promises costs a command that reads no file 1 ms to load.
import { constants, openSync, promises as fsp } from 'node:fs';
import { Socket } from 'node:net';
import { UsageError } from '../errors.js';
import { decodeUtf8, refuseUtf16 } from '../core/utf8.js';

/**
 * The most the names of one command may take as read: 4 times the wire limit, room for comments, CRLF and
 * duplicates (no list the service holds can be larger than 8 MiB).
 */
export const MAX_INPUT_BYTES = 32 * 1024 * 1024;

/**
 * Standard input (a stream; `stdin` in messages) or a file (its path in messages), read whole (at most
 * `limit` bytes) and checked to be UTF-8, as bytes: their `toString()` is the text.
 */
export async function readInput(from: NodeJS.ReadableStream | string, limit = MAX_INPUT_BYTES): Promise<Buffer> {
  const source = typeof from === 'string' ? from : 'stdin';
  const bytes = typeof from === 'string' ? await readFileBytes(from, limit) : await readCapped(from, source, limit);
  refuseUtf16(bytes, source);
  // The check is native and builds no string; on failure decodeUtf8 finds the line and says it.
  if (!isUtf8(bytes)) decodeUtf8(bytes, source);
  return bytes;
}

async function readFileBytes(path: string, limit: number): Promise<Buffer> {
  // A stat that fails is open()'s to report.
  if (await fsp.stat(path).then((stats) => stats.isFIFO(), () => false)) return readFifo(path, limit);
  const handle = await fsp.open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    throw cannotRead(path, error.code);
  });
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw cannotRead(path, 'EISDIR');
    // A regular file says its size; a device or a pipe (/dev/zero, `<(cmd)`) is counted as it is read.
    if (!stat.isFile()) return await readCapped(handle.createReadStream({ autoClose: false, highWaterMark: 1024 * 1024 }), path, limit);
    if (stat.size > limit) throw overLimit(path, limit);
    return await readRegularFile(handle, stat.size, path, limit);
  } finally {
    await handle.close();
  }
}

/**
 * A regular file, read straight into one buffer of the size it says: no chunks to join (an 8 MiB list read
 * as a stream was eight 1 MiB buffers, then an 8 MiB copy). A file that grows while it is read is read on
 * until its end or the limit, as a stream would be.
 */
async function readRegularFile(handle: fsp.FileHandle, size: number, path: string, limit: number): Promise<Buffer> {
  // One byte more than it says, so that a file that has grown since is seen without another read.
  let buffer = Buffer.allocUnsafe(size + 1);
  let length = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null).catch((error: NodeJS.ErrnoException) => {
      throw cannotRead(path, error.code);
    });
    if (bytesRead === 0) return buffer.subarray(0, length);
    length += bytesRead;
    if (length > limit) throw overLimit(path, limit);
    if (length === buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit + 1));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
  }
}

/**
 * A named pipe, read on the event loop. Opening a FIFO that has no writer blocks; done the ordinary way it
 * would hold a thread that even process.exit waits for, so Ctrl-C could not stop scpctl. Opened without
 * blocking, it is watched like standard input: data when a writer sends it, the end when the writer closes.
 */
export async function readFifo(path: string, limit: number): Promise<Buffer> {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK); // returns at once, writer or not
  } catch (error) {
    throw cannotRead(path, (error as NodeJS.ErrnoException).code);
  }
  const socket = new Socket({ fd, readable: true, writable: false });
  try {
    return await readCapped(socket, path, limit);
  } finally {
    socket.destroy(); // closes the descriptor
  }
}

async function readCapped(stream: NodeJS.ReadableStream, source: string, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      total += bytes.length;
      // Leaving the loop stops the reading (the stream is destroyed): nothing past the limit is kept.
      if (total > limit) throw overLimit(source, limit);
      chunks.push(bytes);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw cannotRead(source, (error as NodeJS.ErrnoException).code);
  }
  return Buffer.concat(chunks, total);
}

function overLimit(source: string, limit: number): UsageError {
  const mib = limit / (1024 * 1024);
  const bytes = `${limit.toLocaleString('en-US')} bytes`;
  return new UsageError(`${source}: larger than the input limit of ${Number.isInteger(mib) ? `${mib} MiB (${bytes})` : bytes}`);
}

function cannotRead(path: string, code: string | undefined): UsageError {
  const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : (code ?? 'read error');
  return new UsageError(`cannot read ${path}: ${why}`);
}
