// The library of contract section 14, in this process against the emulator in both of its error styles:
// each call's result, each failure's kind and exit code, the token masked in every message, and nothing
// written to stdout or stderr by any of it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, ScpctlError, BucketList } from '../../src/library/index.js';
import type { Scpctl } from '../../src/library/public.js';
import { execa } from 'execa';
import { ERROR_STYLES, BIN, TOKEN, envFor, removeDir, startEmulator, tempDir, until, type Emulator } from './harness.js';

const writes = { stdout: vi.spyOn(process.stdout, 'write'), stderr: vi.spyOn(process.stderr, 'write') };
let dir: string;

beforeAll(() => {
  dir = tempDir('scpctl-library-');
  writes.stdout.mockClear();
  writes.stderr.mockClear();
});
afterAll(() => {
  removeDir(dir);
  // Every call of this file, failures included, wrote nothing: the library never prints.
  expect(writes.stdout).not.toHaveBeenCalled();
  expect(writes.stderr).not.toHaveBeenCalled();
  vi.restoreAllMocks();
});

/** The failure a call ends in, as a ScpctlError (a call that succeeds fails the test). */
async function failure(call: () => Promise<unknown>): Promise<ScpctlError> {
  try {
    await call();
  } catch (error) {
    expect(error).toBeInstanceOf(ScpctlError);
    return error as ScpctlError;
  }
  throw new Error('the call did not fail');
}

