// Many contexts at once (contract section 16): the patterns, the runner and its exit-code rule
// (core/fan-out.ts), and the labelled output (output/labelled.ts, the records' writer).
import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { DifferencesFound, NotFoundError, PendingError, UsageError } from '../../src/errors.js';
import { chooseContexts, fanOut, fanOutExitCode, parseContextPatterns, parseParallel, refuseOneTenantVariables } from '../../src/core/fan-out.js';
import { LabelledStdout, labelledStderr } from '../../src/output/labelled.js';
import { recordWriter } from '../../src/output/records-writer.js';
import { writeBucketList } from '../../src/output/writers.js';
import { Terminal } from '../../src/output/terminal.js';
import { caught } from './caught.js';

const CONTEXTS = ['staging', 'prod-us', 'prod-eu', 'prod-eu2', 'qa'];
const choose = (text: string) => chooseContexts(parseContextPatterns(text), CONTEXTS);

describe('context patterns', () => {
  it('globs with * and ?, ! excludes, in context-name order; only exclusions start from all', () => {
    expect(choose('*')).toEqual(['prod-eu', 'prod-eu2', 'prod-us', 'qa', 'staging']);
    expect(choose('prod-*,!prod-eu?')).toEqual(['prod-eu', 'prod-us']);
    expect(choose('qa, prod-e?')).toEqual(['prod-eu', 'qa']);
    expect(choose('!staging,!qa')).toEqual(['prod-eu', 'prod-eu2', 'prod-us']);
    expect(choose('staging,staging')).toEqual(['staging']);
  });

  it('a pattern that names nothing (an exclusion too: a typo must not leave a tenant in) is a usage error listing the contexts', () => {
    const error = caught(() => choose('prod-*,!stagign'));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe('--contexts: "!stagign" matches no context; the contexts are prod-eu, prod-eu2, prod-us, qa, staging');
    expect((caught(() => chooseContexts(parseContextPatterns('*'), [])) as Error).message).toMatch(/there are no contexts yet/);
    expect((caught(() => choose('qa,!qa')) as Error).message).toMatch(/the exclusions leave no context/);
  });

  it('refuses what is not a glob over context names: classes, braces, paths, empty words', () => {
    for (const text of ['prod-[ab]', '{a,b}', '../x', 'a,,b', '!', '', 'a b', 'x'.repeat(65)]) {
      expect(caught(() => parseContextPatterns(text)), text).toBeInstanceOf(UsageError);
    }
    // Every regular-expression character but the two wildcards is refused, so none can reach the RegExp.
    expect(caught(() => parseContextPatterns('a+'))).toBeInstanceOf(UsageError);
    expect(parseContextPatterns('a.b')[0]!.matches('aXb')).toBe(false);
  });

  it('--parallel is 1 to 32, default 4', () => {
    expect(parseParallel(undefined)).toBe(4);
    expect(parseParallel('1')).toBe(1);
    expect(parseParallel('32')).toBe(32);
    for (const bad of ['0', '33', '-1', '2.5', 'four', '']) expect(caught(() => parseParallel(bad)), bad).toBeInstanceOf(UsageError);
  });

  it('a token or base URL in the environment is refused, naming the variable; a blank base URL is unset', () => {
    expect((caught(() => refuseOneTenantVariables({ SCPCTL_TOKEN: '' })) as Error).message).toMatch(/^--contexts cannot go with SCPCTL_TOKEN:/);
    expect((caught(() => refuseOneTenantVariables({ SCPCTL_TOKEN_FILE: '/run/t' })) as Error).message).toMatch(/SCPCTL_TOKEN_FILE/);
    expect((caught(() => refuseOneTenantVariables({ SCPCTL_BASE_URL: 'https://x' })) as Error).message).toMatch(/SCPCTL_BASE_URL/);
    expect(() => refuseOneTenantVariables({ SCPCTL_BASE_URL: ' ', SCPCTL_CONTEXT: 'x' })).not.toThrow();
  });
});

