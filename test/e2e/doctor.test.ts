// `scpctl doctor`, end to end: the built binary against the emulator (plain and TLS with a private CA), a
// forward proxy, dead ports, a fake service with a skewed clock; and NO_PROXY matching as the transport does it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createProxy } from 'proxy';
import { TOKEN, envFor, removeDir, scpctl, privateCa, startEmulator, tempDir, testClock, type Emulator } from './harness.js';
import { noProxyMatch, proxyVariableFor } from '../../src/api/proxy-env.js';
import { maskUrlCredentials } from '../../src/core/secrets.js';

interface Check {
  name: string;
  ok: boolean;
  status: 'pass' | 'fail' | 'info' | 'skip';
  detail: string;
  hint?: string;
}

let emu: Emulator;
let dir: string;
const scratchDirs: string[] = [];

beforeAll(async () => {
  emu = await startEmulator(['--profile', 'finance']);
  dir = tempDir();
});
afterAll(async () => {
  await emu?.stop();
  for (const d of [dir, ...scratchDirs]) removeDir(d);
});

/** An empty config folder, removed after the file's tests. */
function scratch(): string {
  const d = tempDir();
  scratchDirs.push(d);
  return d;
}

/** A fresh config folder per call, so that config files made by one test do not leak into another. */
function freshEnv(extra: Record<string, string | undefined> = {}, target: Emulator | undefined = emu) {
  return envFor(target, scratch(), extra);
}