describe.each(ERROR_STYLES)('the library against the emulator ($name)', ({ args }) => {
  let emu: Emulator;
  let scp: Scpctl;
  let state: string;

  beforeAll(async () => {
    emu = await startEmulator(['--profile', 'finance=alpha-data,bravo-logs', '--profile', 'legal=c-docs', '--page-cap', '7', '--events', '60', ...args]);
    state = join(dir, `state-${args.length}`);
    scp = await connect({ baseUrl: emu.url, token: emu.token, stateDir: state, retries: 0 });
  });
  afterAll(async () => {
    await scp.close();
    await emu.stop();
  });

  it('view gives a BucketList: size, names, has, iterable, lines, wire, fingerprint, diff', async () => {
    const list = await scp.buckets.view('finance');
    expect(list).toBeInstanceOf(BucketList);
    expect([list.size, list.names(), list.has('bravo-logs'), list.has('nope'), [...list]]).toEqual([2, ['alpha-data', 'bravo-logs'], true, false, ['alpha-data', 'bravo-logs']]);
    expect([list.lines(), list.wire()]).toEqual(['alpha-data\nbravo-logs\n', 'alpha-data,bravo-logs']);
    await emu.setProfile('legal', ['bravo-logs', 'alpha-data', 'alpha-data']);
    expect((await scp.buckets.view('legal')).fingerprint()).toBe(list.fingerprint());
    expect(list.diff(['alpha-data', 'c-new'])).toEqual({ add: ['c-new'], delete: ['bravo-logs'] });
    expect(list.diff(await scp.buckets.view('legal'))).toEqual({ add: [], delete: [] });
  });

  it('append, delete, replace and modify send one request each, and the guarded ones keep the list read', async () => {
    await emu.setProfile('finance', ['alpha-data', 'bravo-logs']);
    const appended = await scp.buckets.append('finance', 'charlie-x,delta-y charlie-x');
    expect(appended).toMatchObject({ operation: 'appendToBucketList', sent: { list: ['charlie-x', 'delta-y'] }, response: { status: 'success' } });
    await scp.buckets.delete('finance', ['delta-y']);
    await scp.buckets.modify('finance', { add: ['echo-z'], delete: ['charlie-x'] });
    expect((await emu.profile('finance')).buckets).toEqual(['alpha-data', 'bravo-logs', 'echo-z']);
    await scp.buckets.replace('finance', ['alpha-data']);
    expect((await emu.profile('finance')).buckets).toEqual(['alpha-data']);
    // delete, modify and replace each kept the list they read first (section 13), in the state folder given.
    const kept = join(state, 'history', 'default');
    const versions = readdirSync(join(kept, readdirSync(kept)[0]!, 'finance'));
    expect(versions.length).toBe(3);
    // A modify's result names both lists, an empty one as [], as the CLI's --json does (contract section 7).
    const added = await scp.buckets.modify('finance', { add: ['foxtrot-q'] }, { history: false });
    expect(added).toMatchObject({ operation: 'modifyBucketList', sent: { addList: ['foxtrot-q'], deleteList: [] } });
  });

  it('the service\'s failures carry their kind and exit code: notFound 4, auth 3, pending 5, protocol 7', async () => {
    const missing = await failure(() => scp.buckets.view('nope'));
    expect([missing.kind, missing.exitCode, missing.message]).toEqual(['notFound', 4, expect.stringContaining("Profile 'nope' does not exist")]);
    const wrong = await connect({ baseUrl: emu.url, token: 'not-the-token-at-all', retries: 0 });
    expect([(await failure(() => wrong.buckets.view('finance'))).kind, (await failure(() => wrong.buckets.view('finance'))).exitCode]).toEqual(['auth', 3]);
    await wrong.close();
    // Pending for a minute, then cleared: a short window could end before a loaded machine sends the append.
    await emu.setPending('legal', 60_000);
    const pending = await failure(() => scp.buckets.append('legal', ['new-name']));
    expect([pending.kind, pending.exitCode]).toEqual(['pending', 5]);
    await emu.setPending('legal', 0);
    await emu.faults([{ kind: 'status', status: 200, endpoint: 'bucket', count: 1, body: `<html>proxy error for ${TOKEN}</html>` }]);
    const garbled = await failure(() => scp.buckets.view('finance'));
    expect([garbled.kind, garbled.exitCode]).toEqual(['protocol', 7]);
    expect(garbled.message).not.toContain(TOKEN.slice(0, 6));
  });

  it('plan and apply: one modify per differing profile, the list read kept, the outcome of each', async () => {
    await emu.setProfile('finance', ['alpha-data', 'bravo-logs']);
    await emu.setProfile('legal', ['c-docs']);
    const plan = await scp.plan({ profiles: { finance: { buckets: ['alpha-data', 'new-one'] }, legal: { buckets: 'c-docs' } } });
    expect(plan.profiles.map(({ profile, add, delete: del, status }) => ({ profile, add, del, status }))).toEqual([
      { profile: 'finance', add: ['new-one'], del: ['bravo-logs'], status: 'planned' },
      { profile: 'legal', add: [], del: [], status: 'unchanged' },
    ]);
    expect(plan.hasChanges).toBe(true);
    await emu.clearRequests();
    const done = await scp.apply(plan);
    expect(done.profiles.map((p) => p.status)).toEqual(['applied', 'unchanged']);
    expect((await emu.requests()).map((r) => r.op)).toEqual(['modifyBucketList']);
    expect((await emu.profile('finance')).buckets).toEqual(['alpha-data', 'new-one']);
    const failed = await scp.plan({ profiles: { nope: { buckets: ['a-b-c'] }, finance: { buckets: ['x-y-z'] } } });
    const error = await failure(() => scp.apply(failed));
    expect([error.kind, error.exitCode, error.profiles?.map((p) => p.status)]).toEqual(['notFound', 4, ['failed', 'applied']]);
    const empty = await failure(() => scp.plan({ profiles: { finance: { buckets: [] } } }));
    expect(empty.kind).toBe('usage');
  });

  it('report: one page, or with all every page over one fixed window', async () => {
    const one: unknown[] = [];
    for await (const record of scp.report({ period: '30d', limit: 5 })) one.push(record);
    expect(one.length).toBe(5);
    await emu.clearRequests();
    let count = 0;
    for await (const record of scp.report({ period: '30d', all: true })) {
      expect(record).toEqual(expect.any(Object));
      count++;
    }
    const pages = (await emu.requests()).filter((r) => r.path.includes('report'));
    expect(count).toBeGreaterThan(7);
    // Pages of at most 7 (the cap), then the empty one that ends it.
    expect(pages.length).toBe(Math.ceil(count / 7) + 1);
    const windows = new Set(pages.map((r) => JSON.stringify([r.query.starttime, r.query.endtime, r.query.timeperiod])));
    expect(windows.size).toBe(1);
    // Paused after the first page, it has asked for the next one only: two pages at most, never all ahead.
    await emu.clearRequests();
    const paused = scp.report({ period: '30d', all: true })[Symbol.asyncIterator]();
    for (let i = 0; i < 7; i++) await paused.next();
    const asked = await until(async () => {
      const requests = await emu.requests();
      return requests.length >= 2 && requests.every((r) => r.status !== 0) && requests;
    });
    expect(asked.map((r) => r.query.skip)).toEqual(['0', '7']);
    await paused.return?.(undefined);
    const bad = await failure(async () => {
      for await (const _ of scp.report({ groupby: 'activity', type: 'user' })) void _;
    });
    expect(bad.kind).toBe('usage');
  });
});