describe('the runner', () => {
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('at most `parallel` at once; outcomes in the contexts order whatever order they end in', async () => {
    let running = 0;
    let most = 0;
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const outcomes = await fanOut(names, { parallel: 2 }, async (name, index) => {
      most = Math.max(most, ++running);
      for (let i = 0; i < 6 - index; i++) await tick();
      running--;
      return name.toUpperCase();
    });
    expect(most).toBe(2);
    expect(outcomes.map((o) => (o.status === 'ok' ? o.value : o.status))).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
  });

  it('a failure does not stop the others; with failFast no context starts after it', async () => {
    const work = async (name: string) => {
      await tick();
      if (name === 'b') throw new PendingError('change pending on finance');
      return name;
    };
    const all = await fanOut(['a', 'b', 'c'], { parallel: 1 }, work);
    expect(all.map((o) => o.status)).toEqual(['ok', 'failed', 'ok']);
    const fast = await fanOut(['a', 'b', 'c', 'd'], { parallel: 1, failFast: true }, work);
    expect(fast.map((o) => o.status)).toEqual(['ok', 'failed', 'skipped', 'skipped']);
  });

  it("the exit code: the first failing context's in name order, else 8 when any differed, else 0", async () => {
    const differs = (error: unknown) => error instanceof DifferencesFound;
    const run = (plan: Record<string, Error | undefined>) =>
      fanOut(Object.keys(plan), { parallel: 4, differs }, async (name) => {
        // the later context fails first in time: the order of names decides, not of failures
        await new Promise((resolve) => setTimeout(resolve, name === 'a' ? 5 : 0));
        if (plan[name]) throw plan[name];
      }).then(fanOutExitCode);
    expect(await run({ a: new NotFoundError('no profile'), b: new PendingError('pending') })).toBe(4);
    expect(await run({ a: new DifferencesFound('d'), b: new PendingError('pending') })).toBe(5);
    expect(await run({ a: new DifferencesFound('d'), b: undefined })).toBe(8);
    expect(await run({ a: undefined, b: undefined })).toBe(0);
    expect(await run({ a: new Error('boom'), b: undefined })).toBe(1);
  });
});

