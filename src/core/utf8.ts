// Strict UTF-8 for everything scpctl reads from the user (names, tokens, certificates): a stray Latin-1
// byte is reported where it stands instead of becoming U+FFFD on the wire.
import { UsageError } from '../errors.js';

const STRICT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The bytes as text, or a usage error `SOURCE:LINE: not valid UTF-8` at the first line that is not.
 * A byte-order mark is kept: the name reader drops it.
 */
export function decodeUtf8(bytes: Uint8Array, source: string): string {
  refuseUtf16(bytes, source);
  try {
    return STRICT.decode(bytes);
  } catch {
    throw new UsageError(`${source}:${firstInvalidLine(bytes)}: not valid UTF-8`, {
      hint: 'Convert it to UTF-8 first, for example with: iconv -f LATIN1 -t UTF-8',
    });
  }
}

/** The 1-based line holding the first invalid sequence. A newline byte is never part of a multi-byte one. */
function firstInvalidLine(bytes: Uint8Array): number {
  let line = 1;
  for (let start = 0; start < bytes.length; line++) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    try {
      STRICT.decode(bytes.subarray(start, end));
    } catch {
      return line;
    }
    start = end + 1;
  }
  return line;
}

/**
 * Refuses UTF-16 (what Windows editors and PowerShell's `>` write): a byte-order mark of either order, or
 * NUL bytes between ASCII characters at the start. NUL is valid UTF-8, so without this check such a file
 * would be read as names full of NULs, each reported as invalid, with no word on why.
 */
export function refuseUtf16(bytes: Uint8Array, source: string): void {
  const [a, b, c, d] = [bytes[0], bytes[1], bytes[2], bytes[3]];
  const bom = (a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff);
  const ascii = (x: number | undefined): boolean => x !== undefined && x > 0 && x < 0x80;
  const interleaved = (ascii(a) && b === 0 && (c === undefined || (ascii(c) && d === 0))) || (a === 0 && ascii(b) && (c === undefined || (c === 0 && ascii(d))));
  if (!bom && !interleaved) return;
  const file = source === 'stdin' ? '' : ` ${source}`;
  throw new UsageError(`${source} is UTF-16; convert it: iconv -f UTF-16 -t UTF-8${file}`);
}