describe('what is refused before anything is sent, and failures of no answer', () => {
  let emu: Emulator;
  let scp: Scpctl;

  beforeAll(async () => {
    emu = await startEmulator(['--profile', 'finance=alpha-data']);
    scp = await connect({ baseUrl: emu.url, token: emu.token, stateDir: join(dir, 'state-input'), retries: 0 });
  });
  afterAll(async () => {
    await scp.close();
    await emu.stop();
  });

  it('an empty result needs allowEmpty; invalid names and the 8 MiB limit fail before anything is sent (usage, 2)', async () => {
    await emu.clearRequests();
    const emptied = await failure(() => scp.buckets.delete('finance', ['alpha-data']));
    expect([emptied.kind, emptied.exitCode, emptied.message]).toEqual(['usage', 2, 'refusing to delete every bucket of finance: the list would be empty; nothing was sent']);
    expect((await failure(() => scp.buckets.replace('finance', []))).kind).toBe('usage');
    const invalid = await failure(() => scp.buckets.append('finance', ['ok-name', 'Bad_Name', '10.0.0.1']));
    expect([invalid.kind, invalid.message, invalid.details]).toEqual(['usage', '2 invalid bucket names; nothing was sent', [expect.stringMatching(/^name 2: "Bad_Name": /), expect.stringMatching(/^name 3: "10\.0\.0\.1": /)]]);
    // Two long names (no S3 rules with validate: false) make the wire list 8 MiB and one byte.
    const half = 'b'.repeat(4 * 1024 * 1024);
    const over = await failure(() => scp.buckets.append('finance', [half, half.replace(/^b/, 'c')], { validate: false }));
    expect([over.kind, over.message]).toEqual(['usage', expect.stringContaining('8,388,609 bytes')]);
    // Only the delete's read went out: the refusals sent nothing more.
    expect((await emu.requests()).map((r) => r.op)).toEqual(['viewBucketList']);
    await scp.buckets.delete('finance', ['alpha-data'], { allowEmpty: true });
    expect((await emu.profile('finance')).buckets).toEqual([]);
  });

  it('no message holds the token, whatever part of the input carries it', async () => {
    const profile = await failure(() => scp.buckets.view(` ${TOKEN}`));
    expect(profile.kind).toBe('usage');
    const asName = await failure(() => scp.buckets.append('finance', [`x${TOKEN.toLowerCase()}`]));
    for (const error of [profile, asName]) {
      expect(`${error.message}\n${error.hint ?? ''}\n${(error.details ?? []).join('\n')}\n${error.stack}`).not.toContain(TOKEN.slice(0, 6));
    }
  });

  it('no answer: network 6; an aborted signal: interrupted 130; a pending change ridden out with wait', async () => {
    await emu.setPending('finance', 100);
    expect((await scp.buckets.view('finance', { wait: 5 })).profile).toBe('finance');
    const down = await connect({ baseUrl: 'http://127.0.0.1:9', token: emu.token, retries: 0 });
    expect([(await failure(() => down.buckets.view('finance'))).kind]).toEqual(['network']);
    const stop = new AbortController();
    stop.abort();
    const stopped = await connect({ baseUrl: emu.url, token: emu.token, signal: stop.signal });
    const interrupted = await failure(() => stopped.buckets.view('finance'));
    expect([interrupted.kind, interrupted.exitCode]).toEqual(['interrupted', 130]);
  });
});

