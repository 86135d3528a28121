// `report --chart`: horizontal bars of the `count` column (no numeric count, no chart: a note says so), one
// line a record, labelled by the first non-numeric column and scaled to the terminal width.
// Bars are drawn in eighths of a character (█ ▉ ▊ ▋ ▌ ▍ ▎ ▏), so close values still look different.
//
//   count by application
//   Dropbox       1,234 ████████████████████████████████▌
//   Box             310 ████████▏
import { columnsOf, formatCell, isNumericColumn, type ReportRecord } from './records.js';
import { visible } from '../core/service-text.js';
import { NO_SECRETS, type SecretMask } from '../core/secrets.js';
import { NO_COLOUR, type Palette } from './palette.js';
import { cellWidth, cutCell } from './cell-width.js';

/** A chart, or why there is none. */
export type ChartResult = { text: string } | { note: string };

export const DEFAULT_MAX_BARS = 50;
const PARTIAL_BLOCKS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
const FULL_BLOCK = '█';
const MAX_LABEL_SHARE = 0.35;
const MIN_BAR_WIDTH = 10;

/** `mask`: the run's known tokens, masked out of every label and the title before either is cut. */
export function renderChart(records: readonly ReportRecord[], width: number, maxBars = DEFAULT_MAX_BARS, paint: Palette = NO_COLOUR, mask: SecretMask = NO_SECRETS): ChartResult {
  if (records.length === 0) return { note: 'nothing to chart: there are no records' };
  const columns = columnsOf(records);
  // Only the count: another number (bytes, a timestamp) charted in its place would mislead.
  const valueColumn = 'count';
  if (!isNumericColumn(records, valueColumn)) {
    return { note: `nothing to chart: the answer has no numeric count column (columns: ${columns.join(', ')})` };
  }
  const labelColumn = columns.find((c) => c !== valueColumn && !isNumericColumn(records, c));

  const shown = records.slice(0, maxBars);
  const labels = mask.maskEach(shown.map((record, i) => (labelColumn === undefined ? `#${i + 1}` : visible(formatCell(record[labelColumn])))));
  const rows = shown.map((record, i) => {
    const value = record[valueColumn];
    const label = labels[i]!;
    return {
      label: label === '' ? '(none)' : label,
      value: typeof value === 'number' && Number.isFinite(value) ? value : 0,
      valueText: typeof value === 'number' ? value.toLocaleString('en-US') : '',
    };
  });
  const valueWidth = Math.max(...rows.map((r) => r.valueText.length));
  // Labels in terminal columns (a wide character takes two), so that the bars start in one column.
  const longestLabel = Math.max(...rows.map((r) => cellWidth(r.label)));
  const labelWidth = Math.max(1, Math.min(longestLabel, Math.floor(width * MAX_LABEL_SHARE), width - valueWidth - 2 - MIN_BAR_WIDTH));
  const barWidth = Math.max(1, width - labelWidth - valueWidth - 2);
  const max = Math.max(0, ...rows.map((r) => r.value));

  const title = labelColumn === undefined ? valueColumn : `${valueColumn} by ${labelColumn}`;
  const more = records.length > rows.length ? ` (the first ${rows.length} of ${records.length})` : '';
  const lines = [cutCell(mask.mask(visible(title + more)), width, '…')];
  for (const row of rows) {
    const label = cutCell(row.label, labelWidth, '…');
    const padded = label + ' '.repeat(Math.max(0, labelWidth - cellWidth(label)));
    const drawn = bar(row.value, max, barWidth);
    const line = `${padded} ${row.valueText.padStart(valueWidth)}`;
    lines.push(drawn === '' ? line.trimEnd() : `${line} ${paint.cyan(drawn)}`);
  }
  return { text: lines.join('\n') + '\n' };
}

/** A bar of `value` out of `max` over `width` characters, in eighths; a positive value is never invisible. */
export function bar(value: number, max: number, width: number): string {
  if (!(value > 0) || !(max > 0)) return '';
  const eighths = Math.round((Math.min(value, max) / max) * width * 8);
  if (eighths === 0) return PARTIAL_BLOCKS[1]!;
  return FULL_BLOCK.repeat(Math.floor(eighths / 8)) + PARTIAL_BLOCKS[eighths % 8];
}
