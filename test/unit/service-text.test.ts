// Text from the service made safe to show (src/core/service-text.ts), and the printers that use it: every
// control character made visible, the token masked before a cut, messages capped, deep JSON refused; and
// properties that random service text (any code point, controls, lone surrogates, invalid UTF-8) through
// every printer yields no ESC, BEL or C1 character on a terminal.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { anyText } from './arbitraries.js';
import { runs } from './property-runs.js';
import { PassThrough } from 'node:stream';
import { capMessage, inertToRunner, nestsDeeperThan, safeJson, visible, visibleLineBytes, visibleLines } from '../../src/core/service-text.js';
import { maskSecret } from '../../src/core/secrets.js';
import { quoteBody, readResponse } from '../../src/api/response.js';
import { checkSendable, modifyBody } from '../../src/core/wire.js';
import { renderBucketTable } from '../../src/output/bucket-table.js';
import { renderRecordsTable } from './whole-records-table.js';
import { renderChart } from '../../src/output/chart.js';
import { recordWriter } from '../../src/output/records-writer.js';
import { JsonArrayWriter, NdjsonWriter } from '../../src/output/records.js';
import type { Io } from '../../src/io.js';
import { Terminal } from '../../src/output/terminal.js';
import { ResponseError } from '../../src/errors.js';
import { caught } from './caught.js';

/** What a terminal would obey: C0 controls but the newline, DEL, C1 controls, bidi overrides, lone surrogates. */
// eslint-disable-next-line no-control-regex
const OBEYED = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const ALL_CONTROLS = [
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)),
  ...Array.from({ length: 0x21 }, (_, i) => String.fromCharCode(0x7f + i)),
];

describe('visible', () => {
  it('shows every C0 and C1 control character, DEL and ESC as an escape', () => {
    for (const char of ALL_CONTROLS) {
      const shown = visible(`a${char}b`);
      expect(shown, `U+${char.charCodeAt(0).toString(16)}`).not.toMatch(OBEYED);
      expect(shown).toMatch(/^a\\(x[0-9a-f]{2}|u00[89][0-9a-f]|[tnr])b$/);
    }
    expect(visible('\u001b[31mred\u0007')).toBe('\\x1b[31mred\\x07');
    expect(visible('\u009b2J')).toBe('\\u009b2J');
    expect(visible('tab\there\nnew\rcr')).toBe('tab\\there\\nnew\\rcr');
  });

  it('shows bidi overrides and lone surrogates, keeps pairs and ordinary text', () => {
    expect(visible('abc\u202eevil')).toBe('abc\\u202eevil');
    expect(visible('x\ud800y')).toBe('x\\ud800y');
    expect(visible('x\udc00')).toBe('x\\udc00');
    expect(visible('emoji 😀 ✓ é 中')).toBe('emoji 😀 ✓ é 中');
    expect(visible('')).toBe('');
  });

  it('is idempotent: an escape is shown as it is', () => {
    fc.assert(fc.property(anyText(), (text) => visible(visible(text)) === visible(text)));
  });

  it('visibleLines: one item a line, a newline inside an item escaped', () => {
    expect(visibleLines(['a', 'b\nc', 'd\u001b'])).toBe('a\nb\\nc\nd\\x1b');
    expect(visibleLines(['plain', 'names'])).toBe('plain\nnames');
  });
});

describe('maskSecret and quoteBody', () => {
  const token = 'tok_S3cr3t+/=Zq9"XyW\\7vU5tR';

  it('masks the raw, JSON-escaped and URL-encoded forms (either hex case)', () => {
    const forms = [token, JSON.stringify(token).slice(1, -1), encodeURIComponent(token), encodeURIComponent(token).toLowerCase(),
      new URLSearchParams({ t: token }).toString().slice(2)];
    const masked = maskSecret(`<p>${forms.join(' ')}</p>`, token);
    for (const form of forms) expect(masked).not.toContain(form);
    expect(masked).toBe(`<p>${forms.map(() => '***').join(' ')}</p>`);
  });

  it('masks before the cut: no prefix of the token survives wherever the cut falls', () => {
    for (let at = 150; at <= 210; at++) {
      const body = `${'x'.repeat(at)}${token}${'y'.repeat(400)}`;
      const quoted = quoteBody(body, token);
      expect(quoted).not.toContain(token.slice(0, 4));
      expect(quoted).toMatch(/more characters\)$/);
    }
  });

  it('leaves short tokens alone: masking "abc" would garble every message', () => {
    expect(maskSecret('abc abc', 'abc')).toBe('abc abc');
  });

  it('readResponse masks and caps a JSON error message too, but classifies the whole of it', () => {
    const message = `${'z'.repeat(5000)} ${token} still pending`;
    const error = caught(() => readResponse({ status: 409, body: JSON.stringify({ status: 'error', errors: [message] }), secret: token }, 'view p'));
    expect(error.exitCode).toBe(5);
    expect(error.message).not.toContain(token.slice(0, 4));
    expect(error.message.length).toBeLessThan(400);
  });
});

