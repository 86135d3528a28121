// Attacks on scpctl from the outside (issue 12): a hostile or broken service, signals, local files and
// environment variables that are traps, parallel writers, and web pages that try to drive the emulator.
// Each test is an attack; each fails on the code before the defence was built.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createProxy } from 'proxy';
import { BIN, TOKEN, useEmulator, envFor, removeDir, scpctl, spawnScpctl, startEmulator, tempDir, type Emulator, has, inTerminal as terminalRun, shellQuote as quote, until, untilOpen } from './harness.js';

/** Bytes a terminal would obey: C0 controls but newline, DEL, C1 controls (as UTF-8 code points). */
// eslint-disable-next-line no-control-regex
const OBEYED = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const HOSTILE_NAMES = ['\u001b]0;owned\u0007title', 'csi-\u009b31m-red', 'ok-name', 'rtl-\u202eevil', 'two\nlines'];

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
useEmulator(['--profile', 'finance=alpha-one,beta-two', '--profile', 'hostile', '--profile', 'commas', '--events', '25000'], (suite) => ({ emu, dir, env } = suite));
beforeAll(() => emu.setProfile('hostile', HOSTILE_NAMES));

const run = (args: string[], extra: Record<string, string | undefined> = {}) => scpctl(args, { env: { ...env, ...extra } });

/** A run in a 120-column pseudo-terminal, without colours, so that every escape in the output came from data. */
const inTerminal = (args: string[]) => terminalRun(args, { ...env, NO_COLOR: '1' }, { cols: 120 });

