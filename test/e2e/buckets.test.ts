// The five bucket-list commands, end to end: the built binary against the emulator.
import { beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { BIN, removeDir, scpctl, tempDir, type Emulator, useEmulator } from './harness.js';

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
useEmulator(['--profile', 'finance', '--profile', 'ops'], (suite) => ({ emu, dir, env } = suite));
beforeEach(async () => {
  await emu.clearFaults();
  await emu.setProfile('finance', ['alpha-one', 'beta-two']);
  await emu.clearRequests();
});

const run = (args: string[], extra: Parameters<typeof scpctl>[1] = {}) => scpctl(args, { env, ...extra });

describe('view', () => {
  it('prints one name a line when piped, and sends viewBucketList with an empty body', async () => {
    const r = await run(['buckets', 'view', 'finance']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('alpha-one\nbeta-two\n');
    const [req] = await emu.requests();
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/api/v1/storage_constraint_profile');
    expect(req!.query).toEqual({ token: '***', name: 'finance', op: 'viewBucketList' }); // the log keeps no token; the emulator accepted it (200)
    expect(req!.status).toBe(200);
    expect(JSON.parse(req!.body)).toEqual({});
  });

  it('gives a JSON object with --json and -o json', async () => {
    for (const flags of [['--json'], ['-o', 'json']]) {
      const r = await run(['buckets', 'view', 'finance', ...flags]);
      expect(JSON.parse(r.stdout)).toEqual({ profile: 'finance', count: 2, buckets: ['alpha-one', 'beta-two'] });
    }
  });

  it('decides colours per run: two runs at once in one process, one forced to colour, one refusing it', async () => {
    const [coloured, plain] = await Promise.all([
      scpctl(['buckets', 'view', 'finance', '-o', 'table'], { env: { ...env, FORCE_COLOR: '1' } }),
      scpctl(['buckets', 'view', 'finance', '-o', 'table'], { env: { ...env, NO_COLOR: '1' } }),
    ]);
    expect(coloured.exitCode).toBe(0);
    expect(plain.exitCode).toBe(0);
    expect(coloured.stdout).toContain('\u001b[1mfinance\u001b[22m: 2 buckets');
    expect(coloured.stdout).toContain('\u001b[90m┌');
    expect(plain.stdout).not.toContain('\u001b');
    expect(plain.stdout).toContain('finance: 2 buckets');
  });

  it('draws a table with the profile and count with -o table', async () => {
    const r = await run(['buckets', 'view', 'finance', '-o', 'table']);
    expect(r.stdout).toContain('finance: 2 buckets');
    expect(r.stdout).toMatch(/│\s+1 │ alpha-one\s+│/);
  });

  it('prints nothing for an empty list when piped', async () => {
    await emu.setProfile('finance', []);
    const r = await run(['buckets', 'view', 'finance']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
  });

  it('round-trips: view > f, then replace -f f sends the same list', async () => {
    await emu.setProfile('finance', ['zeta-last', 'alpha-one', 'mid.dle-name']);
    const r = await run(['buckets', 'view', 'finance']);
    const file = join(dir, 'roundtrip.txt');
    writeFileSync(file, r.stdout);
    const replaced = await run(['buckets', 'replace', 'finance', '-f', file]);
    expect(replaced.exitCode).toBe(0);
    expect((await emu.profile('finance')).buckets).toEqual(['zeta-last', 'alpha-one', 'mid.dle-name']);
  });

  it('exits quietly when the reader closes the pipe early', async () => {
    await emu.setProfile('finance', Array.from({ length: 50_000 }, (_, i) => `bucket-${i}`));
    const r = await execa('bash', ['-o', 'pipefail', '-c', `node ${JSON.stringify(BIN)} buckets view finance | head -1`], {
      env: env as Record<string, string>,
      extendEnv: false,
      reject: false,
    });
    expect(r.stdout).toBe('bucket-0');
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  });
});

describe('append, delete, replace', () => {
  it('append sends the names joined by commas, splitting arguments on commas and spaces', async () => {
    const r = await run(['buckets', 'append', 'finance', 'gamma-3,delta-4 epsilon-5', 'zeta-6']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('✔ appendToBucketList finance: 4 names sent');
    const [req] = await emu.requests();
    expect(req!.query.op).toBe('appendToBucketList');
    expect(JSON.parse(req!.body)).toEqual({ list: 'gamma-3,delta-4,epsilon-5,zeta-6' });
    expect((await emu.profile('finance')).buckets).toEqual(['alpha-one', 'beta-two', 'gamma-3', 'delta-4', 'epsilon-5', 'zeta-6']);
  });

  it('append reads piped standard input with comments, CRLF, a BOM and duplicates', async () => {
    const input = '\uFEFF# approved\r\nnew-one, new-two\r\nnew-one # again\r\n\r\n\tnew-three\r\n';
    const r = await run(['buckets', 'append', 'finance'], { input });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('dropped 1 duplicate name');
    const [req] = await emu.requests();
    expect(JSON.parse(req!.body)).toEqual({ list: 'new-one,new-two,new-three' });
  });

  it('reads several -f files and - as standard input, in order', async () => {
    const a = join(dir, 'a.txt');
    writeFileSync(a, 'from-file-a\n');
    const r = await run(['buckets', 'append', 'finance', 'from-arg', '-f', a, '-f', '-'], { input: 'from-stdin\n' });
    expect(r.exitCode).toBe(0);
    const [req] = await emu.requests();
    expect(JSON.parse(req!.body)).toEqual({ list: 'from-arg,from-file-a,from-stdin' });
  });

  it('--quiet silences the summary and the duplicate count', async () => {
    const r = await run(['buckets', 'append', 'finance', 'q-one', 'q-one', '-q']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('--json prints the result object on stdout', async () => {
    const r = await run(['buckets', 'append', 'finance', 'json-one', '--json']);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ profile: 'finance', operation: 'appendToBucketList', sent: { list: ['json-one'] } });
    expect(out.response.status).toBe('success');
  });

  it('delete removes names', async () => {
    const r = await run(['buckets', 'delete', 'finance', 'alpha-one']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('deleteFromBucketList finance: 1 name sent');
    expect((await emu.profile('finance')).buckets).toEqual(['beta-two']);
  });

  it('replace sets the whole list; an empty list needs --allow-empty', async () => {
    const refused = await run(['buckets', 'replace', 'finance'], { input: '# nothing here\n' });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/^scpctl: refusing to replace the list of finance with an empty list/);
    expect(refused.stderr).toContain('--allow-empty');
    expect(await emu.requests()).toEqual([]);

    const allowed = await run(['buckets', 'replace', 'finance', '--allow-empty'], { input: '' });
    expect(allowed.exitCode).toBe(0);
    // The list is read first, to be kept in the history (section 10), then replaced.
    const [read, req] = await emu.requests();
    expect(read!.op).toBe('viewBucketList');
    expect(JSON.parse(req!.body)).toEqual({ list: '' });
    expect((await emu.profile('finance')).buckets).toEqual([]);
  });

  it('global flags work before and after the subcommand', async () => {
    const before = await run(['--json', 'buckets', 'view', 'finance']);
    const after = await run(['buckets', 'view', 'finance', '--json']);
    expect(JSON.parse(before.stdout)).toEqual(JSON.parse(after.stdout));
  });
});

describe('modify', () => {
  it('sends deleteList and addList, deleting first', async () => {
    const r = await run(['buckets', 'modify', 'finance', '--add', 'new-a,new-b', '--add', 'alpha-one', '--delete', 'alpha-one']);
    expect(r.exitCode).toBe(0);
    // The list is read first (kept in the history, guarded against emptying: contract section 13).
    const [view, req] = await emu.requests();
    expect(view!.query.op).toBe('viewBucketList');
    expect(req!.query.op).toBe('modifyBucketList');
    expect(JSON.parse(req!.body)).toEqual({ addList: 'new-a,new-b,alpha-one', deleteList: 'alpha-one' });
    expect((await emu.profile('finance')).buckets).toEqual(['beta-two', 'new-a', 'new-b', 'alpha-one']);
  });

  it('carries only the non-empty key, and reads --add-file/--delete-file', async () => {
    const del = join(dir, 'del.txt');
    writeFileSync(del, 'beta-two\n');
    const r = await run(['buckets', 'modify', 'finance', '--delete-file', del, '--json', '--no-history']);
    expect(r.exitCode).toBe(0);
    const [req, ...more] = await emu.requests();
    expect(more).toEqual([]); // --no-history: the change alone, one request
    expect(JSON.parse(req!.body)).toEqual({ deleteList: 'beta-two' });
    // --json shows both lists, as section 7 of the contract has it: the empty one as [].
    expect(JSON.parse(r.stdout).sent).toEqual({ addList: [], deleteList: ['beta-two'] });
  });

  it('needs at least one list', async () => {
    const r = await run(['buckets', 'modify', 'finance']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('modify needs at least one of --add');
    expect(await emu.requests()).toEqual([]);
  });

  it('labels invalid --add names by flag', async () => {
    const r = await run(['buckets', 'modify', 'finance', '--add', 'ok-name', '--add', 'BAD']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--add 2: "BAD": upper-case letters are not allowed');
  });

  it('reports the invalid names of --add and --delete together, in one list of at most 20', async () => {
    const r = await run(['buckets', 'modify', 'finance', '--add', 'BAD,ok-name', '--delete', 'ALSO_BAD,no']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('scpctl: 3 invalid bucket names; nothing was sent');
    expect(r.stderr).toContain('--add 1: "BAD": upper-case letters are not allowed');
    expect(r.stderr).toContain('--delete 1: "ALSO_BAD": upper-case letters are not allowed');
    expect(r.stderr).toContain('--delete 1: "no": shorter than 3 characters');
    const file = join(dir, 'bad-deletes.txt');
    writeFileSync(file, Array.from({ length: 15 }, (_, i) => `DEL${i}`).join('\n'));
    const many = await run(['buckets', 'modify', 'finance', '--add', Array.from({ length: 15 }, (_, i) => `ADD${i}`).join(','), '--delete-file', file]);
    expect(many.exitCode).toBe(2);
    expect(many.stderr).toContain('scpctl: 30 invalid bucket names');
    expect(many.stderr).toContain('--add 1: "ADD14"');
    expect(many.stderr).toContain(`${file}:5: "DEL4"`);
    expect(many.stderr).not.toContain(`${file}:6:`);
    expect(many.stderr).toContain('… and 10 more');
    expect(await emu.requests()).toEqual([]);
  });
});

describe('input that is refused before anything is sent', () => {
  it('reports every invalid name with its place, and sends nothing', async () => {
    const file = join(dir, 'bad.txt');
    writeFileSync(file, 'good-name\nBad_Name\n# comment\n192.168.1.2\nxn--punycode\n');
    const r = await run(['buckets', 'append', 'finance', 'ok-arg', 'no', '-f', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('scpctl: 4 invalid bucket names; nothing was sent');
    expect(r.stderr).toContain('arg 2: "no": shorter than 3 characters');
    expect(r.stderr).toContain(`${file}:2: "Bad_Name": upper-case letters are not allowed`);
    expect(r.stderr).toContain(`${file}:4: "192.168.1.2": shaped like an IP address`);
    expect(r.stderr).toContain(`${file}:5: "xn--punycode": reserved prefix "xn--"`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(await emu.requests()).toEqual([]);
  });

  it('lists the first 20 invalid names from stdin, then how many more', async () => {
    const input = Array.from({ length: 25 }, (_, i) => `BAD${i}`).join('\n');
    const r = await run(['buckets', 'append', 'finance'], { input });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('stdin:20: "BAD19"');
    expect(r.stderr).not.toContain('stdin:21:');
    expect(r.stderr).toContain('… and 5 more');
  });

  it('--no-validate lifts the S3 rules but never allows control characters', async () => {
    const ok = await run(['buckets', 'append', 'finance', 'Legacy_Bucket', '--no-validate']);
    expect(ok.exitCode).toBe(0);
    const bad = await run(['buckets', 'append', 'finance', '--no-validate'], { input: 'fine\nbad\u0007bell\n' });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('stdin:2:');
    expect((await emu.requests()).length).toBe(1);
  });

  it('refuses a list over 8 MiB, naming its size and the limit', async () => {
    const file = join(dir, 'big.txt');
    const names: string[] = [];
    let bytes = 0;
    for (let i = 0; bytes <= 8 * 1024 * 1024; i++) {
      const name = `bucket-${String(i).padStart(8, '0')}-padding-to-make-it-longer`;
      names.push(name);
      bytes += name.length + 1;
    }
    writeFileSync(file, names.join('\n'));
    const r = await run(['buckets', 'replace', 'finance', '-f', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/list is 8\.\d\d MiB .*the limit is 8 MiB \(8,388,608 bytes\): nothing was sent/);
    expect(await emu.requests()).toEqual([]);
  });

  it('refuses a source over 32 MiB (a file by its size, a device or a pipe as it is read), naming it; nothing sent', async () => {
    const zero = await run(['buckets', 'append', 'finance', '-f', '/dev/zero']);
    expect(zero.exitCode).toBe(2);
    expect(zero.stderr).toBe('scpctl: /dev/zero: larger than the input limit of 32 MiB (33,554,432 bytes)\n');
    const sparse = join(dir, 'sparse.txt');
    writeFileSync(sparse, '');
    truncateSync(sparse, 32 * 1024 * 1024 + 1);
    const file = await run(['buckets', 'replace', 'finance', 'alpha-one', '-f', sparse]);
    expect(file.exitCode).toBe(2);
    expect(file.stderr).toContain(`${sparse}: larger than the input limit of 32 MiB`);
    const piped = await execa('bash', ['-c', `head -c 300000000 /dev/zero | node ${JSON.stringify(BIN)} buckets append finance`], {
      env: env as Record<string, string>,
      extendEnv: false,
      reject: false,
    });
    expect(piped.exitCode).toBe(2);
    expect(piped.stderr).toBe('scpctl: stdin: larger than the input limit of 32 MiB (33,554,432 bytes)');
    expect(await emu.requests()).toEqual([]);
  });

  it('refuses input that is not UTF-8, naming the file or stdin and the line; nothing sent', async () => {
    const file = join(dir, 'latin1.txt');
    writeFileSync(file, Buffer.concat([Buffer.from('good-name\ncaf'), Buffer.from([0xe9]), Buffer.from('-bucket\n')]));
    const r = await run(['buckets', 'append', 'finance', '-f', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`scpctl: ${file}:2: not valid UTF-8`);
    const piped = await run(['buckets', 'sync', 'finance', '-f', '-'], { input: Buffer.from([0x61, 0x62, 0x63, 0x0a, 0xff, 0x0a]) });
    expect(piped.exitCode).toBe(2);
    expect(piped.stderr).toContain('scpctl: stdin:2: not valid UTF-8');
    expect(await emu.requests()).toEqual([]);
  });

  it('cuts a long invalid name in the message', async () => {
    const file = join(dir, 'one-long-line.txt');
    writeFileSync(file, `${'x'.repeat(2_000_000)}\n`);
    const r = await run(['buckets', 'append', 'finance', '-f', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${file}:1: "${'x'.repeat(79)}…": longer than 63 characters (2000000)`);
    expect(r.stderr.length).toBeLessThan(1000);
  });

  it('an unreadable file is a usage error', async () => {
    const r = await run(['buckets', 'append', 'finance', '-f', join(dir, 'missing.txt')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('cannot read');
    expect(r.stderr).toContain('no such file');
  });

  it('nothing to send is a usage error', async () => {
    const r = await run(['buckets', 'append', 'finance'], { input: '# only a comment\n' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('nothing to send');
    expect(await emu.requests()).toEqual([]);
  });

  it('unknown flags and commands are usage errors with a suggestion', async () => {
    const flag = await run(['buckets', 'view', 'finance', '--jsn']);
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toMatch(/^scpctl: unknown option '--jsn'/);
    const command = await run(['buckets', 'veiw', 'finance']);
    expect(command.exitCode).toBe(2);
    expect(command.stderr).toContain('Did you mean view?');
  });

  it('-o with a format the command does not have is a usage error', async () => {
    const r = await run(['buckets', 'view', 'finance', '-o', 'csv']);
    expect(r.exitCode).toBe(2);
    expect(await emu.requests()).toEqual([]);
  });

  // The format is judged before the names are read: an invalid name does not hide the bad -o.
  it.each([['append', 'Bad_Name'], ['delete', 'Bad_Name'], ['replace', 'Bad_Name'], ['modify', '--add', 'Bad_Name']])(
    '%s judges -o before its input',
    async (...command) => {
      const r = await run(['buckets', command[0]!, 'finance', ...command.slice(1), '-o', 'csv']);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/^scpctl: .*csv/);
      expect(r.stderr).not.toContain('Bad_Name');
      expect(await emu.requests()).toEqual([]);
    },
  );
});

describe('profile names', () => {
  const commands: string[][] = [
    ['view'],
    ['append', 'new-bucket'],
    ['delete', 'alpha-one'],
    ['replace', 'alpha-one'],
    ['modify', '--add', 'new-bucket'],
    ['sync', '-f', '-'],
  ];

  it.each([
    ['', 'is empty'],
    ['   ', 'is empty'],
    [' finance', 'has whitespace at its start or end'],
    ['finance\t', 'has whitespace at its start or end'],
    ['fin\u0007ance', 'holds a control character'],
  ])('refuses %j in every bucket command, before reading input; nothing sent', async (profile, why) => {
    for (const [command, ...rest] of commands) {
      const r = await run(['buckets', command!, profile, ...rest], { input: 'alpha-one\n' });
      expect(r.exitCode, `buckets ${command}`).toBe(2);
      expect(r.stderr, `buckets ${command}`).toBe(`scpctl: the profile name ${JSON.stringify(profile)} ${why}\n`);
    }
    const first = await run(['buckets', 'append', profile, '-f', join(dir, 'missing.txt')]);
    expect(first.stderr).toContain('the profile name');
    expect(await emu.requests()).toEqual([]);
  });
});

describe('exit codes for API answers', () => {
  it('3 without a token, naming how to set one; nothing sent', async () => {
    const r = await run(['buckets', 'view', 'finance'], { env: { ...env, SCPCTL_TOKEN: undefined } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('scpctl: no token configured');
    expect(r.stderr).toContain('hint:');
    expect(await emu.requests()).toEqual([]);
  });

  it('3 when the token is rejected', async () => {
    const r = await run(['buckets', 'view', 'finance'], { env: { ...env, SCPCTL_TOKEN: 'wrong-token' } });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('Invalid token');
  });

  it('3 for an HTTP 200 whose body says the token is bad', async () => {
    await emu.faults([{ kind: 'status', status: 200, body: '{"status":"Error","errorCode":"Authorization Error","errors":["Invalid token"]}' }]);
    const r = await run(['buckets', 'view', 'finance']);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('scpctl: viewBucketList finance: Authorization Error: Invalid token');
  });

  it('4 when the profile does not exist', async () => {
    const r = await run(['buckets', 'append', 'nope-profile', 'some-bucket']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain("Profile 'nope-profile' does not exist");
  });

  it('5 when a change is pending, with a hint about --wait', async () => {
    await emu.setPending('finance', 60_000);
    const r = await run(['buckets', 'append', 'finance', 'late-one']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('pending');
    expect(r.stderr).toContain('--wait');
    await emu.setPending('finance', 0);
  });

  it('1 for another API error', async () => {
    await emu.faults([{ kind: 'status', status: 400, body: '{"status":"error","errors":["list has a problem","second reason"]}' }]);
    const r = await run(['buckets', 'append', 'finance', 'x-bucket']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('list has a problem; second reason');
  });

  it('6 when nothing listens, after the retries', async () => {
    const r = await run(['buckets', 'view', 'finance', '--retries', '0'], { env: { ...env, SCPCTL_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/^scpctl: connection to 127\.0\.0\.1:9 refused/);
  });

  it('6 when 5xx persists past the retries, which are counted', async () => {
    await emu.faults([{ kind: 'status', status: 503, body: '{"status":"error","errors":["busy"]}', count: 5 }]);
    const r = await run(['buckets', 'view', 'finance', '--retries', '1']);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain('HTTP 503');
    expect(r.stderr).toContain('(after 2 attempts)');
    expect((await emu.requests()).length).toBe(2);
  });

  it('7 for an HTML page, quoting the status and the start of the body', async () => {
    await emu.faults([{ kind: 'status', status: 200, headers: { 'Content-Type': 'text/html' }, body: '<html><body>Sign in to the proxy</body></html>' }]);
    const r = await run(['buckets', 'view', 'finance']);
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain('HTTP 200');
    expect(r.stderr).toContain('Sign in to the proxy');
  });

  it('JSON labelled text/html is still read as JSON: the content type decides nothing (contract 5)', async () => {
    await emu.faults([{ kind: 'status', status: 200, headers: { 'Content-Type': 'text/html' }, body: '{"status":"success","data":["html-labelled"]}' }]);
    const r = await run(['buckets', 'view', 'finance']);
    expect([r.exitCode, r.stdout]).toEqual([0, 'html-labelled\n']);
  });

  it('7 for a list of the wrong shape', async () => {
    await emu.faults([{ kind: 'wrong-shape' }]);
    const r = await run(['buckets', 'view', 'finance']);
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain('bucket list');
  });

  it('--verbose logs each request with the token masked, and the stack only then', async () => {
    const r = await run(['buckets', 'view', 'nope-profile', '--verbose']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('→ POST http://');
    expect(r.stderr).toContain('token=***');
    expect(r.stderr).toContain('← HTTP 404');
    expect(r.stderr).toMatch(/\n\s+at /);
  });
});

describe('settings', () => {
  it('refuses plain http to a non-loopback host and sends nothing', async () => {
    const r = await run(['buckets', 'view', 'finance', '--base-url', 'http://service.example.com']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('refusing plain http:// to service.example.com');
  });

  it('keeps a path in the base URL, with or without a trailing slash', async () => {
    for (const base of [`${emu.url}/tenant-a`, `${emu.url}/tenant-a/`]) {
      await emu.clearRequests();
      await run(['buckets', 'view', 'finance', '--base-url', base]);
      const [req] = await emu.requests();
      expect(req!.path).toBe('/tenant-a/api/v1/storage_constraint_profile');
    }
  });

  it('reads the token from --token-file and SCPCTL_TOKEN_FILE, trimming whitespace', async () => {
    const file = join(dir, 'token.txt');
    writeFileSync(file, `  ${emu.token}\n`);
    const noEnvToken = { ...env, SCPCTL_TOKEN: undefined };
    expect((await run(['buckets', 'view', 'finance', '--token-file', file], { env: noEnvToken })).exitCode).toBe(0);
    expect((await run(['buckets', 'view', 'finance'], { env: { ...noEnvToken, SCPCTL_TOKEN_FILE: file } })).exitCode).toBe(0);
  });

  it('refuses token and CA files that are devices, huge or not UTF-8, without reading them', async () => {
    const latin1 = join(dir, 'latin1-token.txt');
    writeFileSync(latin1, Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    const noEnvToken = { ...env, SCPCTL_TOKEN: undefined };
    const device = await run(['buckets', 'view', 'finance', '--token-file', '/dev/zero'], { env: noEnvToken, timeout: 20_000 });
    expect(device.exitCode).toBe(2);
    expect(device.stderr).toContain('is not a regular file or a pipe');
    const encoding = await run(['buckets', 'view', 'finance', '--token-file', latin1], { env: noEnvToken });
    expect(encoding.exitCode).toBe(2);
    expect(encoding.stderr).toContain('not valid UTF-8');
    const ca = await run(['buckets', 'view', 'finance', '--ca-cert', '/dev/zero'], { timeout: 20_000 });
    expect(ca.exitCode).toBe(2);
    expect(await emu.requests()).toEqual([]);
  });

  it('reads the token from a pipe, as --token-file <(command) gives', async () => {
    const r = await execa('bash', ['-c', `node ${JSON.stringify(BIN)} buckets view finance --token-file <(printf '%s\\n' "$T")`], {
      env: { ...(env as Record<string, string>), SCPCTL_TOKEN: '', T: emu.token },
      extendEnv: false,
      reject: false,
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('alpha-one\nbeta-two');
  });

  it('config list reads a --token-file pipe once, through the run that read it first (no second, blocking read)', async () => {
    const r = await execa('bash', ['-c', `node ${JSON.stringify(BIN)} config list --token-file <(printf '%s\\n' "$T")`], {
      env: { ...(env as Record<string, string>), SCPCTL_TOKEN: '', T: emu.token },
      extendEnv: false,
      reject: false,
      timeout: 10_000,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^token\s+\S*\*\*\*\S*\s+--token-file$/m);
    expect(r.stdout).not.toContain('invalid');
  });

  it('stdout on a terminal and stderr in a file: no colour codes in the file', async () => {
    const errFile = join(dir, 'stderr.log');
    // `script` gives the command a terminal for stdout; stderr is redirected to a plain file.
    const r = await execa('script', ['-qfec', `node ${JSON.stringify(BIN)} buckets view nope-profile 2>${JSON.stringify(errFile)}`, '/dev/null'], {
      env: { ...(env as Record<string, string>), TERM: 'xterm-256color' },
      extendEnv: false,
      reject: false,
    });
    expect(r.exitCode).toBe(4);
    const logged = readFileSync(errFile, 'utf8');
    expect(logged).toContain('hint:');
    expect(logged).not.toContain('\u001b[');
  });

  it('--verbose shows the query exactly as sent, the token alone masked', async () => {
    await emu.setProfile('fin ance', ['x-bucket']);
    const r = await run(['buckets', 'view', 'fin ance', '--verbose']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('?token=***&name=fin%20ance&op=viewBucketList');
  });

  it('--timeout bounds an answer that never comes', async () => {
    await emu.faults([{ kind: 'hang' }]);
    const started = Date.now();
    const r = await run(['buckets', 'view', 'finance', '--timeout', '0.5', '--retries', '0']);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain('timeout');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('login, logout and config', () => {
  it('login stores URL and token (mode 0600), config never prints the token whole, logout forgets it', async () => {
    const cfg = tempDir();
    const base = { PATH: process.env.PATH, HOME: cfg, SCPCTL_CONFIG_DIR: cfg };
    const login = await scpctl(['login', '--base-url', emu.url, '--with-token'], { env: base, input: `${emu.token}\n` });
    expect(login.exitCode).toBe(0);
    expect(login.stderr).toContain('✔ logged in to');
    const file = join(cfg, 'config.json');
    const { statSync } = await import('node:fs');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).contexts.default.baseUrl).toBe(emu.url);

    const view = await scpctl(['buckets', 'view', 'finance'], { env: base });
    expect(view.exitCode).toBe(0);

    const get = await scpctl(['config', 'get', 'token'], { env: base });
    expect(get.stdout.trim()).toBe(`${emu.token.slice(0, 4)}***`);
    const list = await scpctl(['config', 'list'], { env: base });
    expect(list.stdout).toMatch(/token\s+tok_\*\*\*\s+config \(context default\)/);
    expect((await scpctl(['config', 'path'], { env: base })).stdout.trim()).toBe(file);

    const logout = await scpctl(['logout'], { env: base });
    expect(logout.exitCode).toBe(0);
    expect((await scpctl(['buckets', 'view', 'finance'], { env: base })).exitCode).toBe(3);
    removeDir(cfg);
  });

  it('login refuses a rejected token and stores nothing', async () => {
    const cfg = tempDir();
    const base = { PATH: process.env.PATH, SCPCTL_CONFIG_DIR: cfg };
    const r = await scpctl(['login', '--base-url', emu.url, '--with-token'], { env: base, input: 'not-the-token\n' });
    expect(r.exitCode).toBe(3);
    expect((await scpctl(['config', 'get', 'token'], { env: base })).exitCode).toBe(1);
    removeDir(cfg);
  });

  it('config set token VALUE is refused and stores nothing', async () => {
    const cfg = tempDir();
    const base = { PATH: process.env.PATH, SCPCTL_CONFIG_DIR: cfg };
    const r = await scpctl(['config', 'set', 'token', 'abc123secretvalue'], { env: base });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toContain('abc123secretvalue');
    expect((await scpctl(['config', 'get', 'token'], { env: base })).exitCode).toBe(1);
    removeDir(cfg);
  });

  it('flag beats environment beats the store, per context', async () => {
    const cfg = tempDir();
    const base = { PATH: process.env.PATH, SCPCTL_CONFIG_DIR: cfg };
    await scpctl(['config', 'set', 'timeout', '40'], { env: base });
    await scpctl(['--context', 'tenant-b', 'config', 'set', 'base-url', 'tenant-b.example.com'], { env: base });
    const json = async (args: string[], e = base) => JSON.parse((await scpctl([...args, 'config', 'list', '--json'], { env: e })).stdout).settings;
    expect(await json([])).toContainEqual({ key: 'timeout', value: '40', source: 'config (context default)' });
    expect(await json([], { ...base, SCPCTL_TIMEOUT: '50' } as never)).toContainEqual({ key: 'timeout', value: '50', source: 'SCPCTL_TIMEOUT' });
    expect(await json(['--timeout', '60'], { ...base, SCPCTL_TIMEOUT: '50' } as never)).toContainEqual({ key: 'timeout', value: '60', source: '--timeout' });
    expect(await json(['--context', 'tenant-b'])).toContainEqual({ key: 'baseUrl', value: 'https://tenant-b.example.com', source: 'config (context tenant-b)' });
    await scpctl(['config', 'use-context', 'tenant-b'], { env: base });
    expect(await json([])).toContainEqual({ key: 'context', value: 'tenant-b', source: 'config (current context)' });
    const contexts = await scpctl(['config', 'get-contexts'], { env: base });
    expect(contexts.stdout).toMatch(/^\*\s+tenant-b/m);
    removeDir(cfg);
  });

  it('config get of an unset key exits 1 saying it is not set, not that the API failed', async () => {
    const cfg = tempDir();
    const base = { PATH: process.env.PATH, SCPCTL_CONFIG_DIR: cfg };
    const r = await scpctl(['config', 'get', 'timeout'], { env: base });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('scpctl: timeout is not set in context default\nhint: Set it with: scpctl config set timeout VALUE\n');
    expect(r.stdout).toBe('');
    removeDir(cfg);
  });

  it('a broken stored value or token file blocks neither set, unset, logout nor login; config list shows it', async () => {
    const cfg = tempDir();
    const file = join(cfg, 'config.json');
    writeFileSync(file, JSON.stringify({ contexts: { default: { timeout: 'abc', retries: '2', token: emu.token } } }), { mode: 0o600 });
    const base = { PATH: process.env.PATH, SCPCTL_CONFIG_DIR: cfg };

    const list = await scpctl(['config', 'list'], { env: base });
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toMatch(/^timeout\s+abc\s+config \(context default\)\s+\(invalid: timeout: "abc" is not a timeout in seconds/m);
    expect(list.stdout).toMatch(/^retries\s+2\s+config \(context default\)$/m);
    const json = JSON.parse((await scpctl(['config', 'list', '--json'], { env: base })).stdout);
    expect(json.configFile).toBe(file);
    expect(json.settings).toContainEqual({ key: 'timeout', value: 'abc', source: 'config (context default)', error: expect.stringContaining('"abc" is not a timeout') });
    expect(json.settings).toContainEqual({ key: 'retries', value: '2', source: 'config (context default)' });
    // A flag before the broken value hides it.
    const flagged = JSON.parse((await scpctl(['config', 'list', '--json', '--timeout', '7'], { env: base })).stdout);
    expect(flagged.settings).toContainEqual({ key: 'timeout', value: '7', source: '--timeout' });

    const unset = await scpctl(['config', 'unset', 'timeout'], { env: base });
    expect(unset.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).contexts.default).toEqual({ retries: '2', token: emu.token });
    writeFileSync(file, JSON.stringify({ contexts: { default: { timeout: 'abc', token: emu.token } } }), { mode: 0o600 });
    expect((await scpctl(['config', 'set', 'timeout', '5'], { env: base })).exitCode).toBe(0);
    expect((await scpctl(['config', 'get', 'timeout'], { env: base })).stdout).toBe('5\n');

    const missing = join(cfg, 'no-such-token-file');
    const withFile = { ...base, SCPCTL_TOKEN_FILE: missing };
    const listed = JSON.parse((await scpctl(['config', 'list', '--json'], { env: withFile })).stdout);
    expect(listed.settings).toContainEqual({ key: 'token', value: missing, source: 'SCPCTL_TOKEN_FILE', error: expect.stringContaining('cannot read the token file') });
    expect((await scpctl(['config', 'set', 'retries', '1'], { env: withFile })).exitCode).toBe(0);
    const logout = await scpctl(['logout'], { env: withFile });
    expect(logout.exitCode).toBe(0);
    expect(logout.stderr).toContain('✔ token removed from context default');
    expect(JSON.parse(readFileSync(file, 'utf8')).contexts.default).toEqual({ timeout: '5', retries: '1' });
    // Nor login, which needs no token from the settings: it stores the one given, and says the variable overrides it.
    const login = await scpctl(['login', '--base-url', emu.url, '--with-token', '--no-verify'], { env: withFile, input: `${emu.token}\n` });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(login.stderr).toContain('SCPCTL_TOKEN_FILE is set in this environment and overrides the token just stored');
    removeDir(cfg);
  });

  it('login --with-token refuses standard input over 32 MiB and stores nothing', async () => {
    const cfg = tempDir();
    const r = await execa('bash', ['-c', `head -c 100000000 /dev/zero | node ${JSON.stringify(BIN)} login --base-url ${emu.url} --with-token --no-verify`], {
      env: { PATH: process.env.PATH!, HOME: cfg, SCPCTL_CONFIG_DIR: cfg },
      extendEnv: false,
      reject: false,
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('scpctl: stdin: larger than the input limit of 32 MiB (33,554,432 bytes)');
    expect(existsSync(join(cfg, 'config.json'))).toBe(false);
    removeDir(cfg);
  });

  it('--version prints the version alone', async () => {
    const r = await scpctl(['--version']);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n?$/);
    expect(r.exitCode).toBe(0);
  });
});
