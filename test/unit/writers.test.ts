// One writer per kind of data draws every format its kind declares (output/formats.ts): a format declared
// for a kind that no writer draws would be a usage accepted and then a crash.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/io.js';
import { FORMATS } from '../../src/output/formats.js';
import { recordWriter } from '../../src/output/records-writer.js';
import { Terminal } from '../../src/output/terminal.js';
import { changeOutput, checksOutput, planOutput, writeBucketList, writeDryRunBody, writeListing } from '../../src/output/writers.js';

function terminal(): { term: Terminal; stdout: () => string; stderr: () => string } {
  const [out, err] = [new PassThrough(), new PassThrough()];
  let [stdout, stderr] = ['', ''];
  out.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  err.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const io = { stdout: out, stderr: err, stdin: new PassThrough(), env: { NO_COLOR: '1' } } as unknown as Io;
  return { term: new Terminal({}, io), stdout: () => stdout, stderr: () => stderr };
}

const listing = { head: ['ID', 'COUNT'], rows: [['a', '7'], ['bb', '12']], right: new Set([1]), value: [{ id: 'a', count: 7 }, { id: 'bb', count: 12 }] };

describe('writers', () => {
  it('a listing: the heading only in a table, aligned columns, JSON of its value', async () => {
    const drawn: Record<string, string> = {};
    for (const format of FORMATS.listing) {
      const { term, stdout } = terminal();
      await writeListing(term, format, listing);
      drawn[format] = stdout();
    }
    expect(drawn).toEqual({ table: 'ID  COUNT\na       7\nbb     12\n', text: 'a    7\nbb  12\n', json: '[{"id":"a","count":7},{"id":"bb","count":12}]\n' });
  });

  it('a listing with no rows says so on stderr as a table or text, and prints [] as JSON', async () => {
    for (const format of FORMATS.listing) {
      const { term, stdout, stderr } = terminal();
      await writeListing(term, format, { head: ['ID'], rows: [], empty: 'nothing kept', value: [] });
      expect([stdout(), stderr().trim()]).toEqual(format === 'json' ? ['[]\n', ''] : ['', 'nothing kept']);
    }
  });

  it('a bucket list reads only the shape its format draws from', async () => {
    for (const format of FORMATS.bucketList) {
      const read: string[] = [];
      const { term, stdout } = terminal();
      await writeBucketList(term, format, {
        profile: 'p',
        lines: async () => (read.push('lines'), Buffer.from('one\ntwo')),
        names: async () => (read.push('names'), ['one', 'two']),
      });
      expect(read).toEqual([format === 'json' ? 'names' : 'lines']);
      expect(stdout()).toContain('two');
    }
  });

  it('staged kinds: lines in the formats that show them, the data at the end in the others, never both', async () => {
    const kinds = [
      ['change', changeOutput, () => ({ applied: true })],
      ['plan', planOutput, { json: async function* () { yield '{"profiles":[]}\n'; }, markdown: () => ['## plan\n'] }],
      ['checks', checksOutput, { ok: true }],
    ] as const;
    for (const [kind, make, data] of kinds) {
      for (const format of FORMATS[kind]) {
        const { term, stdout } = terminal();
        const output = make(term, format) as { showsLines: boolean; lines(p: () => Iterable<string>): void; end(d: unknown): Promise<void> };
        output.lines(() => ['+ line\n']);
        await output.end(data);
        if (output.showsLines) expect(stdout(), `${kind} -o ${format}`).toBe('+ line\n');
        else expect(stdout(), `${kind} -o ${format}`).toMatch(format === 'markdown' ? /^## plan\n$/ : /^\{.*\}\n$/);
      }
    }
  });

  it("a dry run's body: exactly the wire's JSON text as JSON, nothing on stdout otherwise", async () => {
    for (const format of FORMATS.change) {
      const { term, stdout } = terminal();
      await writeDryRunBody(term, format, { profile: 'p', operation: 'appendToBucketList', body: Buffer.from('{"list":"a,b"}') });
      expect(stdout()).toBe(format === 'json' ? '{"profile":"p","operation":"appendToBucketList","dryRun":true,"body":{"list":"a,b"}}\n' : '');
    }
  });

  it('records: every format has a writer', async () => {
    const how = { csvRaw: false, isoTimes: false, laterColumns: () => () => {}, hiddenColumns: () => {} };
    for (const format of FORMATS.records) {
      const { term } = terminal();
      const writer = await recordWriter(term, format, how);
      expect(writer.page([{ a: 1 }]) + writer.end(), format).toContain('1');
    }
  });
});