describe('1, 9. text from the service is shown, never obeyed', () => {
  it('bucket names: escaped one a line when piped, exact in JSON (C1 as \\u escapes)', async () => {
    const text = await run(['buckets', 'view', 'hostile']);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).not.toMatch(OBEYED);
    // One name a line, whatever a name holds: a newline in one is shown, so the lines count the names.
    expect(text.stdout).toBe('\\x1b]0;owned\\x07title\ncsi-\\u009b31m-red\nok-name\nrtl-\\u202eevil\ntwo\\nlines\n');
    const json = await run(['buckets', 'view', 'hostile', '--json']);
    expect(json.stdout).not.toMatch(OBEYED);
    expect(JSON.parse(json.stdout).buckets).toEqual(HOSTILE_NAMES);
  });

  it.skipIf(!has('script'))('bucket names in the table on a terminal', async () => {
    const r = await inTerminal(['buckets', 'view', 'hostile']);
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('\\x1b]0;owned\\x07title');
    // A terminal's line discipline adds CR; nothing else may be a control character.
    expect(r.output).not.toMatch(/[\u0007\u001b\u009b\u202e]/);
  });

  it('an error message with escape sequences and a hyperlink', async () => {
    const message = 'Invalid \u001b[2J\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007 \u009b1;1H request';
    await emu.faults([{ kind: 'status', status: 400, body: JSON.stringify({ status: 'error', errors: [message] }) }]);
    const r = await run(['buckets', 'view', 'finance', '--retries', '0']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toMatch(OBEYED);
    expect(r.stderr).toContain('Invalid \\x1b[2J\\x1b]8;;https://evil.example\\x07click');
  });

  it.skipIf(!has('script'))('report cells and column names in the table, and CSV on a terminal', async () => {
    const records = [{ 'app\u001b[8m': 'Drop\u001b[31mbox', user: 'a\u0007@x', count: 3 }];
    const body = JSON.stringify({ status: 'success', msg: '', data: records });
    await emu.faults([{ kind: 'status', status: 200, endpoint: 'report', body, count: 2 }]);
    const table = await inTerminal(['report', '--period', '1h']);
    expect(table.exitCode).toBe(0);
    expect(table.output).toContain('Drop\\x1b[31mbox');
    expect(table.output).not.toMatch(/[\u0007\u001b\u009b]/);
    const csv = await inTerminal(['report', '--period', '1h', '-o', 'csv']);
    expect(csv.output).toContain('Drop\\u001b[31mbox'); // CSV's own escape: \u and the code point (contract section 13)
    expect(csv.output).not.toMatch(/[\u0007\u001b\u009b]/);
  });

  it('the sync plan shows names as escapes', async () => {
    await emu.setProfile('hostile', ['ok-name', 'rtl-\u202eevil']);
    const file = join(dir, 'desired.txt');
    writeFileSync(file, 'ok-name\n');
    const r = await run(['buckets', 'sync', 'hostile', '-f', file, '--dry-run']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('- rtl-\\u202eevil\n');
    await emu.setProfile('hostile', HOSTILE_NAMES);
  });
});

/** What JSON on a terminal must not hold raw: controls, DEL, C1, bidi controls (JSON escapes them all as \\u). */
// eslint-disable-next-line no-control-regex
const RAW_IN_JSON = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('1, 9. text from the service kept or planned is shown, never obeyed', () => {
  it('buckets history --show: the kept names are escaped as view escapes them', async () => {
    const state = join(dir, 'history-state');
    const r = await run(['buckets', 'replace', 'hostile', 'ok-name'], { SCPCTL_STATE_DIR: state });
    expect(r.exitCode, r.stderr).toBe(0);
    try {
      const [kept] = JSON.parse((await run(['buckets', 'history', 'hostile', '--json'], { SCPCTL_STATE_DIR: state })).stdout) as Array<{ id: string }>;
      const shown = await run(['buckets', 'history', 'hostile', '--show', kept!.id], { SCPCTL_STATE_DIR: state });
      expect(shown.exitCode, shown.stderr).toBe(0);
      expect(shown.stdout).not.toMatch(OBEYED);
      expect(shown.stdout).toBe('\\x1b]0;owned\\x07title\ncsi-\\u009b31m-red\nok-name\nrtl-\\u202eevil\ntwo\\nlines\n');
    } finally {
      await emu.setProfile('hostile', HOSTILE_NAMES);
    }
  });

  it('apply --json: the plan holds the service\'s names exactly, every control and bidi character escaped', async () => {
    // Names that can be sent (a control character or a newline could not: that is test 4), one of them turning text right to left.
    await emu.setProfile('hostile', ['ok-name', 'rtl-\u202eevil', 'isolate-\u2066x']);
    try {
      const manifest = join(dir, 'hostile.yaml');
      writeFileSync(manifest, 'profiles:\n  hostile:\n    buckets: [ok-name]\n');
      const r = await run(['apply', '-f', manifest, '--dry-run', '--json']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout.trimEnd()).not.toMatch(RAW_IN_JSON);
      expect(JSON.parse(r.stdout).profiles[0].delete).toEqual(['rtl-\u202eevil', 'isolate-\u2066x']);
    } finally {
      await emu.setProfile('hostile', HOSTILE_NAMES);
    }
  });
});

describe('2. error text is capped, and the token is masked before anything is cut', () => {
  it('an HTML error page that echoes the token in every form, with the token across the cut', async () => {
    const forms = [TOKEN, JSON.stringify(TOKEN).slice(1, -1), encodeURIComponent(TOKEN), encodeURIComponent(TOKEN).toLowerCase()];
    // The quote is cut at 200 characters: the token starts 190 in, so a cut after masking shows no prefix.
    const page = `${'x'.repeat(190)}${TOKEN} <html><body>${forms.join(' | ')}</body></html> ${'y'.repeat(5000)}`;
    await emu.faults([{ kind: 'status', status: 400, headers: { 'Content-Type': 'text/html' }, body: page }]);
    const r = await run(['buckets', 'view', 'finance', '--retries', '0']);
    expect(r.exitCode).toBe(7);
    expect(r.stderr).not.toContain(TOKEN.slice(0, 6));
    expect(r.stderr).toMatch(/\*\*\*/);
    expect(r.stderr).toMatch(/more characters/);
    expect(r.stderr.split('\n')[0]!.length).toBeLessThan(400);
  });

  it('a bucket list that holds the token (written there by anyone): masked in every output format', async () => {
    await emu.setProfile('leaky', ['plain-name', `x${TOKEN}y`, `q-${encodeURIComponent(TOKEN)}`]);
    try {
      // In this process (the harness checks every run's output for the token, raw and encoded) and as a
      // process of its own (the bundle).
      for (const real of [false, true]) {
        for (const format of [[], ['--json'], ['-o', 'table']]) {
          const r = await scpctl(['buckets', 'view', 'leaky', ...format], { env, real });
          expect(r.exitCode, r.stderr).toBe(0);
          expect(r.stdout).toContain('plain-name');
          expect(r.stdout).toContain('x***y');
          expect(r.stdout).toContain('q-***');
        }
      }
    } finally {
      await emu.setProfile('leaky', []);
    }
  });

  it('a JSON answer of the wrong shape that echoes the token: the quote holds no prefix of it', async () => {
    const start = '{"status":"success","data":{"list":5},"echo":"';
    const body = `${start}${'x'.repeat(194 - start.length)}${TOKEN}"}`;
    await emu.faults([{ kind: 'status', status: 200, body }]);
    const r = await run(['buckets', 'view', 'finance', '--retries', '0']);
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain('does not hold a bucket list');
    expect(r.stderr).not.toContain(TOKEN.slice(0, 6));
  });

  it('doctor: the token accepted check quotes the same page masked', async () => {
    const page = `${'x'.repeat(192)}${TOKEN}${'y'.repeat(300)}`;
    await emu.faults([{ kind: 'status', status: 502, endpoint: 'report', headers: { 'Content-Type': 'text/html' }, body: page, count: 1 }]);
    const r = await run(['doctor', '--retries', '0', '--json']);
    expect(r.stdout + r.stderr).not.toContain(TOKEN.slice(0, 6));
    // not vacuous: doctor asked, met the page, and quoted it with the token masked
    expect((await emu.requests()).some((q) => q.status === 502)).toBe(true);
    const checks = JSON.parse(r.stdout).checks as Array<{ name: string; detail: string }>;
    expect(checks.find((c) => c.name === 'token accepted')!.detail).toContain('xxxx***yyyy');
  });

  it('a huge error message keeps its exit code (pending, after 100,000 characters) and is cut', async () => {
    const message = `${'z'.repeat(100_000)} a change is pending on this profile`;
    await emu.faults([{ kind: 'status', status: 409, body: JSON.stringify({ status: 'error', errors: [message] }) }]);
    const r = await run(['buckets', 'view', 'finance', '--retries', '0']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr.length).toBeLessThan(1000);
    expect(r.stderr).toContain('more characters cut');
  });
});

describe('5. no crash on any answer', () => {
  it('deeply nested JSON is exit 7 with one line, never "Maximum call stack"', async () => {
    const depth = 200_000;
    const body = `{"status":"error","errors":${'['.repeat(depth)}"x"${']'.repeat(depth)}}`;
    await emu.faults([{ kind: 'status', status: 200, body }]);
    const r = await run(['buckets', 'view', 'finance', '--retries', '0']);
    expect(r.exitCode).toBe(7);
    expect(r.stderr).not.toContain('call stack');
    expect(r.stderr.trim().split('\n')[0]).toMatch(/^scpctl: .*nests JSON deeper/);
  });

  it('a config file that is not JSON, a FIFO, or huge: one clear line, exit 2, at once', async () => {
    const cases: Array<[string, (path: string) => void, RegExp]> = [
      ['not-json', (p) => writeFileSync(p, '{"contexts": ', { mode: 0o600 }), /is not valid JSON/],
      ['fifo', (p) => execFileSync('mkfifo', ['-m', '600', p]), /is not a regular file/],
      ['huge', (p) => writeFileSync(p, `{"contexts":{},"x":"${'a'.repeat(2 * 1024 * 1024)}"}`, { mode: 0o600 }), /more than a config file holds/],
    ];
    for (const [name, make, message] of cases) {
      const cfg = join(dir, `cfg-${name}`);
      mkdirSync(cfg, { recursive: true });
      make(join(cfg, 'config.json'));
      const started = Date.now();
      const r = await scpctl(['buckets', 'view', 'finance'], { env: { ...env, SCPCTL_CONFIG_DIR: cfg }, timeout: 10_000 });
      expect(r.exitCode, name).toBe(2);
      expect(r.stderr, name).toMatch(message);
      expect(r.stderr.trim().split('\n').filter((l) => !l.startsWith('hint:')), name).toHaveLength(1);
      expect(Date.now() - started, name).toBeLessThan(8_000);
    }
  });
});

describe('4. sync never sends a name it cannot stand behind', () => {
  it('a name from the service holding a comma or a control character: exit 7, nothing sent, the name escaped', async () => {
    const file = join(dir, 'keep.txt');
    writeFileSync(file, 'keep-me\n');
    for (const hostile of ['alpha-one,beta-two', 'evil\u001b[2J']) {
      await emu.setProfile('commas', ['keep-me', hostile]);
      await emu.clearRequests();
      for (const flags of [[], ['--dry-run']]) {
        const r = await run(['buckets', 'sync', 'commas', '-f', file, ...flags]);
        expect(r.exitCode).toBe(7);
        expect(r.stderr).not.toMatch(OBEYED);
        expect(r.stderr).toContain(hostile.includes(',') ? '"alpha-one,beta-two"' : '"evil\\x1b[2J"');
        expect(r.stdout).toBe('');
      }
      expect((await emu.requests()).filter((q) => q.op === 'modifyBucketList')).toEqual([]);
      expect((await emu.profile('commas')).buckets).toEqual(['keep-me', hostile]);
    }
  });
});

describe('3. signals lose nothing', () => {
  it('SIGTERM during report --all to a slow reader: exit 143, every record handed to stdout arrives, the count matches', async () => {
    // Two pages of 9,999 records (about 1.5 MB) come at once; the third hangs. The reader takes nothing
    // until the signal has been sent, so most of the output still sits in scpctl when it is told to stop.
    await emu.faults([
      { kind: 'delay', ms: 0, endpoint: 'report', count: 2 },
      { kind: 'delay', ms: 30_000, endpoint: 'report', count: 1 },
    ]);
    await emu.clearRequests();
    const child = spawn('node', [BIN, 'report', '--period', '30d', '--all', '-o', 'ndjson'], {
      env: env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.pause();
    // The third request is sent only after the second page was handed to stdout.
    await until(async () => (await emu.requests()).filter((q) => q.path.endsWith('/report')).length >= 3);
    child.kill('SIGTERM');
    const chunks: Buffer[] = [];
    const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A slow reader: 64 KiB at a time, with pauses.
    const slow = setInterval(() => {
      child.stdout.resume();
      setTimeout(() => child.stdout.pause(), 5);
    }, 20);
    const code = await exit;
    clearInterval(slow);
    await emu.clearFaults();
    const out = Buffer.concat(chunks).toString();
    expect(code).toBe(143);
    expect(stderr).toContain('scpctl: terminated');
    const written = Number(/wrote (\d+) records/.exec(stderr)?.[1]);
    expect(written).toBe(19_998);
    expect(out.endsWith('}\n')).toBe(true);
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(written);
    for (const line of [lines[0]!, lines[lines.length - 1]!]) JSON.parse(line);
  });

  it('a --token-file FIFO with no writer answers SIGINT and SIGTERM at once', async () => {
    for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
      const fifo = join(dir, `token-fifo-${signal}`);
      execFileSync('mkfifo', [fifo]);
      const child = spawnScpctl(['buckets', 'view', 'finance', '--token-file', fifo], { env: { ...env, SCPCTL_TOKEN: undefined }, timeout: 10_000 });
      await untilOpen(child.pid, fifo);
      const sent = Date.now();
      child.kill(signal);
      const r = await child;
      expect(r.exitCode, signal).toBe(code);
      expect(Date.now() - sent, signal).toBeLessThan(3_000);
      rmSync(fifo);
    }
  });

  it('a --ca-cert FIFO with no writer answers SIGTERM at once', async () => {
    const fifo = join(dir, 'ca-fifo');
    execFileSync('mkfifo', [fifo]);
    const child = spawnScpctl(['buckets', 'view', 'finance', '--ca-cert', fifo], { env, timeout: 10_000 });
    await untilOpen(child.pid, fifo);
    const sent = Date.now();
    child.kill('SIGTERM');
    const r = await child;
    expect(r.exitCode).toBe(143);
    expect(Date.now() - sent).toBeLessThan(3_000);
  });

  it('-f FIFO with no writer answers SIGINT at once', async () => {
    const fifo = join(dir, 'names-fifo');
    execFileSync('mkfifo', [fifo]);
    const child = spawnScpctl(['buckets', 'append', 'finance', '-f', fifo], { env, timeout: 10_000 });
    await untilOpen(child.pid, fifo);
    const sent = Date.now();
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(Date.now() - sent).toBeLessThan(3_000);
    // And with a writer, the FIFO is read as a file is.
    const writer = execa('sh', ['-c', `printf 'from-fifo-one\\nfrom-fifo-two\\n' > ${quote(fifo)}`]);
    const ok = await run(['buckets', 'append', 'finance', '-f', fifo]);
    await writer;
    expect(ok.exitCode).toBe(0);
    expect((await emu.profile('finance')).buckets).toContain('from-fifo-two');
  });
});

describe('6. environment traps', () => {
  let tlsDir: string;
  let tlsEmu: Emulator;
  let proxy: Server;
  let proxyAddress: string;
  const connects: string[] = [];

  beforeAll(async () => {
    tlsDir = tempDir();
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '2',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { cwd: tlsDir, stdio: 'pipe' });
    tlsEmu = await startEmulator(['--tls-cert', join(tlsDir, 'cert.pem'), '--tls-key', join(tlsDir, 'key.pem'), '--profile', 'finance=tls-bucket']);
    proxy = createProxy(createServer());
    proxy.on('connect', (req) => connects.push(String(req.url)));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyAddress = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await tlsEmu?.stop();
    proxy?.closeAllConnections?.();
    await new Promise((resolve) => proxy?.close(resolve));
    removeDir(tlsDir);
  });

  it('an inherited NODE_TLS_REJECT_UNAUTHORIZED=0 never turns verification off, and says so', async () => {
    const r = await scpctl(['buckets', 'view', 'finance', '--retries', '0'], { env: envFor(tlsEmu, dir, { NODE_TLS_REJECT_UNAUTHORIZED: '0' }) });
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain('NODE_TLS_REJECT_UNAUTHORIZED=0 is ignored');
    expect(r.stderr).toMatch(/certificate/);
    const trusted = await scpctl(['buckets', 'view', 'finance'], {
      env: envFor(tlsEmu, dir, { NODE_TLS_REJECT_UNAUTHORIZED: '0', SCPCTL_CA_CERT: join(tlsDir, 'cert.pem') }),
    });
    expect(trusted.exitCode).toBe(0);
    expect(trusted.stdout).toBe('tls-bucket\n');
  });

  it('a proxy variable without a scheme means http://', async () => {
    connects.length = 0;
    const r = await scpctl(['buckets', 'view', 'finance'], {
      env: envFor(tlsEmu, dir, { HTTPS_PROXY: proxyAddress, SCPCTL_CA_CERT: join(tlsDir, 'cert.pem') }),
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('tls-bucket\n');
    expect(connects).toEqual([new URL(tlsEmu.url).host]);
  });

  it('an empty SCPCTL_TOKEN is exit 3 naming it, even with another source behind it', async () => {
    const tokenFile = join(dir, 'token.txt');
    writeFileSync(tokenFile, TOKEN);
    await emu.clearRequests();
    const r = await run(['buckets', 'view', 'finance'], { SCPCTL_TOKEN: '', SCPCTL_TOKEN_FILE: tokenFile });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('SCPCTL_TOKEN is set but empty');
    expect(await emu.requests()).toEqual([]);
    const doctor = await run(['doctor', '--json'], { SCPCTL_TOKEN: '' });
    expect(doctor.exitCode).toBe(3);
    expect(JSON.parse(doctor.stdout).checks.find((c: { name: string }) => c.name === 'token').detail).toBe('SCPCTL_TOKEN is set but empty');
  });
});

describe('7. config under concurrency', () => {
  it('twelve parallel logins into different contexts all land', async () => {
    const cfg = tempDir();
    const count = 12;
    const runs = Array.from({ length: count }, (_, i) =>
      execa('node', [BIN, '--context', `tenant-${i}`, 'login', '--base-url', `https://t${i}.example.com`, '--with-token', '--no-verify', '-q'], {
        env: { PATH: process.env.PATH, HOME: cfg, SCPCTL_CONFIG_DIR: cfg, SCPCTL_TOKEN_STORE: 'file' },
        extendEnv: false,
        input: `token-of-tenant-${i}\n`,
        reject: false,
      }),
    );
    const results = await Promise.all(runs);
    expect(results.map((r) => r.exitCode)).toEqual(Array(count).fill(0));
    const stored = JSON.parse(readFileSync(join(cfg, 'config.json'), 'utf8'));
    for (let i = 0; i < count; i++) {
      expect(stored.contexts[`tenant-${i}`], `tenant-${i}`).toEqual({ baseUrl: `https://t${i}.example.com`, token: `token-of-tenant-${i}` });
    }
    removeDir(cfg);
  });
});

describe('8. the emulator is not a door', () => {
  /** A raw request with the headers a browser would send (fetch cannot set Host). */
  function send(path: string, headers: Record<string, string>, method = 'GET'): Promise<number> {
    const url = new URL(emu.url);
    return new Promise((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(method === 'POST' ? JSON.stringify({ token: TOKEN }) : undefined);
    });
  }

  it('refuses a foreign Host (DNS rebinding) and any Origin on every route, admin ones included', async () => {
    const port = new URL(emu.url).port;
    const api = `/api/v1/report?timeperiod=3600&limit=1`;
    for (const path of ['/__emulator/requests', api, '/__emulator/profiles/finance']) {
      const method = path === api ? 'POST' : 'GET';
      expect(await send(path, { Host: `attacker.example:${port}` }, method), path).toBe(403);
      expect(await send(path, { Host: `127.0.0.1:${Number(port) + 1}` }, method), path).toBe(403);
      expect(await send(path, { Host: `127.0.0.1:${port}`, Origin: 'https://attacker.example' }, method), path).toBe(403);
      expect(await send(path, { Host: `127.0.0.1:${port}`, Origin: 'null' }, method), path).toBe(403);
      expect(await send(path, { Host: `127.0.0.1:${port}` }, method), path).not.toBe(403);
      expect(await send(path, { Host: `localhost:${port}` }, method), path).not.toBe(403);
    }
  });

  it('a --state save that fails is reported and undone: the answer and the state agree', async () => {
    const stateDir = tempDir();
    const state = join(stateDir, 'state.json');
    const local = await startEmulator(['--state', state, '--profile', 'finance=first-bucket']);
    try {
      const localEnv = envFor(local, stateDir);
      // The state file's place taken by a folder: the atomic rename fails on every save.
      rmSync(state);
      mkdirSync(state);
      const r = await scpctl(['buckets', 'append', 'finance', 'second-bucket', '--retries', '0'], { env: localEnv });
      expect(r.exitCode).not.toBe(0);
      expect(r.stderr).toContain('could not save its state');
      expect((await local.profile('finance')).buckets).toEqual(['first-bucket']);
    } finally {
      await local.stop();
      removeDir(stateDir);
    }
  });
});