async function doctorJson(args: string[], env: Record<string, string | undefined>) {
  const r = await scpctl(['doctor', '--json', ...args], { env });
  const report = JSON.parse(r.stdout) as { ok: boolean; checks: Check[] };
  const check = (name: string): Check => {
    const found = report.checks.find((c) => c.name === name);
    if (!found) throw new Error(`no check ${name} in ${r.stdout}`);
    return found;
  };
  return { ...r, report, check };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function close(server: Server): Promise<void> {
  server.closeAllConnections?.();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await close(server);
  return port;
}

describe('against the emulator', () => {
  it('passes every check, printing one line each and the token masked', async () => {
    const r = await scpctl(['doctor'], { env: freshEnv() });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.map((l) => l.slice(0, 1 + l.indexOf(':')))).toEqual([
      '• config file:',
      '✔ base URL:',
      '• proxy:',
      '✔ DNS:',
      '✔ TCP:',
      '• TLS:',
      '✔ token:',
      '• token store:',
      '✔ token accepted:',
      '✔ clock:',
    ]);
    expect(r.stdout).toContain('none yet');
    expect(r.stdout).toContain(`${emu.url} (from SCPCTL_BASE_URL)`);
    // A named context is said once: after a base URL from its config store, not again.
    const env = freshEnv({ SCPCTL_BASE_URL: undefined });
    expect((await scpctl(['--context', 'tenant-b', 'config', 'set', 'baseUrl', emu.url], { env })).exitCode).toBe(0);
    const named = await scpctl(['--context', 'tenant-b', 'doctor'], { env });
    expect(named.stdout).toMatch(new RegExp(`base URL: +${emu.url.replace(/[.]/g, '\\.')} \\(from config \\(context tenant-b\\)\\)$`, 'm'));
    expect((await scpctl(['--context', 'tenant-b', 'doctor'], { env: { ...env, SCPCTL_BASE_URL: emu.url } })).stdout).toContain(`${emu.url} (from SCPCTL_BASE_URL, context tenant-b)`);
    expect(r.stdout).toMatch(/✔ TCP: +connected to 127\.0\.0\.1:\d+/);
    expect(r.stdout).toMatch(/✔ token: +tok_\*\*\* from SCPCTL_TOKEN/);
    expect(r.stdout).toMatch(/• token store: +SCPCTL_TOKEN\n/);
    // Whole milliseconds, as -v prints them (the system clock reads fractions; this run's test clock does not).
    expect(r.stdout).toMatch(/answered HTTP 200 in \d+ ms\n/);
    expect(r.stdout).not.toMatch(/\x1b\[/);
    expect(r.stderr).toBe('✔ all checks passed\n');
  });

  it('sends one minimal report request: timeperiod=3600, limit=1, the token in the body', async () => {
    await emu.clearRequests();
    await scpctl(['doctor'], { env: freshEnv() });
    const requests = await emu.requests();
    expect(requests).toHaveLength(1);
    expect(requests[0]!.path).toBe('/api/v1/report');
    expect(requests[0]!.query).toEqual({ timeperiod: '3600', limit: '1' });
    expect(JSON.parse(requests[0]!.body)).toEqual({ token: '***' }); // the log keeps no token; the emulator accepted it
    expect(requests[0]!.status).toBe(200);
  });

  it('--json prints {ok, checks:[{name, ok, detail, hint?}]} on stdout', async () => {
    const { exitCode, report, stderr } = await doctorJson([], freshEnv());
    expect(exitCode).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => c.name)).toEqual(['config file', 'base URL', 'proxy', 'DNS', 'TCP', 'TLS', 'token', 'token store', 'token accepted', 'clock']);
    for (const check of report.checks) {
      expect(check).toEqual({ name: expect.any(String), ok: true, status: expect.stringMatching(/^(pass|info)$/), detail: expect.any(String) });
    }
    expect(stderr).toBe('✔ all checks passed\n');
    expect((await scpctl(['doctor', '-o', 'json'], { env: freshEnv() })).stdout).toMatch(/^\{"ok":true,/);
  });

  it('-o table is not a format of doctor (exit 2)', async () => {
    const r = await scpctl(['doctor', '-o', 'table'], { env: freshEnv() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('use text, json');
  });

  it('names the token file, never the token', async () => {
    const file = join(dir, 'token.txt');
    writeFileSync(file, `${TOKEN}\n`);
    const env = freshEnv();
    delete env.SCPCTL_TOKEN;
    const r = await scpctl(['doctor', '--token-file', file], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`tok_*** from --token-file ${file}`);
  });
});

describe('the config file', () => {
  it('found with mode 0600 passes; readable by others fails with exit 2 and a chmod hint', async () => {
    const env = freshEnv();
    expect((await scpctl(['config', 'set', 'timeout', '20'], { env })).exitCode).toBe(0);
    const path = join(env.SCPCTL_CONFIG_DIR!, 'config.json');
    const good = await doctorJson([], env);
    expect(good.check('config file')).toMatchObject({ ok: true, status: 'pass', detail: `${path} (mode 0600)` });
    chmodSync(path, 0o644);
    const bad = await doctorJson([], env);
    expect(bad.exitCode).toBe(2);
    expect(bad.report.ok).toBe(false);
    expect(bad.check('config file')).toMatchObject({ ok: false, status: 'fail', hint: `chmod 600 ${path}` });
    expect(bad.check('config file').detail).toContain('mode 0644');
    // The rest still runs: only the file's mode is wrong.
    expect(bad.check('token accepted').status).toBe('pass');
    expect(bad.stderr).toContain('scpctl: doctor: 1 check failed (first: config file)');
  });

  it('a broken file fails, and every check that needs the settings is skipped', async () => {
    const env = freshEnv();
    writeFileSync(join(env.SCPCTL_CONFIG_DIR!, 'config.json'), '{ not json', { mode: 0o600 });
    const r = await doctorJson([], env);
    expect(r.exitCode).toBe(2);
    expect(r.check('config file')).toMatchObject({ ok: false, status: 'fail' });
    expect(r.check('config file').detail).toContain('is not valid JSON');
    for (const name of ['base URL', 'DNS', 'TCP', 'TLS', 'token', 'token accepted', 'clock']) {
      expect(r.check(name)).toMatchObject({ ok: false, status: 'skip' });
    }
  });
});

describe('failures, their exit codes, and skipped checks', () => {
  it('no base URL: exit 2, the network checks skipped', async () => {
    const r = await doctorJson([], envFor(undefined, scratch(), { SCPCTL_TOKEN: TOKEN }));
    expect(r.exitCode).toBe(2);
    expect(r.check('base URL')).toMatchObject({ ok: false, status: 'fail', detail: 'not set' });
    expect(r.check('base URL').hint).toContain('--base-url');
    for (const name of ['proxy', 'DNS', 'TCP', 'TLS', 'token accepted', 'clock']) expect(r.check(name).status).toBe('skip');
    expect(r.check('token').status).toBe('pass');
  });

  it('plain http to a remote host is refused as a base URL (exit 2)', async () => {
    const r = await doctorJson(['--base-url', 'http://service.example.com'], freshEnv());
    expect(r.exitCode).toBe(2);
    expect(r.check('base URL').detail).toContain('refusing plain http://');
  });

  it('no token: exit 3, the token check skipped, the network checked', async () => {
    const env = freshEnv();
    delete env.SCPCTL_TOKEN;
    const r = await scpctl(['doctor'], { env });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toMatch(/✖ token: +no token configured \(no --token-file, SCPCTL_TOKEN or SCPCTL_TOKEN_FILE, and none in the config store of context default\)\n +hint: Set SCPCTL_TOKEN/);
    expect(r.stdout).toMatch(/- token accepted: +skipped: needs a token/);
    expect(r.stdout).toMatch(/✔ TCP:/);
    expect(r.stderr).toBe('scpctl: doctor: 1 check failed (first: token), 2 skipped\n');
  });

  it('a rejected token: exit 3, and the clock still checked from that answer', async () => {
    const r = await doctorJson([], freshEnv({ SCPCTL_TOKEN: 'not-the-right-token' }));
    expect(r.exitCode).toBe(3);
    expect(r.check('token')).toMatchObject({ ok: true });
    expect(r.check('token accepted')).toMatchObject({ ok: false, status: 'fail' });
    expect(r.check('token accepted').detail).toContain('Invalid token');
    expect(r.check('token accepted').hint).toContain('scpctl login');
    expect(r.check('clock').status).toBe('pass');
  });

  it('nothing listening: TCP fails with exit 6, the token request skipped', async () => {
    const port = await deadPort();
    const r = await doctorJson([], freshEnv({ SCPCTL_BASE_URL: `http://127.0.0.1:${port}` }));
    expect(r.exitCode).toBe(6);
    expect(r.check('TCP')).toMatchObject({ ok: false, detail: `connection to 127.0.0.1:${port} refused` });
    expect(r.check('token accepted')).toMatchObject({ status: 'skip', detail: 'skipped: the service cannot be reached' });
    expect(r.check('clock').status).toBe('skip');
  });

  it('a host that does not resolve: DNS fails with exit 6, TCP and TLS skipped', async () => {
    const r = await doctorJson(['--timeout', '5'], freshEnv({ SCPCTL_BASE_URL: 'https://scpctl-doctor-test.invalid' }));
    expect(r.exitCode).toBe(6);
    expect(r.check('DNS')).toMatchObject({ ok: false, status: 'fail' });
    expect(r.check('DNS').detail).toMatch(/^cannot resolve scpctl-doctor-test\.invalid \(/);
    expect(r.check('TCP')).toMatchObject({ status: 'skip', detail: 'skipped: DNS failed' });
    expect(r.check('TLS').status).toBe('skip');
  });

  it('a bad setting fails the settings check (exit 2) and skips the rest', async () => {
    const r = await doctorJson(['--timeout', 'soon'], freshEnv());
    expect(r.exitCode).toBe(2);
    expect(r.check('settings')).toMatchObject({ ok: false, status: 'fail' });
    expect(r.check('settings').detail).toContain('--timeout: "soon" is not a timeout');
    for (const name of ['base URL', 'TCP', 'token', 'token accepted']) expect(r.check(name).status).toBe('skip');
  });

  it('an unreadable token file fails only the token check; the network is still checked', async () => {
    const env = freshEnv();
    delete env.SCPCTL_TOKEN;
    const r = await doctorJson(['--token-file', join(dir, 'no-such-token')], env);
    expect(r.exitCode).toBe(2);
    expect(r.check('token').detail).toContain('cannot read the token file');
    expect(r.check('TCP').status).toBe('pass');
    expect(r.check('token accepted').status).toBe('skip');
  });

  it('the exit code is the first failure\'s: the base URL (2) before the token (3)', async () => {
    const r = await scpctl(['doctor'], { env: envFor(undefined, scratch()) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^scpctl: doctor: 2 checks failed \(first: base URL\)/);
  });
});

describe('proxies', () => {
  let proxy: Server;
  let proxyUrl: string;
  const seen: string[] = [];

  beforeAll(async () => {
    proxy = createProxy(createServer());
    proxy.on('request', (req) => seen.push(`${req.method} ${req.url}`));
    proxy.on('connect', (req) => seen.push(`CONNECT ${req.url}`));
    proxyUrl = `http://127.0.0.1:${await listen(proxy)}`;
  });
  afterAll(() => close(proxy));

  it('refuses plain http through the proxy (the token would leave the machine), credentials masked', async () => {
    seen.length = 0;
    const withCredentials = proxyUrl.replace('//', '//proxyuser:pr0xy-s3cret@');
    const r = await doctorJson([], freshEnv({ HTTP_PROXY: withCredentials }));
    expect(r.exitCode).toBe(2);
    expect(r.stdout).not.toContain('pr0xy-s3cret');
    expect(r.check('proxy')).toMatchObject({ status: 'fail' });
    expect(r.check('proxy').detail).toContain(`through ${proxyUrl.replace('//', '//proxyuser:***@')} (from HTTP_PROXY)`);
    expect(r.check('proxy').hint).toContain('NO_PROXY');
    expect(seen).toEqual([]);
  });

  it('reports an https service reached through the proxy: DNS and TCP go to the proxy', async () => {
    seen.length = 0;
    const withCredentials = proxyUrl.replace('//', '//proxyuser:pr0xy-s3cret@');
    const r = await doctorJson([], freshEnv({ SCPCTL_BASE_URL: 'https://service.example.com', HTTPS_PROXY: withCredentials }));
    expect(r.stdout).not.toContain('pr0xy-s3cret');
    expect(r.check('proxy')).toMatchObject({ status: 'info', detail: `through ${proxyUrl.replace('//', '//proxyuser:***@')} (from HTTPS_PROXY)` });
    expect(r.check('DNS').detail).toContain('the proxy 127.0.0.1');
    expect(r.check('TCP').detail).toContain(`connected to the proxy ${proxyUrl.slice('http://'.length)}`);
    expect(seen[0]).toBe('CONNECT service.example.com:443');
  });

  it('a host exempted by NO_PROXY connects directly', async () => {
    const dead = `http://127.0.0.1:${await deadPort()}`;
    for (const noProxy of ['127.0.0.1', 'localhost, 127.0.0.1', '*', `127.0.0.1:${new URL(emu.url).port}`]) {
      const r = await doctorJson([], freshEnv({ HTTP_PROXY: dead, NO_PROXY: noProxy }));
      expect(r.exitCode, noProxy).toBe(0);
      expect(r.check('proxy').detail).toMatch(new RegExp(`^HTTP_PROXY=${dead} is set, but NO_PROXY entry "[^"]+" exempts 127\\.0\\.0\\.1: connecting directly$`));
    }
  });

  it('a dead proxy fails TCP (exit 6) with a hint about the proxy', async () => {
    const dead = `http://127.0.0.1:${await deadPort()}`;
    const r = await doctorJson([], freshEnv({ SCPCTL_BASE_URL: 'https://service.example.com', https_proxy: dead, NO_PROXY: 'example.org,127.0.0.2' }));
    expect(r.exitCode).toBe(6);
    expect(r.check('proxy').detail).toBe(`through ${dead} (from https_proxy); NO_PROXY (example.org,127.0.0.2) does not match service.example.com`);
    expect(r.check('TCP').ok).toBe(false);
    expect(r.check('TCP').hint).toContain('NO_PROXY');
  });

  it('a proxy variable that is not a URL is a usage error (exit 2)', async () => {
    const r = await doctorJson([], freshEnv({ HTTP_PROXY: 'not a url' }));
    expect(r.exitCode).toBe(2);
    expect(r.check('proxy').status).toBe('fail');
    expect(r.check('DNS').status).toBe('skip');
  });
});

describe('TLS', () => {
  let tlsEmu: Emulator;
  let caFile: string;
  let tlsDir: string;

  beforeAll(async () => {
    tlsDir = tempDir();
    const tls = privateCa(tlsDir, { caName: 'scpctl doctor CA', subject: '/O=scpctl tests/CN=127.0.0.1', names: 'IP:127.0.0.1', days: 10 });
    caFile = tls.ca;
    tlsEmu = await startEmulator(['--tls-cert', tls.cert, '--tls-key', tls.key]);
    expect(tlsEmu.url).toMatch(/^https:\/\/127\.0\.0\.1:/);
  });
  afterAll(async () => {
    await tlsEmu?.stop();
    removeDir(tlsDir);
  });

  it('without the CA: the certificate is not trusted (exit 6), with a hint to --ca-cert', async () => {
    const r = await doctorJson([], freshEnv({}, tlsEmu));
    expect(r.exitCode).toBe(6);
    expect(r.check('CA certificates').status).toBe('info');
    const tls = r.check('TLS');
    expect(tls.ok).toBe(false);
    expect(tls.detail).toMatch(/^the certificate of 127\.0\.0\.1 is not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\): CN=127\.0\.0\.1, O=scpctl tests, issued by CN=scpctl doctor CA/);
    expect(tls.hint).toContain('--ca-cert');
    expect(r.check('token accepted').status).toBe('skip');
  });

  it('with --ca-cert: the protocol, the subject and the expiry; the token accepted', async () => {
    const r = await doctorJson(['--ca-cert', caFile], freshEnv({}, tlsEmu));
    expect(r.exitCode).toBe(0);
    expect(r.check('CA certificates')).toMatchObject({ status: 'pass', detail: `1 from ${caFile} (--ca-cert), besides the system roots` });
    expect(r.check('TLS').detail).toMatch(/^TLSv1\.[23], certificate CN=127\.0\.0\.1, O=scpctl tests, issued by CN=scpctl doctor CA, expires \d{4}-\d\d-\d\d \(in (9|10) days\)$/);
    expect(r.check('token accepted').status).toBe('pass');
  });

  it('SCPCTL_CA_CERT works the same, and through a proxy the handshake goes through CONNECT', async () => {
    const proxy = createProxy(createServer());
    const connects: string[] = [];
    proxy.on('connect', (req) => connects.push(req.url ?? ''));
    const proxyUrl = `http://127.0.0.1:${await listen(proxy)}`;
    try {
      const r = await doctorJson([], freshEnv({ SCPCTL_CA_CERT: caFile, HTTPS_PROXY: proxyUrl }, tlsEmu));
      expect(r.exitCode).toBe(0);
      expect(r.check('TLS').detail).toMatch(/^TLSv1\.[23] \(through the proxy\), certificate CN=127\.0\.0\.1/);
      const host = new URL(tlsEmu.url).host;
      expect(connects).toEqual([host, host]); // the handshake check, then the token request
    } finally {
      await close(proxy);
    }
  });

  it('a certificate for another name: the hint says so', async () => {
    const port = new URL(tlsEmu.url).port;
    const r = await doctorJson(['--ca-cert', caFile], freshEnv({ SCPCTL_BASE_URL: `https://localhost:${port}` }, tlsEmu));
    expect(r.exitCode).toBe(6);
    expect(r.check('TLS').detail).toContain('ERR_TLS_CERT_ALTNAME_INVALID');
    expect(r.check('TLS').hint).toContain('does not name this host');
  });

  it('an unreadable CA file: exit 2, TLS skipped', async () => {
    const r = await doctorJson(['--ca-cert', join(tlsDir, 'missing.pem')], freshEnv({}, tlsEmu));
    expect(r.exitCode).toBe(2);
    expect(r.check('CA certificates').detail).toMatch(/cannot read the CA file .* \(ENOENT\)/);
    expect(r.check('TLS')).toMatchObject({ status: 'skip', detail: 'skipped: the CA file is unusable' });
  });
});

describe('the clock', () => {
  let server: Server;
  let url: string;
  let offsetMs = 0;
  let sendDate = true;

  beforeAll(async () => {
    // A service that accepts any token and whose clock is `offsetMs` away from ours.
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.sendDate = sendDate;
        // The runs' clock, not the wall clock: it has jumped over every wait other files in this worker rode out.
        if (sendDate) res.setHeader('Date', new Date(testClock.now() + offsetMs).toUTCString());
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ status: 'success', msg: '', data: [] }));
      });
    });
    url = `http://127.0.0.1:${await listen(server)}`;
  });
  afterAll(() => close(server));

  const run = () => doctorJson([], freshEnv({ SCPCTL_BASE_URL: url }, undefined));

  it('within 5 minutes passes', async () => {
    offsetMs = -2 * 60_000;
    const r = await run();
    expect(r.exitCode).toBe(0);
    expect(r.check('clock').detail).toMatch(/^(1[12]\d s|2 min) ahead of the service: within 5 min$/);
  });

  it('10 minutes off fails with exit 1 and a hint about NTP', async () => {
    offsetMs = 10 * 60_000;
    const r = await run();
    expect(r.exitCode).toBe(1);
    expect(r.check('clock')).toMatchObject({ ok: false, status: 'fail' });
    expect(r.check('clock').detail).toMatch(/^this machine's clock is 10 min behind the service \(its Date: /);
    expect(r.check('clock').hint).toContain('NTP');
    expect(r.stderr).toContain('scpctl: doctor: 1 check failed (first: clock)');
  });

  it('no Date header: informational, not a failure', async () => {
    sendDate = false;
    const r = await run();
    sendDate = true;
    expect(r.exitCode).toBe(0);
    expect(r.check('clock')).toMatchObject({ ok: true, status: 'info' });
  });
});