describe('labelled output', () => {
  const collect = (format: string, labels: string[]) => {
    let text = '';
    const warnings: string[] = [];
    const out = new LabelledStdout((piece) => (text += piece), format, labels, (message) => warnings.push(message));
    return { out, text: () => text, warnings };
  };

  it('text: CONTEXT<TAB>line, each context whole, in name order, though they write interleaved; the first goes out live', () => {
    const { out, text } = collect('text', ['alpha', 'bravo']);
    out.write(1, 'b-one\nb-t');
    out.write(0, 'a-one\n');
    expect(text()).toBe('alpha\ta-one\n');
    out.write(1, 'wo\n');
    out.end(1);
    expect(text()).toBe('alpha\ta-one\n');
    out.write(0, Buffer.from('a-two'));
    out.end(0);
    out.finish();
    expect(text()).toBe('alpha\ta-one\nalpha\ta-two\nbravo\tb-one\nbravo\tb-two\n');
  });

  it('held output beyond the budget waits in a file, masked a whole line at a time, and comes out in order', () => {
    const writes: Array<[number, string]> = [[2, 'c-one\nc-tw'], [1, 'b-one\nb-SEC'], [0, 'a-one\n'], [1, 'RET-x\nb-ï'], [2, 'o\n'], [1, 'ïve\n'], [0, 'a-two\n']];
    const play = (chars?: number) => {
      let text = '';
      const masked: string[] = [];
      let most = 0;
      const mask = (piece: string) => (masked.push(piece), piece.replace('b-SECRET', '***'));
      const out = new LabelledStdout((piece) => (text += piece), 'text', ['a', 'b', 'c'], () => {}, { chars, mask });
      for (const [index, piece] of writes) {
        out.write(index, Buffer.from(piece));
        most = Math.max(most, out.heldInMemory);
      }
      for (const index of [2, 0, 1]) out.end(index);
      out.finish();
      return { text, masked, most };
    };
    const whole = play();
    const bounded = play(8);
    expect(bounded.most).toBeLessThanOrEqual(8);
    expect(whole.most).toBeGreaterThan(8);
    expect(bounded.text.replace('***', 'b-SECRET')).toBe(whole.text);
    expect(whole.text).toBe('a\ta-one\na\ta-two\nb\tb-one\nb\tb-SECRET-x\nb\tb-ïïve\nc\tc-one\nc\tc-two\n');
    // Only whole lines reach the file, so a token split between two writes is masked whole before it rests there.
    expect(bounded.masked.length).toBeGreaterThan(0);
    expect(bounded.masked.every((piece) => piece.endsWith('\n'))).toBe(true);
    expect(bounded.masked.join('')).toContain('b-SECRET-x\n');
  });

  it('a UTF-8 character split between two writes stays whole', () => {
    const { out, text } = collect('text', ['a']);
    const bytes = Buffer.from('naïve\n');
    out.write(0, bytes.subarray(0, 3));
    out.write(0, bytes.subarray(3));
    out.end(0);
    expect(text()).toBe('a\tnaïve\n');
  });

  it('markdown: each context under a heading of its name, the Markdown itself untouched', () => {
    const { out, text } = collect('markdown', ['prod', 'qa']);
    out.write(1, '| b |\n');
    out.write(0, '| a |\n|---|\n');
    out.end(0);
    out.end(1);
    expect(text()).toBe('## prod\n\n| a |\n|---|\n## qa\n\n| b |\n');
  });

  it('table: the lines behind a first column of names, padded to the widest', () => {
    const { out, text } = collect('table', ['a', 'bravo']);
    out.write(0, '┌──┐\n│x │\n');
    out.end(0);
    out.write(1, '└──┘\n');
    out.end(1);
    expect(text()).toBe('a      ┌──┐\na      │x │\nbravo  └──┘\n');
    expect(out.labelColumns).toBe(7);
  });

  it("json: every context's objects (a line each, the context first: the writers') in one array; none is []", () => {
    const { out, text } = collect('json', ['a', 'b', 'c']);
    out.write(0, '{"context":"a","n":1}\n{"context":"a",');
    out.write(2, '{"context":"c"}\n');
    out.end(2);
    out.write(0, '"n":2}\n');
    out.end(0);
    out.finish();
    expect(text()).toBe('[\n{"context":"a","n":1},\n{"context":"a","n":2},\n{"context":"c"}\n]\n');
    const none = collect('json', ['a']);
    none.out.finish();
    expect(none.text()).toBe('[]\n');
  });

  it('json among many contexts: an object drawn from its value with the context first, a line', async () => {
    let stdout = '';
    const out = new Writable({ write: (chunk, _encoding, done) => ((stdout += String(chunk)), done()) }) as unknown as NodeJS.WriteStream;
    const term = new Terminal({ label: 'prod' }, { stdout: out, stderr: sink(), stdin: process.stdin, env: {} });
    await writeBucketList(term, 'json', { profile: 'p', lines: () => Promise.resolve(['a']), names: () => Promise.resolve(['a', 'b']) });
    expect(stdout).toBe('{"context":"prod","profile":"p","count":2,"buckets":["a","b"]}\n');
  });

  it('csv: one header; a quoted cell holding newlines stays in its record; a later header that differs is said', () => {
    const { out, text, warnings } = collect('csv', ['a', 'b', 'c']);
    out.write(0, 'context,x\r\na,"line one\r\nline two"\r\n');
    out.end(0);
    out.write(1, 'context,x\r\nb,"say ""hi"""\r\n');
    out.end(1);
    out.write(2, 'context,y\r\nc,1\r\n');
    out.end(2);
    expect(text()).toBe('context,x\r\na,"line one\r\nline two"\r\nb,"say ""hi"""\r\ncontext,y\r\nc,1\r\n');
    expect(warnings).toEqual([expect.stringMatching(/^c: its columns differ/)]);
    // A column name holding a line break: the header is its whole first record.
    const split = collect('csv', ['a', 'b']);
    split.out.write(0, 'context,"x\r\ny"\r\na,1\r\n');
    split.out.end(0);
    split.out.write(1, 'context,"x\r\ny"\r\nb,2\r\n');
    split.out.end(1);
    expect(split.text()).toBe('context,"x\r\ny"\r\na,1\r\nb,2\r\n');
    expect(split.warnings).toEqual([]);
  });

  it("records carry the context first; a record's own `context` cannot pass for another tenant's", async () => {
    const term = new Terminal({ label: 'prod' }, { stdout: sink(), stderr: sink(), stdin: process.stdin, env: {} });
    const how = { csvRaw: false, isoTimes: false, laterColumns: () => () => {}, hiddenColumns: () => {} };
    const writer = await recordWriter(term, 'ndjson', how);
    const lines = writer.page([{ user: 'u1' }, { context: 'staging', user: 'u2' }]).trim().split('\n').map((line) => JSON.parse(line));
    expect(lines).toEqual([{ context: 'prod', user: 'u1' }, { context: 'prod', user: 'u2', _context: 'staging' }]);
    expect(Object.keys(lines[1]!)[0]).toBe('context');
    // JSON's a line each: labelled.ts puts every context's in one array.
    const json = (await recordWriter(term, 'json', how)).page([{ user: 'u1' }, { context: 'staging' }]);
    expect(json).toBe('{"context":"prod","user":"u1"}\n{"context":"prod","_context":"staging"}\n');
    const csv = await recordWriter(term, 'csv', how);
    expect(csv.page([{ user: 'u1' }])).toMatch(/^context,user\r\nprod,u1\r\n$/);
  });

  it('stderr: each line labelled and written whole; live, a part line (a question) at once', () => {
    let text = '';
    const target = { write: (piece: string) => ((text += piece), true) } as unknown as NodeJS.WritableStream;
    const whole = labelledStderr('prod', target, false, {});
    whole.stream.write('one\ntw');
    expect(text).toBe('prod: one\n');
    whole.stream.write('o\nthree');
    whole.flush();
    expect(text).toBe('prod: one\nprod: two\nprod: three\n');
    text = '';
    const live = labelledStderr('qa', target, true, { isTTY: true });
    live.stream.write('Remove 1 name? [y/N] ');
    expect(text).toBe('qa: Remove 1 name? [y/N] ');
    live.stream.write('y\nnext\n');
    expect(text).toBe('qa: Remove 1 name? [y/N] y\nqa: next\n');
  });
});

function sink(): NodeJS.WriteStream {
  return new Writable({ write: (_chunk, _encoding, done) => done() }) as unknown as NodeJS.WriteStream;
}