describe('the CLI over the library', () => {
  it('a view loads neither node:crypto nor node:fs/promises at start: what only a fingerprint or a kept version needs is loaded then', async () => {
    // What a run loads at start is what the bundle imports statically: a view that finds no service shows
    // it without the profiles-seen write a successful one makes (which needs node:crypto of its own).
    const preload = join(dir, 'modules.cjs');
    writeFileSync(preload, "process.on('exit', () => process.stderr.write('loaded: ' + process.moduleLoadList.filter((m) => /crypto|fs\\/promises/.test(m)).join(' ') + '\\n'));\n");
    const args = ['--require', preload, BIN, 'buckets', 'view', 'finance', '--wait', '1', '--base-url', 'http://127.0.0.1:9', '--retries', '0'];
    const run = await execa(process.execPath, args, { env: envFor(undefined, join(dir, 'cli-config'), { SCPCTL_TOKEN: TOKEN }), extendEnv: false, reject: false });
    expect(run.exitCode).toBe(6);
    expect(run.stderr.split('\n').at(-1)).toBe('loaded: ');
  });
});

describe('plan and apply keep to the client-side rate (SCPCTL_RATE from the env given)', () => {
  it('no two requests of a plan closer than the rate allows', async () => {
    const emu = await startEmulator(['--profile', 'p-one=a-data', '--profile', 'p-two=a-data', '--profile', 'p-three=a-data']);
    const scp = await connect({ baseUrl: emu.url, token: emu.token, env: { SCPCTL_RATE: '1/0.1' }, historyKeep: 0 });
    try {
      await scp.plan({ profiles: { 'p-one': { buckets: ['a-data'] }, 'p-two': { buckets: ['a-data'] }, 'p-three': { buckets: ['a-data'] } } });
      const times = (await emu.requests()).map((r) => r.time);
      expect(times.length).toBe(3);
      // One request a window of 100 ms: arrivals at least about that far apart (the emulator stamps arrival).
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(90);
    } finally {
      await scp.close();
      await emu.stop();
    }
  });
});

describe('connect() resolves as the CLI does', () => {
  it('from the environment and the config store; an unknown context and an empty SCPCTL_TOKEN are refused', async () => {
    const emu = await startEmulator(['--profile', 'finance=alpha-data']);
    try {
      const config = join(dir, 'config');
      mkdirSync(config, { recursive: true });
      writeFileSync(join(config, 'config.json'), JSON.stringify({ currentContext: 'default', contexts: { prod: { baseUrl: emu.url, token: TOKEN } } }), { mode: 0o600 });
      const env = { SCPCTL_CONFIG_DIR: config, SCPCTL_STATE_DIR: join(dir, 'env-state') };
      const prod = await connect({ context: 'prod', env });
      expect([prod.context, (await prod.buckets.view('finance')).names()]).toEqual(['prod', ['alpha-data']]);
      await prod.close();
      const unknown = await failure(() => connect({ context: 'staging', env }));
      expect([unknown.kind, unknown.message]).toEqual(['usage', 'no context named "staging" (from --context); the contexts are prod']);
      const empty = await failure(() => connect({ env: { ...env, SCPCTL_BASE_URL: emu.url, SCPCTL_TOKEN: '' } }));
      expect([empty.kind, empty.exitCode, empty.message]).toEqual(['auth', 3, 'SCPCTL_TOKEN is set but empty']);
      const noUrl = await failure(() => connect({ env: { SCPCTL_CONFIG_DIR: join(dir, 'none') } }));
      expect(noUrl.kind).toBe('usage');
      // The token never crosses the network in clear text: plain http only to loopback, as in the CLI.
      const clear = await failure(() => connect({ baseUrl: 'http://service.example.com', token: TOKEN }));
      expect([clear.kind, clear.message.includes(TOKEN)]).toEqual(['usage', false]);
      expect((await failure(() => connect({ baseUrl: emu.url }))).kind).toBe('auth');
      const tokenFile = join(dir, 'token');
      writeFileSync(join(dir, 'token'), `${TOKEN}\n`);
      const byFile = await connect({ baseUrl: emu.url, tokenFile });
      expect((await byFile.buckets.view('finance')).size).toBe(1);
      await byFile.close();
      expect(existsSync(join(dir, 'env-state'))).toBe(false);
    } finally {
      await emu.stop();
    }
  });
});
