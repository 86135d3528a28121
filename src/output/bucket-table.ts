// The terminal view of a bucket list: a numbered table under a title with the profile and its count.
import { PLAIN, drawTable } from './table-draw.js';
import { visible } from '../core/service-text.js';
import { NO_COLOUR, type Palette } from './palette.js';
import { textWidth, truncate } from './text.js';

/** Borders and padding of the two columns. */
const OVERHEAD = 7;

/** The title and the table, as chunks of text to write one after another (a big list is drawn as it goes). */
export async function renderBucketTable(profile: string, buckets: readonly string[], columns: number, paint: Palette = NO_COLOUR): Promise<Iterable<string>> {
  const title = `${paint.bold(profile)}: ${buckets.length} bucket${buckets.length === 1 ? '' : 's'}\n`;
  if (buckets.length === 0) return [title];
  const numberWidth = String(buckets.length).length;
  // A long (unvalidated) name is cut rather than breaking the layout; the widest name sizes the column.
  const cap = Math.max(10, columns - numberWidth - OVERHEAD);
  let widest = 'bucket'.length;
  let plain = true;
  for (const bucket of buckets) {
    const name = truncate(visible(bucket), cap);
    widest = Math.max(widest, textWidth(name));
    plain &&= PLAIN.test(name);
  }
  const table = await drawTable({
    head: ['#', 'bucket'],
    widths: [numberWidth, Math.min(widest, cap)],
    aligns: ['right', 'left'],
    rowCount: buckets.length,
    row: (i) => [String(i + 1), truncate(visible(buckets[i]!), cap)],
    plain,
    color: paint.enabled,
  });
  return (function* () {
    yield title;
    yield* table; // drawn as it is written: only one chunk of lines is alive at a time
  })();
}
