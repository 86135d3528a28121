// Pieces of the first-day fixes: --wait keeping its arguments and the slow-request label (pure), and which
// failed mutations may still have been applied (the real client and transport against sockets that refuse,
// cut the connection, or answer 503 and 429).
import { afterEach, describe, expect, it } from 'vitest';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { keepWaitArguments } from '../../src/commands/command-spec.js';
import { slowLabel } from '../../src/output/slow-spinner.js';
import { ScpClient } from '../../src/api/client.js';
import { bodyBytes } from '../../src/core/wire.js';
import { NetworkError } from '../../src/errors.js';
import { TestClock } from '../test-clock.js';
import { closestNames, editDistance } from '../../src/core/closest.js';

describe('closestNames (a mistyped profile\'s suggestion)', () => {
  it('counts insertions, deletions, substitutions and swapped neighbours as one edit each', () => {
    expect(editDistance('finance', 'finance')).toBe(0);
    expect(editDistance('finanse', 'finance')).toBe(1);
    expect(editDistance('fiannce', 'finance')).toBe(1);
    expect(editDistance('finace', 'finance')).toBe(1);
    expect(editDistance('finances', 'finance')).toBe(1);
  });

  it('gives the names at the best distance, case aside, in the order given; never the word itself nor a far name', () => {
    const seen = ['legal', 'finance-eu', 'finance', 'finance-us'];
    expect(closestNames('finanse', seen)).toEqual(['finance']);
    expect(closestNames('finance-e', seen)).toEqual(['finance-eu']);
    expect(closestNames('finance-xx', seen)).toEqual(['finance-eu', 'finance-us']);
    expect(closestNames('LEGAL', seen)).toEqual(['legal']);
    expect(closestNames('legal', seen)).toEqual([]);
    expect(closestNames('payroll', seen)).toEqual([]);
    expect(closestNames('ab', ['xy'])).toEqual([]);
    expect(closestNames('finance', [])).toEqual([]);
  });
});

describe('keepWaitArguments', () => {
  it.each([
    [['buckets', 'append', '--wait', 'finance', 'a'], ['buckets', 'append', 'finance', 'a', '--wait']],
    [['buckets', 'view', '--wait', 'finance'], ['buckets', 'view', 'finance', '--wait']],
    [['buckets', 'view', '--wait', 'finance', '--', '-odd'], ['buckets', 'view', 'finance', '--wait', '--', '-odd']],
  ])('moves a --wait followed by a word that is not a number: %j', (argv, expected) => {
    expect(keepWaitArguments(argv)).toEqual(expected);
  });

  it.each([
    [['buckets', 'view', 'finance', '--wait', '30']],
    [['buckets', 'view', '--wait', '2.5', 'finance']],
    [['buckets', 'view', 'finance', '--wait']],
    [['buckets', 'view', '--wait', '-q', 'finance']],
    [['buckets', 'view', '--wait=soon', 'finance']],
    [['buckets', 'view', 'finance', '--wait', '--', 'x']],
    [['buckets', 'view', 'x', '--', '--wait', 'finance']],
  ])('leaves everything else as it is: %j', (argv) => {
    expect(keepWaitArguments(argv)).toEqual(argv);
  });
});

describe('slowLabel', () => {
  it('names the operation and the seconds so far, to a tenth', () => {
    expect(slowLabel('viewBucketList finance', 2449)).toBe('viewBucketList finance (2.4 s)');
    expect(slowLabel('report', -5)).toBe('report (0.0 s)');
  });
});

describe('whether a failed change may have been applied (real client, real transport, real sockets)', () => {
  // Each server misbehaves in one way; the client's error says "may have been applied" exactly when an
  // attempt may have reached the service. The transport knows which did: no message is parsed.
  const servers: Array<{ close(): void }> = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
  });

  async function listen(server: NetServer): Promise<number> {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  async function appendTo(port: number, retries = 1): Promise<string> {
    const client = new ScpClient({
      baseUrl: new URL(`http://127.0.0.1:${port}`),
      token: 'tok_unit_test',
      userAgent: 'scpctl-test',
      transport: { env: {}, timeoutMs: 2_000, retries, clock: new TestClock('nothing') },
    });
    const failure = await client.bucketOp('p', 'appendToBucketList', bodyBytes([['list', ['a-b-c']]])).then(
      () => expect.fail('the change was taken'),
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(NetworkError);
    return (failure as NetworkError).message;
  }

  /** Every connection is cut once the request has arrived. */
  const resetting = () => createNetServer((socket) => socket.once('data', () => socket.resetAndDestroy()));

  it('refused on every attempt: it never left this machine', async () => {
    const port = await listen(createNetServer());
    servers.pop()!.close();
    expect(await appendTo(port)).toMatch(/refused \(after 2 attempts\)$/);
  });

  it('cut after the request arrived: it may have been applied', async () => {
    expect(await appendTo(await listen(resetting()))).toMatch(/reset \(after 2 attempts\); the change may have been applied$/);
  });

  it('cut once, then refused: the first attempt may have been applied, whatever the last one met', async () => {
    const server = createNetServer((socket) => {
      server.close(); // the next attempt finds nobody listening
      socket.once('data', () => socket.resetAndDestroy());
    });
    expect(await appendTo(await listen(server))).toMatch(/refused \(after 2 attempts\); the change may have been applied$/);
  });

  it('503 may have been applied; 429 on every attempt was refused by the service', async () => {
    // The service's own words say nothing about it ("refused" in a 503, nothing in a 429).
    const answering = (status: number, message: string) =>
      createHttpServer((_request, response) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'error', message })));
    expect(await appendTo(await listen(answering(503, 'upstream connection refused')))).toMatch(/HTTP 503: .*; the change may have been applied$/);
    expect(await appendTo(await listen(answering(429, 'slow down')))).not.toContain('may have been applied');
  });
});
