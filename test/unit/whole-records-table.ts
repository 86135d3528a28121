// A report table drawn whole, as `report` without --all draws one: one page of the streamed table, and its end.
import { streamTableWriter } from '../../src/output/records-table.js';
import type { ReportRecord } from '../../src/output/records.js';
import type { SecretMask } from '../../src/core/secrets.js';

export async function renderRecordsTable(
  records: readonly ReportRecord[],
  width: number,
  color = false,
  mask?: SecretMask,
): Promise<{ text: string; hidden: string[] }> {
  const hidden: string[] = [];
  const writer = await streamTableWriter(width, color, undefined, (columns) => hidden.push(...columns), mask);
  return { text: writer.page(records) + writer.end(), hidden };
}