describe('capMessage', () => {
  it('cuts with a count of what was cut, never inside a surrogate pair', () => {
    expect(capMessage('short')).toBe('short');
    expect(capMessage('a'.repeat(310), 300)).toBe(`${'a'.repeat(300)}… (10 more characters cut)`);
    const cut = capMessage(`${'a'.repeat(299)}😀tail`, 300);
    expect(cut.startsWith(`${'a'.repeat(299)}…`)).toBe(true);
  });
});

describe('nestsDeeperThan', () => {
  it('finds deep nesting without recursion, and passes wide shallow answers', () => {
    // 100,000 levels: a recursive walk runs out of stack long before (about 10,000 frames).
    const depth = 100_000;
    expect(nestsDeeperThan(JSON.parse('['.repeat(depth) + ']'.repeat(depth)))).toBe(true);
    expect(nestsDeeperThan({ data: Array.from({ length: 100_000 }, (_, i) => `b-${i}`) })).toBe(false);
    // Six levels: the object, a, b, c's array, [2, …], [3].
    expect(nestsDeeperThan({ a: { b: { c: [1, [2, [3]]] } } }, 6)).toBe(false);
    expect(nestsDeeperThan({ a: { b: { c: [1, [2, [3]]] } } }, 5)).toBe(true);
    expect(nestsDeeperThan('text')).toBe(false);
  });

  it('readResponse refuses it with exit 7', () => {
    const depth = 100_000;
    const error = caught(() => readResponse({ status: 200, body: '{"data":' + '['.repeat(depth) + ']'.repeat(depth) + '}' }, 'view p'));
    expect(error).toBeInstanceOf(ResponseError);
  });
});

describe('safeJson', () => {
  it('is JSON that reads back the same value, with no raw C1 or bidi characters', () => {
    fc.assert(
      fc.property(fc.jsonValue(), anyText(), (value, text) => {
        for (const input of [value, text, { text }]) {
          const out = safeJson(input);
          expect(out).not.toMatch(OBEYED);
          expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(input)));
        }
      }),
    );
  });
});

describe('checkSendable', () => {
  it('refuses a name that a comma-joined list cannot carry (exit 7), showing it escaped', () => {
    const error = caught(() => modifyBody(['fine-name'], ['a,b']));
    expect(error.exitCode).toBe(7);
    expect(error.message).toContain('"a,b"');
    expect(caught(() => checkSendable(['x\u001by'], 'deleteList')).message).toContain('x\\x1by');
    expect(modifyBody(['a-b'], ['c-d']).toString()).toBe('{"addList":"a-b","deleteList":"c-d"}');
  });
});

// ---------- every printer, fed random service text ----------

/** Service text: any code units (controls and lone surrogates included), or invalid UTF-8 decoded as the transport does. */
const serviceText = fc.oneof(
  anyText({ maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(...ALL_CONTROLS, '\u202e', '\u2066', '\ud800', '\udfff', '[', '2', 'J', ';', ']', 'a'), maxLength: 30 }),
  fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes).toString('utf8')),
);

const records = fc.array(
  fc.dictionary(serviceText, fc.oneof(serviceText, fc.integer(), fc.constant(null), fc.array(serviceText, { maxLength: 2 })), { maxKeys: 4 }),
  { minLength: 1, maxLength: 8 },
);

/**
 * What a terminal obeys. Lone surrogates are not in it: a terminal shows them as U+FFFD (and cli-table3,
 * cutting a wide character at a column edge, can make one), which hides a character but drives nothing.
 */
