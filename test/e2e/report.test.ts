// `report`, end to end: whole commands against the emulator, checking what went on the wire (or that
// nothing did), every format, the usage errors, error answers and paging with --all.
import { beforeEach, describe, expect, it } from 'vitest';
import { scpctl, spawnScpctl, type Emulator, type RecordedRequest, useEmulator, until, ndjson } from './harness.js';

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
useEmulator(['--events', '3000', '--seed', '7'], (suite) => ({ emu, dir, env } = suite));
beforeEach(async () => {
  await emu.clearFaults();
  await emu.clearRequests();
});

const run = (args: string[], extra: Parameters<typeof scpctl>[1] = {}) => scpctl(['report', ...args], { env, ...extra });

async function reportRequests(): Promise<RecordedRequest[]> {
  return (await emu.requests()).filter((r) => r.path === '/api/v1/report');
}

async function onlyRequest(): Promise<RecordedRequest> {
  const requests = await reportRequests();
  expect(requests).toHaveLength(1);
  return requests[0]!;
}

// The 7-day application events of seed 7: several pages of 100, and not a whole number of them.
const WINDOW = ['--period', '7d', '--type', 'application'];
let windowTotal: number;
async function totalOfWindow(): Promise<number> {
  if (windowTotal === undefined) {
    const r = await run([...WINDOW]);
    windowTotal = JSON.parse(r.stdout).length;
    expect(windowTotal).toBeGreaterThan(300);
    expect(windowTotal % 100).not.toBe(0);
  }
  return windowTotal;
}