describe('proxy variables and NO_PROXY, as the transport reads them (proxy-env.ts)', () => {
  const https = new URL('https://api.tenant.example.com/base');
  const http = new URL('http://127.0.0.1:8787');

  it('chooses the variable: https_proxy, HTTPS_PROXY, then the http ones; lower case first', () => {
    expect(proxyVariableFor(https, {})).toBeUndefined();
    expect(proxyVariableFor(https, { HTTP_PROXY: 'http://p:1' })).toEqual({ variable: 'HTTP_PROXY', value: 'http://p:1' });
    expect(proxyVariableFor(https, { HTTP_PROXY: 'http://p:1', HTTPS_PROXY: 'http://s:2' })?.variable).toBe('HTTPS_PROXY');
    expect(proxyVariableFor(https, { https_proxy: 'http://a:1', HTTPS_PROXY: 'http://b:2' })?.variable).toBe('https_proxy');
    expect(proxyVariableFor(https, { https_proxy: '', HTTPS_PROXY: 'http://b:2', http_proxy: 'http://c:3' })?.variable).toBe('http_proxy');
    expect(proxyVariableFor(http, { HTTPS_PROXY: 'http://s:2' })).toBeUndefined();
    expect(proxyVariableFor(http, { http_proxy: 'http://a:1', HTTP_PROXY: 'http://b:2' })?.variable).toBe('http_proxy');
  });

  it.each([
    ['*', https, '*'],
    ['example.com', https, 'example.com'],
    ['.example.com', https, '.example.com'],
    ['*.example.com', https, '*.example.com'],
    ['tenant.example.com', https, 'tenant.example.com'],
    ['API.Tenant.Example.COM', https, 'API.Tenant.Example.COM'],
    ['other.com, example.com', https, 'example.com'],
    ['other.com example.com', https, 'example.com'],
    ['example.com:443', https, 'example.com:443'],
    ['example.com:8443', https, undefined],
    ['ample.com', https, undefined],
    ['api.tenant.example.com.evil', https, undefined],
    ['', https, undefined],
    ['localhost,127.0.0.1', http, '127.0.0.1'],
    ['127.0.0.1:8787', http, '127.0.0.1:8787'],
    ['127.0.0.1:80', http, undefined],
    ['127.0.0.0/8', http, undefined],
    ['*,example.com', https, 'example.com'],
  ] as const)('NO_PROXY=%j for %s → %j', (noProxy, url, expected) => {
    expect(noProxyMatch(url, noProxy)).toBe(expected);
  });

  it('masks proxy credentials; a lone user name may be a token, so it is masked too', () => {
    expect(maskUrlCredentials('http://user:secret@proxy.corp:3128')).toBe('http://user:***@proxy.corp:3128');
    expect(maskUrlCredentials('http://tok3n@proxy.corp:3128/')).toBe('http://***@proxy.corp:3128');
    expect(maskUrlCredentials('http://proxy.corp:3128')).toBe('http://proxy.corp:3128');
    expect(maskUrlCredentials('not a url with user:pw@')).not.toContain('pw');
  });
});