// eslint-disable-next-line no-control-regex
const DRIVES_TERMINAL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('printers never hand a terminal a control character from the data', () => {
  // The printers are called without a palette: no colours of our own, so that any ESC at all would be the data's.

  it('bucket table, text lines and JSON', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(serviceText, { maxLength: 10 }), async (names) => {
        expect([...(await renderBucketTable('profile', names, 80))].join('')).not.toMatch(DRIVES_TERMINAL);
        expect(visibleLines(names)).not.toMatch(DRIVES_TERMINAL);
        // view -o text writes the names as bytes straight from the answer when none needs escaping.
        const lines = visibleLineBytes(Buffer.from(names.map((n) => n.replace(/\n/g, ' ')).join('\n'))).toString('utf8');
        expect(lines).not.toMatch(DRIVES_TERMINAL);
        expect(safeJson({ profile: 'p', count: names.length, buckets: names })).not.toMatch(DRIVES_TERMINAL);
      }),
      { numRuns: runs(200) },
    );
  });

  it('records table, chart, CSV on a terminal, JSON and NDJSON', async () => {
    await fc.assert(
      fc.asyncProperty(records, async (page) => {
        const table = await renderRecordsTable(page, 100);
        expect(table.text).not.toMatch(DRIVES_TERMINAL);
        const chart = renderChart(page.map((r, i) => ({ ...r, count: i + 1 })), 80);
        expect('text' in chart ? chart.text : chart.note).not.toMatch(DRIVES_TERMINAL);
        // CSV ends rows with CRLF, its own; nothing else may be a control character.
        const how = { csvRaw: true, isoTimes: false, laterColumns: () => () => {}, hiddenColumns: () => {} };
        const rawOnTerminal = await recordWriter({ stdoutIsTTY: true } as Terminal, 'csv', how);
        expect(rawOnTerminal.page(page).replace(/\r\n/g, '\n')).not.toMatch(DRIVES_TERMINAL);
        const array = new JsonArrayWriter();
        expect(array.page(page) + array.end()).not.toMatch(DRIVES_TERMINAL);
        expect(new NdjsonWriter().page(page)).not.toMatch(DRIVES_TERMINAL);
      }),
      { numRuns: runs(200) },
    );
  });

  it('stderr: error, detail, hint, info, warn and debug lines', () => {
    fc.assert(
      fc.property(serviceText, serviceText, (message, hint) => {
        const stderr = new PassThrough();
        let written = '';
        stderr.on('data', (chunk: Buffer) => (written += chunk.toString()));
        const io = { stdout: new PassThrough(), stderr, stdin: new PassThrough(), env: { NO_COLOR: '1' } } as unknown as Io;
        const term = new Terminal({ verbose: true }, io);
        term.error(message, { hint: `h${hint}`, details: [message] });
        term.info(message);
        term.success(message);
        term.warn(message);
        term.debug(message);
        expect(written).not.toMatch(DRIVES_TERMINAL);
        expect(written.split('\n').length).toBe(8); // seven lines, each one line whatever the text held
      }),
      { numRuns: runs(300) },
    );
  });
});

describe('invisible format characters (category Cf) are made visible too', () => {
  it.each([
    ['zero-width space', 'alpha-data\u200b', 'alpha-data\\u200b'],
    ['zero-width joiner and LRM', 'a\u200db\u200e', 'a\\u200db\\u200e'],
    ['word joiner', 'x\u2060y', 'x\\u2060y'],
    ['byte-order mark inside', 'x\ufeffy', 'x\\ufeffy'],
    ['soft hyphen', 'pay\u00adroll', 'pay\\u00adroll'],
    ['Arabic letter mark', 'x\u061cy', 'x\\u061cy'],
    ['a tag character beyond U+FFFF', 'x\u{e0041}y', 'x\\u{e0041}y'],
  ])('%s', (_what, text, shown) => {
    expect(visible(text)).toBe(shown);
    expect(visibleLines([text, 'plain'])).toBe(`${shown}\nplain`);
    expect(visibleLineBytes(Buffer.from(`${text}\nplain`)).toString()).toBe(`${shown}\nplain`);
    const json = safeJson({ name: text });
    expect(json).not.toMatch(/[\u200b-\u200f\u2060\ufeff\u00ad\u061c]/u);
    expect(JSON.parse(json).name).toBe(text);
  });
});

describe('visibleLineBytes', () => {
  it('finds one unsafe byte wherever it stands in a long text, and passes a safe one as it is', () => {
    const plain = Buffer.from(Array.from({ length: 500 }, (_, i) => `bucket-${i}`).join('\n'));
    for (const offset of [0, 1, 2, 3]) {
      const text = Buffer.concat([Buffer.alloc(offset), plain]).subarray(offset);
      expect(visibleLineBytes(text)).toBe(text);
      for (const at of [0, 1, 2, 3, 4, 5, 1000, text.length - 2, text.length - 1]) {
        for (const [byte, shown] of [[0x07, '\\x07'], [0x7f, '\\x7f'], [0x1b, '\\x1b'], [0x00, '\\x00'], [0x0d, '\\r']] as const) {
          const bad = Buffer.from(text);
          bad[at] = byte;
          expect(visibleLineBytes(bad).toString(), `${byte} at ${at}, offset ${offset}`).toContain(shown);
        }
      }
    }
  });
});

describe('inertToRunner (what stderr says on a GitHub runner)', () => {
  /** Whether actions/runner would read `line` as a workflow command: `::` once white space is trimmed, or `##[` anywhere. */
  const obeyed = (line: string) => line.trimStart().startsWith('::') || line.includes('##[');

  it('starts no workflow command in any line, and leaves other text as it is', () => {
    const text = '::warning::a\n  ::add-mask::b\n\u00a0\t::error::c\nx ##[add-mask]d\nscpctl: a:b::c is fine\n';
    const shown = inertToRunner(text);
    expect(shown.split('\n').filter(obeyed)).toEqual([]);
    expect(shown).toBe('\\u003a:warning::a\n  \\u003a:add-mask::b\n\u00a0\t\\u003a:error::c\nx #\\u0023[add-mask]d\nscpctl: a:b::c is fine\n');
    fc.assert(fc.property(anyText(), (s) => inertToRunner(visible(s)).split('\n').every((line) => !obeyed(line))), { numRuns: runs(200) });
  });
});
