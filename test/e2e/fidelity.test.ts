// The service as it is, not as we wish (issue 11): the main commands against the emulator answering errors
// with HTTP statuses, as the real service does (HTTP 200 + "status":"error", 403 for a rejected token), and
// with report pages capped below `limit`.
import { describe, expect, it, beforeEach } from 'vitest';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { scpctl, useEmulator, TOKEN, type Emulator, ndjson } from './harness.js';

const STYLES = [
  { name: 'errors as HTTP statuses', args: [], http200: false, cap: undefined },
  { name: 'errors as HTTP 200 (the service)', args: ['--http200-errors'], http200: true, cap: undefined },
  { name: 'HTTP 200 errors and pages capped at 37', args: ['--http200-errors', '--page-cap', '37'], http200: true, cap: 37 },
] as const;

describe.each(STYLES)('against an emulator with $name', (style) => {
  let emu: Emulator;
  let dir: string;
  let env: Record<string, string | undefined>;
  useEmulator(['--profile', 'finance', '--events', '3000', ...style.args], (suite) => ({ emu, dir, env } = suite));
  const run = (args: string[], extra: Parameters<typeof scpctl>[1] = {}) => scpctl(args, { env, ...extra });
  beforeEach(async () => {
    await emu.clearFaults();
    await emu.setProfile('finance', ['alpha-one', 'bravo-two']);
    await emu.clearRequests();
  });
  const lastStatus = async () => (await emu.requests()).at(-1)!.status;

  it('the bucket commands work end to end', async () => {
    expect((await run(['buckets', 'append', 'finance', 'charlie-three'])).exitCode).toBe(0);
    expect((await run(['buckets', 'delete', 'finance', 'alpha-one'])).exitCode).toBe(0);
    expect((await run(['buckets', 'modify', 'finance', '--add', 'delta-four', '--delete', 'bravo-two'])).exitCode).toBe(0);
    expect((await run(['buckets', 'view', 'finance'])).stdout).toBe('charlie-three\ndelta-four\n');
    const file = join(dir, 'want.txt');
    writeFileSync(file, 'echo-five\ndelta-four\n');
    expect((await run(['buckets', 'sync', 'finance', '-f', file, '--verify'])).exitCode).toBe(0);
    expect((await run(['buckets', 'replace', 'finance', 'foxtrot-six'])).exitCode).toBe(0);
    expect((await emu.profile('finance')).buckets).toEqual(['foxtrot-six']);
  });

  it('a rejected token: exit 3, whatever the shape', async () => {
    const r = await run(['buckets', 'view', 'finance'], { env: { ...env, SCPCTL_TOKEN: 'wrong-token-123' } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('scpctl: viewBucketList finance: Authorization Error: Invalid token');
    expect(await lastStatus()).toBe(style.http200 ? 403 : 401);
  });

  it('a missing profile: exit 4; a pending change: exit 5, and --wait rides it out', async () => {
    const missing = await run(['buckets', 'append', 'nope', 'alpha-one']);
    expect(missing.exitCode).toBe(4);
    expect(await lastStatus()).toBe(style.http200 ? 200 : 404);
    await emu.setPending('finance', 60_000);
    const pending = await run(['buckets', 'append', 'finance', 'golf-seven']);
    expect(pending.exitCode).toBe(5);
    expect(pending.stderr).not.toContain('✔');
    await emu.setPending('finance', 400);
    const waited = await run(['buckets', 'append', 'finance', 'golf-seven', '--wait', '20']);
    expect(waited.exitCode).toBe(0);
    // Not a terminal: each try is a line on stderr, so a CI log shows why the job is waiting.
    expect(waited.stderr).toMatch(/^finance: change pending; attempt 1, waited \d+ s of 20 s, next try in [\d.]+ s$/m);
    expect((await emu.profile('finance')).buckets).toContain('golf-seven');
  });

  it('a report the service refuses: exit 1 with its words', async () => {
    const r = await run(['report', '--query', 'app eq', '-o', 'json']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^scpctl: report: Invalid Request: Invalid query/m);
    expect(r.stdout).toBe('');
  });

  it.each([
    ['{"error":"error","errors":["Invalid token"]}', 3],
    ['{"error":"error","errors":["Profile finance does not exist"]}', 4],
    ['{"error":"error","errors":["change pending on profile"]}', 5],
    ['{"error":"Internal failure"}', 1],
  ])('an answer %s to a mutation is an error (exit %i), never "applied"', async (body, code) => {
    await emu.faults([{ kind: 'status', status: 200, body, endpoint: 'bucket', op: 'appendToBucketList' }]);
    const r = await run(['buckets', 'append', 'finance', 'hotel-eight', '--json']);
    expect(r.exitCode).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('✔');
    expect(r.stderr.split('\n')[0]).toMatch(/^scpctl: appendToBucketList finance: /);
  });

  it('an empty answer to a mutation is exit 7 and says it may have been applied, once', async () => {
    await emu.faults([{ kind: 'empty', endpoint: 'bucket', op: 'replaceBucketList' }]);
    const r = await run(['buckets', 'replace', 'finance', 'india-nine']);
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain('; the change may have been applied');
    expect(r.stderr).toContain('hint: Check with: scpctl buckets view finance');
    expect(r.stderr.match(/have been applied/g)).toHaveLength(1);
    expect(r.stderr.match(/Check with/g)).toHaveLength(1);
    expect(r.stderr).not.toContain('✔');

    // Every command that changes a list says it the same way: sync's modify too.
    await emu.faults([{ kind: 'empty', endpoint: 'bucket', op: 'modifyBucketList' }]);
    const want = join(dir, 'want-empty.txt');
    writeFileSync(want, 'juliet-ten\n');
    const synced = await run(['buckets', 'sync', 'finance', '-f', want]);
    expect(synced.exitCode).toBe(7);
    expect(synced.stderr.match(/; the change may have been applied/g)).toHaveLength(1);
    expect(synced.stderr).toContain('hint: Check with: scpctl buckets view finance. Sending the same change again is safe.');
  });

  it('report --all pages to an empty page over one fixed window, whatever the page cap', async () => {
    const grouped = JSON.parse((await run(['report', '--type', 'application', '--period', '7d', '--groupby', 'activity', '-o', 'json'])).stdout);
    const total = grouped.reduce((sum: number, g: { count: number }) => sum + g.count, 0);
    expect(total).toBeGreaterThan(100);
    await emu.clearRequests();
    const r = await run(['report', '--type', 'application', '--period', '7d', '--all', '-o', 'ndjson', '--verbose']);
    expect(r.exitCode).toBe(0);
    const records = ndjson(r.stdout);
    expect(records).toHaveLength(total);
    expect(new Set(records.map((e) => String(e.request_id))).size).toBe(total);
    const requests = (await emu.requests()).filter((q) => q.path.endsWith('/report'));
    const cap = style.cap ?? 9999;
    expect(requests).toHaveLength(Math.ceil(total / cap) + 1);
    requests.forEach((q, i) => {
      expect(q.query).not.toHaveProperty('timeperiod');
      expect([q.query.starttime, q.query.endtime]).toEqual([requests[0]!.query.starttime, requests[0]!.query.endtime]);
      expect(q.query.skip).toBe(String(Math.min(i * cap, total)));
    });
    expect(Number(requests[0]!.query.endtime) - Number(requests[0]!.query.starttime)).toBe(604_800);
    expect(r.stderr).toMatch(/window fixed for every page: starttime=\d+ \(.*Z\) endtime=\d+/);
    expect(r.stderr).toContain(`✔ ${total} records in ${Math.ceil(total / cap)} page`);
  });

  it('19-digit IDs come out digit for digit in json, ndjson, csv and tables', async () => {
    const raw = await (
      await fetch(`${emu.url}/api/v1/report?type=network&timeperiod=86400`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: TOKEN }),
      })
    ).text();
    const ids = [...raw.matchAll(/"request_id":(\d+)/g)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(3);
    expect(ids.every((id) => id.length === 19)).toBe(true);
    expect(ids.some((id) => String(Number(id)) !== id)).toBe(true); // JSON.parse would lose digits

    const base = ['report', '--type', 'network', '--period', '24h', '--all'];
    const json = await run([...base, '-o', 'json']);
    expect([...json.stdout.matchAll(/"request_id":(\d+)/g)].map((m) => m[1])).toEqual(ids);
    const nd = await run([...base, '-o', 'ndjson']);
    expect([...nd.stdout.matchAll(/"request_id":(\d+)/g)].map((m) => m[1])).toEqual(ids);
    const csv = (await run([...base, '-o', 'csv'])).stdout.split('\r\n');
    const column = csv[0]!.split(',').indexOf('request_id');
    expect(csv.slice(1, -1).map((row) => row.split(',')[column])).toEqual(ids);
    const table = await run([...base, '-o', 'table'], { env: { ...env, COLUMNS: '300' } });
    for (const id of ids) expect(table.stdout).toContain(id);
  });

  it('report --all: a record that is not JSON deep in a page is exit 7 worded as without --all, the token masked', async () => {
    // 300 records, the 280th with `tru` for true and the token beside it: past the first slice of 250 that
    // report --all builds and writes, so the slice reader meets it after writing.
    const records = Array.from({ length: 300 }, (_, i) => (i === 279 ? `{"app":"bad","count":tru,"x":"${TOKEN}"}` : `{"app":"a${i}","count":${i}}`));
    const body = `{"status":"success","msg":"","data":[${records.join(',')}]}`;
    const fault = { kind: 'status', status: 200, body, endpoint: 'report', count: 2 };
    await emu.faults([fault]);
    const plain = await run(['report', '--groupby', 'application', '-o', 'ndjson', '--retries', '0']);
    const paged = await run(['report', '--groupby', 'application', '--all', '-o', 'ndjson', '--retries', '0']);
    await emu.clearFaults();
    expect(plain.exitCode).toBe(7);
    expect(paged.exitCode).toBe(7);
    expect(paged.stderr.split('\n')[0]).toBe(plain.stderr.split('\n')[0]);
    expect(paged.stderr).not.toContain('unexpected failure');
    expect(paged.stderr).not.toContain(TOKEN.slice(0, 8));
    // what was written is whole records, and the resume hint counts them
    const written = ndjson(paged.stdout);
    expect(paged.stderr).toContain(`--skip ${written.length}`);
  });

  it('--checkpoint: complete runs leave no gap and no overlap; a failed run moves nothing and is repeated', async () => {
    const file = join(dir, `cp-${style.cap ?? 'x'}-${style.http200}.json`);
    const base = ['report', '--type', 'application', '--all', '--checkpoint', file, '-o', 'ndjson'];
    const first = await run([...base, '--start', '5d', '--lag', String(3 * 86_400)]);
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toContain('first run for');
    const one = JSON.parse(readFileSync(file, 'utf8'));
    expect(one.kind).toBe('scpctl-report-checkpoint');

    // A failed run: the checkpoint is not moved, and stderr says the window will be repeated.
    await emu.faults([{ kind: 'status', status: 503, endpoint: 'report', count: 1 }]);
    const failed = await run([...base, '--lag', String(86_400), '--retries', '0']);
    expect(failed.exitCode).toBe(6);
    expect(failed.stderr).toContain('the checkpoint was not moved');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(one);

    const second = await run([...base, '--lag', String(86_400)]);
    expect(second.exitCode).toBe(0);
    expect(second.stderr).toContain(`continuing from ${file}`);
    const two = JSON.parse(readFileSync(file, 'utf8'));
    expect(two.start).toBe(one.end);

    const got = [...ndjson(first.stdout), ...ndjson(second.stdout)].map((e) => String(e.request_id));
    const whole = await run(['report', '--type', 'application', '--all', '-o', 'ndjson', '--start', String(one.start), '--end', String(two.end)]);
    const want = ndjson(whole.stdout).map((e) => String(e.request_id));
    expect(want.length).toBeGreaterThan(0);
    expect(got.length).toBe(want.length); // no overlap
    expect(new Set(got)).toEqual(new Set(want)); // no gap

    // Within the lag there is nothing new: nothing is sent and the file stays.
    await emu.clearRequests();
    const again = await run([...base, '--lag', String(86_400 + 3600)]);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain('nothing to fetch yet');
    expect(await emu.requests()).toEqual([]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(two);
  });
});

describe('--checkpoint usage', () => {
  let env: Record<string, string | undefined>;
  let dir: string;
  let emu: Emulator;
  useEmulator([], (suite) => ({ emu, dir, env } = suite));

  it.each([
    [['--checkpoint', 'cp.json'], '--checkpoint needs --all'],
    [['--all', '--checkpoint', 'cp.json', '--end', '1h'], '--end cannot go with --checkpoint'],
    [['--all', '--checkpoint', 'cp.json', '--period', '7d'], '--period cannot go with --checkpoint'],
    [['--all', '--checkpoint', 'cp.json', '--lag', 'soon'], '--lag: "soon" is not a whole number'],
    [['--all', '--lag', '60'], '--lag goes with --checkpoint FILE'],
  ])('%j is exit 2 and sends nothing', async (args, words) => {
    await emu.clearRequests();
    const r = await scpctl(['report', ...args], { env, cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(words);
    expect(await emu.requests()).toEqual([]);
  });

  it('a checkpoint of another report, or a file that is not one, is exit 2 and is left alone', async () => {
    const file = join(dir, 'alerts.json');
    expect((await scpctl(['report', '--type', 'alert', '--all', '--checkpoint', file, '-o', 'ndjson'], { env })).exitCode).toBe(0);
    const before = readFileSync(file, 'utf8');
    const other = await scpctl(['report', '--type', 'network', '--all', '--checkpoint', file, '-o', 'ndjson'], { env });
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain('belongs to another report (type=alert), not this one (type=network)');
    expect(readFileSync(file, 'utf8')).toBe(before);
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, 'not json');
    const bad = await scpctl(['report', '--all', '--checkpoint', junk], { env });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(`--checkpoint ${junk}: the file is not JSON`);
  });

  it('a checkpoint whose folder is missing: exit 2 before any request (contract section 7), no records', async () => {
    const file = join(dir, 'no-such-folder', 'cp.json');
    const r = await scpctl(['report', '--type', 'alert', '--all', '--checkpoint', file, '-o', 'ndjson'], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`scpctl: --checkpoint ${file}: its folder ${join(dir, 'no-such-folder')} does not exist; nothing was sent`);
    expect(existsSync(file)).toBe(false);
  });
});
