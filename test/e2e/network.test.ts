// Real proxies and real TLS: a forward proxy (the `proxy` package) and HTTPS with a CA made by the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createTlsServer } from 'node:https';
import { join } from 'node:path';
import { connect as netConnect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { createProxy } from 'proxy';
import { envFor, removeDir, scpctl, privateCa, startEmulator, tempDir, type Emulator } from './harness.js';

let dir: string;

beforeAll(() => {
  dir = tempDir();
});
afterAll(() => removeDir(dir));

describe('through a forward proxy', () => {
  let emu: Emulator;
  let proxy: Server;
  let proxyUrl: string;
  const seen: string[] = [];

  beforeAll(async () => {
    emu = await startEmulator(['--profile', 'finance=via-proxy-bucket']);
    proxy = createProxy(createServer());
    proxy.on('request', (req) => seen.push(`${req.method} ${req.url}`));
    proxy.on('connect', (req) => seen.push(`CONNECT ${req.url}`));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await emu?.stop();
    proxy.closeAllConnections?.();
    await new Promise((resolve) => proxy.close(resolve));
  });

  it('refuses plain http through a proxy: the token would leave the machine in clear text', async () => {
    seen.length = 0;
    for (const variable of ['HTTP_PROXY', 'http_proxy']) {
      const r = await scpctl(['buckets', 'view', 'finance'], { env: envFor(emu, dir, { [variable]: proxyUrl }) });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`refusing to send the token in clear text to ${new URL(emu.url).host} through the proxy in ${variable}`);
      expect(r.stderr).toContain('NO_PROXY');
    }
    expect(seen).toEqual([]);
    expect(await emu.requests()).toEqual([]);
  });

  it('bypasses the proxy for hosts in NO_PROXY', async () => {
    seen.length = 0;
    for (const noProxy of ['127.0.0.1', 'localhost,127.0.0.1']) {
      const r = await scpctl(['buckets', 'view', 'finance'], { env: envFor(emu, dir, { HTTP_PROXY: proxyUrl, NO_PROXY: noProxy }) });
      expect(r.exitCode).toBe(0);
    }
    expect(seen).toEqual([]);
  });

  it('a dead proxy is a network error naming the proxy (exit 6)', async () => {
    const r = await scpctl(['buckets', 'view', 'finance', '--retries', '0'], {
      env: envFor(emu, dir, { SCPCTL_BASE_URL: 'https://service.example.com', HTTPS_PROXY: 'http://127.0.0.1:9' }),
    });
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/^scpctl: cannot reach the proxy 127\.0\.0\.1:9/);
  });

  it('a proxy that hangs up on CONNECT is asked once an attempt, and named (exit 6)', async () => {
    // Once it read the CONNECT, or at once: either way no tunnel, and never a flood of reconnections.
    let connects = 0;
    const hangUp = createNetServer((socket) => socket.once('data', () => (connects++, socket.destroy())));
    await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
    const proxyEnv = { SCPCTL_BASE_URL: 'https://service.example.com', HTTPS_PROXY: `http://127.0.0.1:${(hangUp.address() as AddressInfo).port}` };
    try {
      const once = await scpctl(['buckets', 'view', 'finance', '--retries', '0', '--timeout', '5'], { env: envFor(emu, dir, proxyEnv) });
      expect(once.exitCode).toBe(6);
      expect(once.stderr).toContain('scpctl: the proxy closed the connection instead of opening a tunnel to service.example.com (through the proxy');
      expect(connects).toBe(1);
      const retried = await scpctl(['buckets', 'view', 'finance', '--retries', '2', '--timeout', '5'], { env: envFor(emu, dir, proxyEnv) });
      expect(retried.exitCode).toBe(6);
      expect(retried.stderr).toContain('(after 3 attempts)');
      expect(connects).toBe(4);
    } finally {
      await new Promise((resolve) => hangUp.close(resolve));
    }
  });

  it('a proxy that never answers CONNECT: the attempt times out naming the proxy, and gives its tunnel up', async () => {
    const open = new Set<Socket>();
    const silent = createNetServer((socket) => {
      open.add(socket);
      socket.on('close', () => open.delete(socket)).resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const r = await scpctl(['buckets', 'view', 'finance', '--retries', '0', '--timeout', '0.3'], {
        env: envFor(emu, dir, { SCPCTL_BASE_URL: 'https://service.example.com', HTTPS_PROXY: `http://127.0.0.1:${port}` }),
      });
      expect(r.exitCode).toBe(6);
      const through = `(through the proxy http://127.0.0.1:${port} from HTTPS_PROXY)`;
      expect(r.stderr).toContain(`scpctl: no complete answer from service.example.com within 0.3 s (timeout) ${through}`);
      // The CONNECT still waiting is abandoned with the attempt: nothing of the run is left open.
      await expect.poll(() => open.size, { timeout: 2_000 }).toBe(0);
    } finally {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('a proxy that refuses the tunnel (403) is a network error, not an interruption', async () => {
    const refusing = createNetServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n'));
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const r = await scpctl(['buckets', 'view', 'finance', '--retries', '0', '--timeout', '5'], {
        env: envFor(emu, dir, { SCPCTL_BASE_URL: 'https://service.example.com', HTTPS_PROXY: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}` }),
      });
      expect(r.exitCode).toBe(6);
      expect(r.stderr).not.toContain('interrupted');
      expect(r.stderr).toMatch(/^scpctl: /);
    } finally {
      await new Promise((resolve) => refusing.close(resolve));
    }
  });
});

describe('over TLS with a private certificate authority', () => {
  let emu: Emulator;
  let caFile: string;
  let tls: ReturnType<typeof privateCa>;

  beforeAll(async () => {
    tls = privateCa(dir);
    caFile = tls.ca;
    emu = await startEmulator(['--profile', 'finance=tls-bucket', '--tls-cert', tls.cert, '--tls-key', tls.key]);
    expect(emu.url).toMatch(/^https:\/\//);
  });
  afterAll(async () => emu?.stop());

  it('without the CA: exit 6, a message about the certificate, a hint to --ca-cert, no retries', async () => {
    const r = await scpctl(['buckets', 'view', 'finance'], { env: envFor(emu, dir) });
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/^scpctl: TLS certificate of 127\.0\.0\.1:\d+ could not be verified/);
    expect(r.stderr).toContain('--ca-cert');
    expect(r.stderr).not.toContain('attempts');
  });

  it('with --ca-cert, SCPCTL_CA_CERT or the config key: success', async () => {
    expect((await scpctl(['buckets', 'view', 'finance', '--ca-cert', caFile], { env: envFor(emu, dir) })).stdout).toBe('tls-bucket\n');
    expect((await scpctl(['buckets', 'view', 'finance'], { env: envFor(emu, dir, { SCPCTL_CA_CERT: caFile }) })).stdout).toBe('tls-bucket\n');
    const cfg = tempDir();
    const env = { ...envFor(emu, cfg) };
    // A file that holds no certificate is refused when it is set, not on every command after.
    const notPem = join(dir, 'not-a-cert.txt');
    writeFileSync(notPem, 'hello\n');
    const refused = await scpctl(['config', 'set', 'ca-cert', notPem], { env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe(`scpctl: caCert: ${notPem} holds no PEM certificate\n`);
    expect((await scpctl(['config', 'set', 'ca-cert', caFile], { env })).exitCode).toBe(0);
    expect((await scpctl(['buckets', 'view', 'finance'], { env })).stdout).toBe('tls-bucket\n');
    removeDir(cfg);
  });

  it('NODE_EXTRA_CA_CERTS works too', async () => {
    const r = await scpctl(['buckets', 'view', 'finance'], { env: envFor(emu, dir, { NODE_EXTRA_CA_CERTS: caFile }) });
    expect(r.stdout).toBe('tls-bucket\n');
  });

  it('an unreadable CA file is a usage error', async () => {
    const r = await scpctl(['buckets', 'view', 'finance', '--ca-cert', join(dir, 'nope.pem')], { env: envFor(emu, dir) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('cannot read the CA file');
  });

  it('an empty lower-case proxy variable wins over the upper-case one, as undici reads them: no proxy', async () => {
    const dead = createNetServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const port = (dead.address() as AddressInfo).port;
    await new Promise((resolve) => dead.close(resolve));
    const env = envFor(emu, dir, { http_proxy: '', HTTP_PROXY: `http://127.0.0.1:${port}`, https_proxy: '', HTTPS_PROXY: `http://127.0.0.1:${port}` });
    const r = await scpctl(['buckets', 'view', 'finance', '--ca-cert', caFile, '--retries', '0'], { env });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('tls-bucket\n');
  });

  it('an https:// proxy whose certificate is not trusted: the proxy named, not the service, and no retries', async () => {
    // The proxy's own certificate, made by the CA only --ca-cert names (the service's): the tunnel's TLS is
    // the proxy's, which --ca-cert does not vouch for.
    const proxy = createTlsServer({ cert: readFileSync(tls.cert), key: readFileSync(tls.key) });
    let connects = 0;
    proxy.on('connect', (_req, socket: Socket) => {
      connects++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const at = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const r = await scpctl(['buckets', 'view', 'finance', '--retries', '2', '--ca-cert', caFile], {
        env: envFor(emu, dir, { SCPCTL_BASE_URL: 'https://service.example.com', HTTPS_PROXY: `https://${at}` }),
      });
      expect(r.exitCode).toBe(6);
      const why = `TLS certificate of ${at} could not be verified (UNABLE_TO_VERIFY_LEAF_SIGNATURE) (through the proxy https://${at} from HTTPS_PROXY)`;
      expect(r.stderr.split('\n')[0]).toBe(`scpctl: ${why}`);
      expect(r.stderr).not.toContain('attempts');
      expect(r.stderr).toContain('NODE_EXTRA_CA_CERTS');
      expect(connects).toBe(0);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('through a SOCKS5 proxy, logged in with the user and password of its URL, with the CA', async () => {
    // A SOCKS5 server of the fewest lines (RFC 1928, 1929): it logs in, connects, then pipes both ways.
    const seen: string[] = [];
    const socks = createNetServer((client) => {
      client.once('data', () => {
        client.write(Buffer.from([5, 2]));
        client.once('data', (login) => {
          const user = login.subarray(2, 2 + login[1]!).toString();
          seen.push(`${user}:${login.subarray(3 + login[1]!).toString()}`);
          client.write(Buffer.from([1, 0]));
          client.once('data', (request) => {
            const host = request.subarray(5, 5 + request[4]!).toString();
            const port = request.readUInt16BE(5 + request[4]!);
            seen.push(`${host}:${port}`);
            const upstream = netConnect(port, host, () => {
              client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
              client.pipe(upstream).pipe(client);
            });
            upstream.on('error', () => client.destroy());
          });
        });
      });
    });
    await new Promise<void>((resolve) => socks.listen(0, '127.0.0.1', resolve));
    try {
      const proxy = `socks5://who:pa%40ss@127.0.0.1:${(socks.address() as AddressInfo).port}`;
      const r = await scpctl(['buckets', 'view', 'finance', '--ca-cert', caFile], { env: envFor(emu, dir, { HTTPS_PROXY: proxy }) });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('tls-bucket\n');
      expect(seen).toEqual(['who:pa@ss', new URL(emu.url).host]);
    } finally {
      socks.close();
    }
  });

  it('through a proxy (CONNECT) with the CA', async () => {
    const proxy = createProxy(createServer());
    const connects: string[] = [];
    proxy.on('connect', (req) => connects.push(req.url ?? ''));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const r = await scpctl(['buckets', 'view', 'finance', '--ca-cert', caFile], { env: envFor(emu, dir, { HTTPS_PROXY: proxyUrl }) });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('tls-bucket\n');
      expect(connects).toEqual([new URL(emu.url).host]);
      // The run closed its tunnel when it ended: nothing of it outlives main(), in a process or in a test's.
      await expect.poll(() => new Promise((resolve) => proxy.getConnections((_, count) => resolve(count))), { timeout: 2_000 }).toBe(0);
    } finally {
      proxy.closeAllConnections?.();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
