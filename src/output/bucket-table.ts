// The terminal view of a bucket list: a numbered table under a title with the profile and its count.
import { paint } from './terminal.js';
import { truncate } from './text.js';
import { visible } from '../core/service-text.js';

/** cli-table3 is loaded here, when a table is drawn, so that no other command pays for it. */
export async function renderBucketTable(profile: string, names: readonly string[], columns: number): Promise<string> {
  const { default: Table } = await import('cli-table3');
  // Names come from the service: shown, never obeyed, and measured as shown.
  const buckets = names.map(visible);
  const title = `${paint.bold(profile)}: ${buckets.length} bucket${buckets.length === 1 ? '' : 's'}`;
  if (buckets.length === 0) return `${title}\n`;
  const numberWidth = String(buckets.length).length;
  // Borders and padding take 7 columns; a long (unvalidated) name is cut rather than breaking the layout.
  const nameWidth = Math.max(10, Math.min(Math.max(...buckets.map((b) => b.length)), columns - numberWidth - 7));
  const table = new Table({
    head: ['#', 'bucket'],
    colAligns: ['right', 'left'],
    style: { head: paint.enabled ? ['cyan'] : [], border: paint.enabled ? ['grey'] : [] },
  });
  buckets.forEach((bucket, i) => table.push([String(i + 1), truncate(bucket, nameWidth)]));
  return `${title}\n${table.toString()}\n`;
}
