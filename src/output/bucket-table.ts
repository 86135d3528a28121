// The terminal view of a bucket list: a numbered table under a title with the profile and its count.
import { PLAIN, ROWS_PER_CHUNK, drawTable, tableLines, widthUtils } from './table-draw.js';
import { visible } from '../core/service-text.js';
import { NO_SECRETS, type SecretMask } from '../core/secrets.js';
import { NO_COLOUR, type Palette } from './palette.js';
import { truncate } from './text.js';

/** Borders and padding of the two columns. */
const OVERHEAD = 7;
const HEAD = ['#', 'bucket'];

/**
 * The title and the table, as chunks to write one after another (a big list is drawn as it goes). The names
 * come as strings, or as the view answer's bytes one name a line (api/bucket-list-scan.ts's `lines`). Each
 * name is made visible and masked (`mask`, the run's known tokens) whole before it is measured or cut.
 */
export async function renderBucketTable(profile: string, list: Buffer | readonly string[], columns: number, paint: Palette = NO_COLOUR, mask: SecretMask = NO_SECRETS): Promise<Iterable<string | Buffer>> {
  if (Buffer.isBuffer(list)) {
    const ends = plainLineEnds(list);
    // Printable ASCII names none of which is cut (into a file or a pipe, never) are drawn from the bytes
    // (below), unless they may hold a token; anything else is drawn from the names.
    const cap = ends === undefined ? 0 : capOf(columns, String(ends.length).length);
    if (ends === undefined || ends.length === 0 || longestOf(ends) > cap || mask.mayHold(list)) {
      return renderBucketTable(profile, list.length === 0 ? [] : list.toString('utf8').split('\n'), columns, paint, mask);
    }
    return plainBucketTable(profile, list, ends, paint, await widthUtils(true));
  }
  const buckets = mask.maskEach(list.map(visible));
  const title = titleOf(profile, buckets.length, paint);
  if (buckets.length === 0) return [title];
  const numberWidth = String(buckets.length).length;
  // A long (unvalidated) name is cut rather than breaking the layout; the widest name sizes the column.
  const cap = capOf(columns, numberWidth);
  let widest = 'bucket'.length;
  const others: string[] = [];
  for (const bucket of buckets) {
    const name = truncate(bucket, cap);
    if (PLAIN.test(name)) widest = Math.max(widest, name.length);
    else others.push(name);
  }
  // The others in terminal columns, as table-draw.ts draws them (a wide character takes two): counted in code
  // points, a name of wide characters was cut even into a file, where nothing is.
  const plain = others.length === 0;
  if (!plain) {
    const { strlen } = await widthUtils(false);
    for (const name of others) widest = Math.max(widest, strlen(name));
  }
  const table = await drawTable({
    head: HEAD,
    widths: [numberWidth, Math.min(widest, cap)],
    aligns: ['right', 'left'],
    rowCount: buckets.length,
    row: (i) => [String(i + 1), truncate(buckets[i]!, cap)],
    plain,
    color: paint.enabled,
  });
  return (function* () {
    yield title;
    yield* table; // drawn as it is written: only one chunk of lines is alive at a time
  })();
}

function titleOf(profile: string, count: number, paint: Palette): string {
  return `${paint.bold(profile)}: ${count} bucket${count === 1 ? '' : 's'}\n`;
}

function capOf(columns: number, numberWidth: number): number {
  return Math.max(10, columns - numberWidth - OVERHEAD);
}

/** Where each name ends in the lines, or undefined when a byte is not printable ASCII (nor a newline). */
function plainLineEnds(lines: Buffer): number[] | undefined {
  const ends: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const byte = lines[i]!;
    if (byte === 0x0a) ends.push(i);
    else if (byte < 0x20 || byte > 0x7e) return undefined;
  }
  if (lines.length > 0) ends.push(lines.length);
  return ends;
}

/** The longest of the names that end at `ends` (plainLineEnds). */
function longestOf(ends: readonly number[]): number {
  let longest = 0;
  for (let i = 0, start = 0; i < ends.length; start = ends[i]! + 1, i++) longest = Math.max(longest, ends[i]! - start);
  return longest;
}

/**
 * The same table as drawTable draws from the names (its frame is tableLines'; a unit test compares them),
 * its rows copied from the answer's bytes, none cut: every row is then as long as the others, so a chunk is
 * the empty row repeated (one native fill) with each number and name written into it. No string a name,
 * nothing to measure or escape: 100,000 names draw in the time the text output takes.
 */
function plainBucketTable(profile: string, lines: Buffer, ends: number[], paint: Palette, ascii: Awaited<ReturnType<typeof widthUtils>>): Iterable<string | Buffer> {
  const numberWidth = String(ends.length).length;
  const width = Math.max('bucket'.length, longestOf(ends));
  const frame = tableLines({ widths: [numberWidth, width], aligns: ['right', 'left'], plain: true, color: paint.enabled }, ascii);
  const empty = Buffer.from(`${frame.bar} ${' '.repeat(numberWidth)} ${frame.bar} ${' '.repeat(width)} ${frame.bar}\n`);
  const barBytes = Buffer.byteLength(frame.bar);
  const numberEnd = barBytes + 1 + numberWidth;
  const nameAt = numberEnd + 1 + barBytes + 1;
  return (function* () {
    yield titleOf(profile, ends.length, paint) + frame.top(HEAD);
    for (let first = 0; first < ends.length; first += ROWS_PER_CHUNK) {
      const last = Math.min(ends.length, first + ROWS_PER_CHUNK);
      const out = Buffer.allocUnsafe((last - first) * empty.length).fill(empty);
      for (let i = first, row = 0, start = first === 0 ? 0 : ends[first - 1]! + 1; i < last; start = ends[i]! + 1, i++, row += empty.length) {
        digitsEndingAt(out, row + numberEnd, i + 1);
        copy(lines, start, ends[i]!, out, row + nameAt);
      }
      yield out;
    }
    yield frame.bottom();
  })();
}

// Byte loops, not Buffer#copy and #fill: for a few bytes at a time their call costs more than the copy.
function copy(from: Buffer, start: number, end: number, out: Buffer, at: number): number {
  for (let i = start; i < end; i++) out[at++] = from[i]!;
  return at;
}

/** Writes `n` in decimal so that its last digit is just before `end`. */
function digitsEndingAt(out: Buffer, end: number, n: number): void {
  let p = end;
  let rest = n;
  do {
    const next = (rest / 10) | 0;
    out[--p] = 0x30 + rest - next * 10;
    rest = next;
  } while (rest > 0);
}
