// Every table and chart masks a cell whole before it cuts it (contract 13): a cut token would keep its start.
import { describe, expect, it } from 'vitest';
import { secretMask } from '../../src/core/secrets.js';
import { describeInvalidNames, quoteName } from '../../src/core/names.js';
import { renderBucketTable } from '../../src/output/bucket-table.js';
import { renderChart } from '../../src/output/chart.js';
import { palette } from '../../src/output/palette.js';
import { streamTableWriter } from '../../src/output/records-table.js';
import { renderRecordsTable } from './whole-records-table.js';

const TOKEN = 'tok_S3cr3t+/=Zq9XyW7vU5tR';
const mask = secretMask([TOKEN]);
const joined = (chunks: Iterable<string | Buffer>): string => Buffer.concat([...chunks].map((c) => (typeof c === 'string' ? Buffer.from(c) : c))).toString('utf8');

function expectNoStart(text: string): void {
  expect(text).not.toContain(TOKEN.slice(0, 6));
  expect(text.toLowerCase()).not.toContain(TOKEN.slice(0, 6).toLowerCase());
}

describe('the mask runs before a cell is cut', () => {
  it('a bucket table at 70 columns, drawn from names and from the answer\'s bytes (600 names, in colour)', async () => {
    const name = `${'x'.repeat(46)}${TOKEN}`;
    const fromNames = joined(await renderBucketTable('prod', ['alpha-data', name], 70, palette(false), mask));
    expect(fromNames).toContain(`${'x'.repeat(46)}***`);
    expectNoStart(fromNames);
    const many = [...Array.from({ length: 600 }, (_, i) => `bucket-${i}`), name.toUpperCase()];
    const fromBytes = joined(await renderBucketTable('prod', Buffer.from(many.join('\n')), 70, palette(true), mask));
    expect(fromBytes).toContain(`${'X'.repeat(46)}***`);
    expectNoStart(fromBytes);
  });

  it('a report table on a narrow screen: cells and headers', async () => {
    const records = [{ url: `https://files.example/dl?token=${TOKEN}&x=1`, [`k-${TOKEN}`]: 1 }];
    const table = await renderRecordsTable(records, 50, false, mask);
    expect(table.text).toContain('?token=***');
    expectNoStart(table.text + table.hidden.join(' '));
  });

  it('report --all as a table: a later page cut to the first page\'s widths', async () => {
    const writer = await streamTableWriter(Number.POSITIVE_INFINITY, false, undefined, undefined, mask);
    const text = writer.page([{ url: 'https://files.example/dl?token=short-and-dull-value-here' }]) + writer.page([{ url: `https://files.example/dl?token=${TOKEN}&x=1` }]) + writer.end();
    expect(text).toContain('?token=***&x=1');
    expectNoStart(text);
  });

  it('a chart: labels and the title', () => {
    const drawn = renderChart([{ [`app ${TOKEN}`]: `https://files.example/dl?token=${TOKEN}`, count: 3 }], 40, undefined, undefined, mask);
    expect('text' in drawn && drawn.text).toContain('https://files.example/dl?token=***'.slice(0, 12));
    expectNoStart('text' in drawn ? drawn.text : drawn.note);
  });

  it('a name quoted in a message (cut to 80 characters): an invalid name, a saved plan\'s, a history version\'s', () => {
    const name = `${'x'.repeat(70)}${TOKEN.toUpperCase()}`;
    expect(quoteName(name, [TOKEN])).toBe(JSON.stringify(`${'x'.repeat(70)}***`));
    const lines = describeInvalidNames({ invalid: [{ where: 'list.txt:3', name, reason: 'upper-case letters are not allowed' }], invalidCount: 1 }, [TOKEN]);
    expectNoStart(lines.join('\n'));
  });
});