describe('the request', () => {
  it('with no flags: the last 24h, said on stderr; the token in the body, not the URL', async () => {
    const r = await run([]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('no time window given: using the last 24h (--period 24h)');
    const req = await onlyRequest();
    expect(req.method).toBe('POST');
    expect(req.query).toEqual({ timeperiod: '86400' });
    expect(req.query).not.toHaveProperty('token');
    expect(JSON.parse(req.body)).toEqual({ token: '***' }); // the log keeps no token; the emulator accepted it
  });

  it('--quiet keeps the default-window note off stderr', async () => {
    const r = await run(['-q']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('sends every flag, and only those', async () => {
    const r = await run([
      '--type', 'alert', '--groupby', 'activity',
      '--start', '2024-05-01T10:00:00Z', '--end', '1714600000',
      '--insertion-start', '1714000000', '--insertion-end', '1715000000',
      '--query', 'app eq Dropbox', '--where', 'user=alice@example.com', '--where', 'device=LAPTOP-0001',
      '--alert-type', 'dlp', '--limit', '50', '--skip', '5',
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    const req = await onlyRequest();
    expect(req.query).toEqual({
      type: 'alert',
      groupby: 'activity',
      starttime: '1714557600',
      endtime: '1714600000',
      insertionstarttime: '1714000000',
      insertionendtime: '1715000000',
      query: 'app eq Dropbox and user eq alice@example.com and device eq LAPTOP-0001 and alert_type eq dlp',
      limit: '50',
      skip: '5',
    });
    expect(JSON.parse(req.body)).toEqual({ token: '***' }); // the log keeps no token; the emulator accepted it
  });

  it.each([
    [['--period', '1h'], { timeperiod: '3600' }],
    [['--period', '30d'], { timeperiod: '2592000' }],
    [['--period', '604800'], { timeperiod: '604800' }],
    [['--type', 'network', '--period', '24h'], { type: 'network', timeperiod: '86400' }],
    [['--groupby', 'device', '--period', '24h'], { groupby: 'device', timeperiod: '86400' }],
    [['--insertion-start', '1714000000'], { insertionstarttime: '1714000000' }],
    [['--period', '7d', '--alert-type', 'policy'], { timeperiod: '604800', query: 'alert_type eq policy' }],
    [['--period', '7d', '--limit', '9999'], { timeperiod: '604800', limit: '9999' }],
    [['--period', '7d', '--skip', '0'], { timeperiod: '604800', skip: '0' }],
  ])('%j', async (args, query) => {
    const r = await run(args);
    expect(r.exitCode).toBe(0);
    expect((await onlyRequest()).query).toEqual(query);
  });

  it('a relative --start ends now: a window of that length', async () => {
    const before = Math.floor(Date.now() / 1000);
    const r = await run(['--start', '2h ago']);
    expect(r.exitCode).toBe(0);
    const { starttime, endtime, ...rest } = (await onlyRequest()).query;
    expect(rest).toEqual({});
    expect(Number(endtime) - Number(starttime)).toBe(7200);
    expect(Number(endtime)).toBeGreaterThanOrEqual(before);
  });

  it('URL-encodes the query: quotes, spaces, & + = % # arrive as sent', async () => {
    const r = await run(['--period', '7d', '--where', 'application=Google Drive', '--where', 'user=a+b&c=d%20#x', '--verbose']);
    expect(r.exitCode).toBe(0);
    expect((await onlyRequest()).query.query).toBe("application eq 'Google Drive' and user eq a+b&c=d%20#x");
    // Percent-encoding with %20 for spaces (RFC 3986), never "+", which strict servers read as a plus sign.
    expect(r.stderr).toContain("/api/v1/report?timeperiod=604800&query=application%20eq%20%27Google%20Drive%27%20and%20user%20eq%20a%2Bb%26c%3Dd%2520%23x ");
  });

  it('a quoted --where value matches events whose value has a space', async () => {
    const r = await run(['--period', '30d', '--where', 'application=Google Drive', '-o', 'ndjson']);
    expect(r.exitCode).toBe(0);
    const records = ndjson(r.stdout);
    expect(records.length).toBeGreaterThan(0);
    expect(new Set(records.map((e) => e.application))).toEqual(new Set(['Google Drive']));
  });
});

describe('formats', () => {
  const GROUPED = ['--type', 'application', '--groupby', 'application', '--period', '7d', '--limit', '5'];

  it('piped, a JSON array by default; --json and -o json the same', async () => {
    const piped = await run(GROUPED);
    expect(piped.exitCode).toBe(0);
    const records = JSON.parse(piped.stdout);
    expect(records).toHaveLength(5);
    expect(Object.keys(records[0])).toEqual(['application', 'count']);
    for (const flags of [['--json'], ['-o', 'json']]) expect((await run([...GROUPED, ...flags])).stdout).toBe(piped.stdout);
  });

  it('-o ndjson: one record a line', async () => {
    const json = JSON.parse((await run(GROUPED)).stdout);
    const r = await run([...GROUPED, '-o', 'ndjson']);
    expect(r.stdout.split('\n')).toHaveLength(6);
    expect(ndjson(r.stdout)).toEqual(json);
  });

  it('-o csv: a header, CRLF, RFC 4180 quoting', async () => {
    const json = JSON.parse((await run(GROUPED)).stdout) as Array<{ application: string; count: number }>;
    const r = await run([...GROUPED, '-o', 'csv']);
    const quote = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
    expect(r.stdout).toBe(['application,count', ...json.map((e) => `${quote(e.application)},${e.count}`)].join('\r\n') + '\r\n');
  });

  it('-o csv of events: the union of keys as the header', async () => {
    const args = ['--period', '30d', '--limit', '200'];
    const [header] = (await run([...args, '-o', 'csv'])).stdout.split('\r\n');
    const records = JSON.parse((await run(args)).stdout) as Array<Record<string, unknown>>;
    // An alert comes after other events, so its alert_type column comes after bytes: first seen, first placed.
    expect(Object.keys(records[0]!)).not.toContain('alert_type');
    expect(records.some((e) => 'alert_type' in e)).toBe(true);
    expect(header).toBe('timestamp,insertion_time,type,application,user,device,activity,bytes,request_id,alert_type');
  });

  it('-o table: a table fitted to 80 columns, numbers right-aligned', async () => {
    const r = await run([...GROUPED, '-o', 'table']);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[1]).toMatch(/^│ application\s+│ count │$/);
    expect(lines).toHaveLength(5 + 4);
    expect(lines[3]).toMatch(/^│ \S.*\s│\s+\d+ │$/);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
  });

  it('-o table into a pipe is never narrowed: every column, every cell whole (19-digit IDs too)', async () => {
    const args = ['--period', '30d', '--type', 'alert', '--limit', '20'];
    const json = (await run([...args, '-o', 'json'])).stdout;
    const records = JSON.parse(json) as Array<Record<string, unknown>>;
    const bigIds = json.match(/\b\d{19}\b/g) ?? [];
    expect(bigIds.length).toBeGreaterThan(0);
    const r = await run([...args, '-o', 'table']);
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(20 + 4);
    expect(r.stderr).not.toMatch(/not shown/);
    expect(r.stdout).not.toContain('…');
    const header = lines[1]!;
    for (const column of Object.keys(records[0]!)) expect(header).toContain(` ${column} `);
    for (const id of bigIds) expect(r.stdout).toContain(id);
    for (const record of records) {
      for (const value of Object.values(record)) if (typeof value === 'string') expect(r.stdout).toContain(value);
    }
  });

  it('--chart: the table, then bars of the count, even when piped', async () => {
    const json = JSON.parse((await run(GROUPED)).stdout) as Array<{ application: string; count: number }>;
    for (const flags of [['--chart'], ['--chart', '-o', 'table']]) {
      const r = await run([...GROUPED, ...flags]);
      expect(r.exitCode).toBe(0);
      const [table, chart] = r.stdout.split('\n\n');
      expect(table).toContain('│ application');
      const lines = chart!.trimEnd().split('\n');
      expect(lines[0]).toBe('count by application');
      expect(lines).toHaveLength(6);
      expect(lines[1]).toMatch(new RegExp(`^${json[0]!.application}\\s+${json[0]!.count} █+$`));
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    }
  });

  it('--chart without --groupby exits 2 before sending (ungrouped events have no count to draw)', async () => {
    await emu.clearRequests();
    const r = await run(['--period', '7d', '--limit', '3', '--chart']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^scpctl: --chart needs --groupby: it draws the count of each group\n/);
    expect(r.stdout).toBe('');
    expect(await emu.requests()).toEqual([]);
  });

  it('--chart of a grouped answer with no numeric count: the table, a note, no chart', async () => {
    await emu.faults([{ kind: 'status', status: 200, body: '{"status":"success","data":[{"user":"a@example.com","count":"many"}]}' }]);
    const r = await run(['--groupby', 'user', '--period', '7d', '--chart']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('a@example.com');
    expect(r.stdout).not.toContain('█');
    expect(r.stderr).toContain('nothing to chart: the answer has no numeric count column (columns: user, count)');
  });

  it('an empty report: [] as JSON, nothing as CSV, a note for the table', async () => {
    const empty = ['--period', '1h', '--where', 'user=nobody'];
    expect((await run(empty)).stdout).toBe('[]\n');
    expect((await run([...empty, '-o', 'ndjson'])).stdout).toBe('');
    expect((await run([...empty, '-o', 'csv'])).stdout).toBe('');
    const table = await run([...empty, '-o', 'table']);
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toBe('');
    expect(table.stderr).toContain('no records match');
  });
});

describe('usage errors: exit 2, a message, nothing sent', () => {
  it.each([
    [['--type', 'email'], /--type.*email.*Allowed choices are application, connection, alert, network/],
    [['--groupby', 'host'], /--groupby.*host/],
    [['--period', '2h'], /--period.*2h/],
    [['--groupby', 'activity'], /--groupby activity needs --type application or --type alert/],
    [['--groupby', 'activity', '--type', 'network'], /--groupby activity needs --type application or --type alert/],
    [['--period', '24h', '--start', '2h'], /--period and --start cannot be used together/],
    [['--period', '7d', '--end', '1h'], /--period and --end cannot be used together/],
    [['--end', '1h'], /--end needs --start/],
    [['--start', '1h', '--end', '2h'], /--start \(.*\) must be before --end/],
    [['--start', 'yesterday'], /--start: "yesterday" is not a time/],
    [['--start', '2h', '--end', 'later'], /--end: "later" is not a time/],
    [['--start', '1714557600000'], /looks like milliseconds/],
    [['--insertion-start', '2h'], /--insertion-start: "2h" is not a whole number/],
    [['--insertion-start', '9', '--insertion-end', '5'], /--insertion-start \(9\) must be before --insertion-end \(5\)/],
    [['--limit', '0'], /--limit: "0" is not a whole number from 1 to 9999/],
    [['--limit', '10000'], /--limit: "10000" is not a whole number from 1 to 9999/],
    [['--limit', 'many'], /--limit: "many"/],
    [['--skip', '-1'], /--skip: "-1" is not a whole number 0 or more/],
    [['--where', 'user'], /--where "user": expected FIELD=VALUE/],
    [['--where', 'user='], /--where "user=": the value is empty/],
    [['-o', 'text'], /-o text is not a format of this command; use table, json, ndjson, csv/],
    [['--groupby', 'user', '--chart', '-o', 'json'], /--chart draws under the table and cannot go with -o json/],
    [['--groupby', 'user', '--chart', '--json'], /--chart draws under the table and cannot go with -o json/],
    [['--groupby', 'user', '--chart', '-o', 'csv', '--all'], /--chart draws under the table and cannot go with -o csv/],
    [['--bogus'], /unknown option '--bogus'/],
  ])('%j', async (args, message) => {
    const r = await run(args);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/^scpctl: /);
    expect(r.stdout).toBe('');
    expect(await reportRequests()).toEqual([]);
  });
});

describe('error answers', () => {
  it('a rejected token: exit 3', async () => {
    const r = await scpctl(['report', '--period', '1h'], { env: { ...env, SCPCTL_TOKEN: 'wrong-token' } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/^scpctl: .*token/i);
    expect(r.stdout).toBe('');
  });

  it('an HTTP 401: exit 3', async () => {
    await emu.faults([{ kind: 'status', status: 401, endpoint: 'report' }]);
    const r = await run(['--period', '1h']);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe('');
  });

  it('a 429 with Retry-After: 1 is waited out, then the report comes', async () => {
    await emu.faults([{ kind: 'status', status: 429, headers: { 'Retry-After': '1' }, endpoint: 'report', count: 1 }]);
    const r = await run(['--period', '24h', '--groupby', 'user', '--verbose']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('retrying in 1.0 s: HTTP 429');
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
    expect((await reportRequests()).map((q) => q.status)).toEqual([429, 200]);
  });

  it('an answer of the wrong shape: exit 7', async () => {
    await emu.faults([{ kind: 'wrong-shape', endpoint: 'report' }]);
    const r = await run(['--period', '1h']);
    expect(r.exitCode).toBe(7);
  });

  it('the service refusing a parameter: its message, exit 1', async () => {
    const r = await run(['--period', '1h', '--query', 'color eq red']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("unknown field 'color'");
  });
});

describe('--all', () => {
  it('pages with --limit through every record, as one JSON array', async () => {
    const total = await totalOfWindow();
    await emu.clearRequests();
    const r = await run([...WINDOW, '--all', '--limit', '100']);
    expect(r.exitCode).toBe(0);
    const records = JSON.parse(r.stdout);
    expect(records).toHaveLength(total);
    expect(new Set(records.map((e: object) => JSON.stringify(e))).size).toBe(total);
    const pages = Math.ceil(total / 100);
    const requests = await reportRequests();
    // Paging ends only at an empty page: one more request than pages of records.
    expect(requests.map((q) => [q.query.limit, q.query.skip])).toEqual(
      Array.from({ length: pages + 1 }, (_, i) => ['100', String(Math.min(i * 100, total))]),
    );
    for (const q of requests) expect(q.query).not.toHaveProperty('token');
    expect(r.stderr).toContain(`✔ ${total} records in ${pages} pages`);
  });

  it('--chart with --all: the table as the pages come, then the bars of every page\'s counts', async () => {
    const grouped = ['--type', 'application', '--groupby', 'application', '--period', '7d'];
    const once = JSON.parse((await run(grouped)).stdout) as Array<{ count: number }>;
    expect(once.length).toBeGreaterThan(2);
    const r = await run([...grouped, '--chart', '--all', '--limit', '2']);
    expect(r.exitCode).toBe(0);
    const [table, chart] = r.stdout.split('\n\n');
    expect(table).toContain('│ application');
    expect(table!.trimEnd().split('\n')).toHaveLength(once.length + 4);
    const bars = chart!.trimEnd().split('\n');
    expect(bars[0]).toBe('count by application');
    expect(bars).toHaveLength(once.length + 1);
    expect(r.stderr).toContain(`✔ ${once.length} records in ${Math.ceil(once.length / 2)} pages`);
  });

  it('streams ndjson and csv with the same records', async () => {
    const total = await totalOfWindow();
    const json = JSON.parse((await run([...WINDOW])).stdout);
    const nd = await run([...WINDOW, '--all', '--limit', '100', '-o', 'ndjson']);
    expect(ndjson(nd.stdout)).toEqual(json);
    const csv = await run([...WINDOW, '--all', '--limit', '100', '-o', 'csv']);
    const rows = csv.stdout.split('\r\n');
    expect(rows.pop()).toBe('');
    expect(rows).toHaveLength(total + 1);
    expect(rows[0]).toBe('timestamp,insertion_time,type,application,user,device,activity,bytes,request_id');
  });

  it('without --limit pages by 9999, starting at --skip', async () => {
    const total = await totalOfWindow();
    await emu.clearRequests();
    const r = await run([...WINDOW, '--all', '--skip', '10', '-o', 'ndjson']);
    expect(r.exitCode).toBe(0);
    expect(ndjson(r.stdout)).toHaveLength(total - 10);
    expect((await reportRequests()).map((q) => q.query)).toMatchObject([
      { limit: '9999', skip: '10' },
      { limit: '9999', skip: String(total) },
    ]);
  });

  it('a page ending exactly on the page size takes one more, empty, request', async () => {
    const r = await run(['--period', '7d', '--groupby', 'activity', '--type', 'alert', '--all', '--limit', '3']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(6);
    expect((await reportRequests()).map((q) => q.query.skip)).toEqual(['0', '3', '6']);
  });

  it('csv: keys that only later pages bring are left out of the rows, with a warning', async () => {
    const r = await run(['--period', '24h', '--all', '--limit', '10', '-o', 'csv']);
    expect(r.exitCode).toBe(0);
    const rows = r.stdout.split('\r\n').slice(0, -1);
    expect(rows[0]).toBe('timestamp,insertion_time,type,application,user,device,activity,bytes,request_id');
    for (const row of rows) expect(row.split(',')).toHaveLength(9);
    expect(r.stderr).toContain('later records bring column alert_type, not in the CSV header: left out (-o ndjson keeps every key)');
  });

  it('a service that ignores skip is not paged forever: exit 7, the array closed', async () => {
    const body = '{"status":"success","data":[{"a":1},{"a":2}]}';
    await emu.faults([{ kind: 'status', status: 200, body, endpoint: 'report', count: 5 }]);
    const r = await run(['--period', '1h', '--all', '--limit', '2']);
    expect(r.exitCode).toBe(7);
    expect(JSON.parse(r.stdout)).toEqual([{ a: 1 }, { a: 2 }]);
    expect(r.stderr).toContain('the service sent the same page again at --skip 2; it may ignore skip');
    expect(r.stderr).toMatch(/resume with --start \d+ --end \d+ --skip 2/);
  });

  it('a page longer than the limit is refused: exit 7', async () => {
    await emu.faults([{ kind: 'status', status: 200, body: '{"data":[{"a":1},{"a":2},{"a":3}]}', endpoint: 'report' }]);
    const r = await run(['--period', '1h', '--all', '--limit', '2']);
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('the service sent 3 records for limit 2');
  });

  it('-o table streams the pages into one table framed by the first page', async () => {
    const r = await run([...WINDOW, '--groupby', 'user', '--all', '--limit', '10', '-o', 'table']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.match(/^┌/gm)).toHaveLength(1);
    expect(r.stdout.match(/^└/gm)).toHaveLength(1);
    const lines = r.stdout.trimEnd().split('\n');
    // Every line as wide as the first: later pages are drawn in the first page's widths.
    for (const line of lines) expect([...line].length).toBe([...lines[0]!].length);
    const users = new Set(JSON.parse((await run([...WINDOW, '--groupby', 'user'])).stdout).map((u: { user: string }) => u.user));
    expect(lines.length - 4).toBe(users.size);
    expect((await reportRequests()).length).toBeGreaterThan(2);
  });

  it('a page failing after its retries: exit 6, a closed JSON array, and the --skip to resume from', async () => {
    const total = await totalOfWindow();
    await emu.faults([
      { kind: 'delay', ms: 0, endpoint: 'report', count: 2 },
      { kind: 'status', status: 500, endpoint: 'report', count: 1 },
    ]);
    await emu.clearRequests();
    const r = await run([...WINDOW, '--all', '--limit', '100', '--retries', '0']);
    expect(r.exitCode).toBe(6);
    expect(JSON.parse(r.stdout)).toHaveLength(200);
    const hint = /wrote 200 records; resume with (--start \d+ --end \d+) --skip 200/.exec(r.stderr);
    expect(hint).not.toBeNull();
    expect(r.stderr).toMatch(/^scpctl: .*HTTP 500/m);

    // The hint's absolute window: the resumed run reads the very same window.
    const rest = await run([...hint![1]!.split(' '), '--type', 'application', '--all', '--limit', '100', '--skip', '200']);
    expect(rest.exitCode).toBe(0);
    const all = [...JSON.parse(r.stdout), ...JSON.parse(rest.stdout)];
    expect(all).toEqual(JSON.parse((await run([...WINDOW])).stdout));
    expect(all).toHaveLength(total);
  });

  it('ndjson failing mid-way ends on a whole record', async () => {
    await emu.faults([
      { kind: 'delay', ms: 0, endpoint: 'report', count: 1 },
      { kind: 'reset', endpoint: 'report', count: 1 },
    ]);
    const r = await run([...WINDOW, '--all', '--limit', '100', '--retries', '0', '-o', 'ndjson']);
    expect(r.exitCode).toBe(6);
    expect(r.stdout.endsWith('}\n')).toBe(true);
    expect(ndjson(r.stdout)).toHaveLength(100);
    expect(r.stderr).toMatch(/resume with --start \d+ --end \d+ --skip 100/);
  });

  it('the first page failing leaves stdout empty', async () => {
    await emu.faults([{ kind: 'status', status: 503, endpoint: 'report', count: 1 }]);
    const r = await run([...WINDOW, '--all', '--retries', '0']);
    expect(r.exitCode).toBe(6);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('resume');
  });

  it('Ctrl-C between pages closes the JSON array and says where to resume', async () => {
    await emu.faults([
      { kind: 'delay', ms: 0, endpoint: 'report', count: 1 },
      { kind: 'delay', ms: 20_000, endpoint: 'report', count: 1 },
    ]);
    const child = spawnScpctl(['report', ...WINDOW, '--all', '--limit', '100'], { env });
    await until(async () => (await reportRequests()).length >= 2);
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(JSON.parse(String(r.stdout))).toHaveLength(100);
    expect(String(r.stderr)).toMatch(/wrote 100 records; resume with --start \d+ --end \d+ --skip 100/);
    expect(String(r.stderr)).toContain('scpctl: interrupted');
  });
});
