// At the keyboard (issue 24): what people type or hand in by mistake ends in a clear error that says what
// to do, and nothing is sent. Each test fails on the code before the fix.
import { beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scpctl, type Emulator, useEmulator } from './harness.js';

let emu: Emulator;
let dir: string;
let env: Record<string, string | undefined>;
useEmulator(['--profile', 'finance', '--profile', 'legal'], (suite) => ({ emu, dir, env } = suite));

let work: string;
beforeEach(async () => {
  await emu.setProfile('finance', ['alpha-data', 'old-bucket']);
  await emu.setProfile('legal', ['legal-one']);
  await emu.clearRequests();
  work = join(dir, `kb-${Math.random().toString(36).slice(2)}`);
  mkdirSync(work);
});

const run = (args: string[], extra: Record<string, string | undefined> = {}, input?: string | Buffer) =>
  scpctl(args, { env: { ...env, ...extra }, cwd: work, ...(input === undefined ? {} : { input }) });

describe('input in the wrong encoding is named', () => {
  const utf16 = {
    'little-endian with a byte-order mark': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('alpha-data\n', 'utf16le')]),
    'big-endian with a byte-order mark': Buffer.from([0xfe, 0xff, 0, 0x61, 0, 0x62, 0, 0x63]),
    'little-endian without a mark (NULs between ASCII)': Buffer.from('alpha-data\nbravo\n', 'utf16le'),
  };
  it.each(Object.entries(utf16))('a UTF-16 file, %s: exit 2 with the iconv line, nothing sent', async (_what, bytes) => {
    const file = join(work, 'names.txt');
    writeFileSync(file, bytes);
    const r = await run(['buckets', 'append', 'finance', '-f', file]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toBe(`scpctl: ${file} is UTF-16; convert it: iconv -f UTF-16 -t UTF-8 ${file}\n`);
    expect(await emu.requests()).toEqual([]);
  });

  it('UTF-16 on standard input, and as a manifest', async () => {
    const piped = await run(['buckets', 'append', 'finance'], {}, Buffer.from('alpha-data\n', 'utf16le'));
    expect(piped.exitCode).toBe(2);
    expect(piped.stderr).toContain('stdin is UTF-16; convert it: iconv -f UTF-16 -t UTF-8');
    writeFileSync(join(work, 'scpctl.yaml'), Buffer.from('profiles:\n  finance:\n    buckets: [a-b-c]\n', 'utf16le'));
    const manifest = await run(['apply', '-f', 'scpctl.yaml', '--dry-run']);
    expect(manifest.exitCode).toBe(2);
    expect(manifest.stderr).toContain('scpctl.yaml is UTF-16; convert it: iconv -f UTF-16 -t UTF-8 scpctl.yaml');
  });

  it('a file holding only a byte-order mark is an empty file', async () => {
    writeFileSync(join(work, 'bom.txt'), Buffer.from([0xef, 0xbb, 0xbf]));
    const r = await run(['buckets', 'append', 'finance', '-f', 'bom.txt']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('scpctl: no bucket names in the input: nothing to send\n');
  });
});

describe('apply --plan run again after it succeeded', () => {
  it("says 'already applied' and exits 0; a profile changed in another way is still 9", async () => {
    writeFileSync(join(work, 'scpctl.yaml'), 'profiles:\n  finance:\n    buckets: [alpha-data, bravo-logs]\n  legal:\n    buckets: [legal-one, legal-two]\n');
    expect((await run(['apply', '-f', 'scpctl.yaml', '--dry-run', '--save-plan', 'plan.json'])).exitCode).toBe(0);
    expect((await run(['apply', '--plan', 'plan.json'])).exitCode).toBe(0);
    await emu.clearRequests();
    const again = await run(['apply', '--plan', 'plan.json', '--json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('finance: already applied');
    expect(again.stderr).toContain('legal: already applied');
    expect(JSON.parse(again.stdout).profiles.map((p: { status: string }) => p.status)).toEqual(['unchanged', 'unchanged']);
    expect(await emu.changes()).toEqual([]);

    await emu.setProfile('legal', ['legal-one', 'legal-two', 'someone-elses']);
    const changed = await run(['apply', '--plan', 'plan.json']);
    expect(changed.exitCode).toBe(9);
    expect(changed.stderr).toContain('finance: already applied');
    expect(changed.stderr).toContain('the live list of legal changed since the plan was made');
  });
});

describe('contexts', () => {
  it('an unknown --context or SCPCTL_CONTEXT is exit 2 listing the contexts that exist; nothing sent', async () => {
    const config = join(work, 'config');
    mkdirSync(config);
    writeFileSync(join(config, 'config.json'), JSON.stringify({ contexts: { prod: { baseUrl: emu.url }, staging: { baseUrl: emu.url } } }), { mode: 0o600 });
    for (const [args, extra, source] of [
      [['--context', 'prd', 'buckets', 'view', 'finance'], {}, '--context'],
      [['buckets', 'view', 'finance'], { SCPCTL_CONTEXT: 'prd' }, 'SCPCTL_CONTEXT'],
    ] as const) {
      const r = await run([...args], { SCPCTL_CONFIG_DIR: config, ...extra });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(`scpctl: no context named "prd" (from ${source}); the contexts are prod, staging\n`);
      expect(r.stderr).toContain('`scpctl --context prd login` or `scpctl --context prd config set base-url URL` creates it');
    }
    expect(await emu.requests()).toEqual([]);
  });

  it('login creates a context; the hints to log in name a context that is not the default', async () => {
    const config = join(work, 'config');
    mkdirSync(config);
    const bare = { SCPCTL_CONFIG_DIR: config, SCPCTL_TOKEN: undefined, SCPCTL_BASE_URL: undefined };
    const noUrl = await run(['--context', 'tenant-b', 'config', 'set', 'timeout', '20'], bare);
    expect(noUrl.exitCode, noUrl.stderr).toBe(0);
    const view = await run(['--context', 'tenant-b', 'buckets', 'view', 'finance'], bare);
    expect(view.exitCode).toBe(2);
    expect(view.stderr).toContain('no base URL configured in context tenant-b');
    expect(view.stderr).toContain('scpctl --context tenant-b login --base-url URL');
    const login = await run(['--context', 'tenant-c', 'login', '--base-url', emu.url, '--with-token', '--no-verify'], bare, 'token-of-c-123');
    expect(login.exitCode, login.stderr).toBe(0);
  });
});

describe('a file named as a bucket is a forgotten -f', () => {
  beforeEach(() => {
    writeFileSync(join(work, 'demo-list.txt'), 'alpha-data\n');
    mkdirSync(join(work, 'lists'));
  });

  it.each([
    ['replace', ['buckets', 'replace', 'finance', 'demo-list.txt'], '-f demo-list.txt'],
    ['append', ['buckets', 'append', 'finance', 'ok-name,demo-list.txt'], '-f demo-list.txt'],
    ['delete', ['buckets', 'delete', 'finance', 'demo-list.txt'], '-f demo-list.txt'],
    ['modify --add', ['buckets', 'modify', 'finance', '--add', 'demo-list.txt'], '--add-file demo-list.txt'],
    ['modify --delete', ['buckets', 'modify', 'finance', '--delete', 'demo-list.txt'], '--delete-file demo-list.txt'],
  ])('%s: exit 2 before anything is read from the service, the hint names %s', async (_what, args, flag) => {
    const r = await run(args);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain('"demo-list.txt" is also a file here, so it is probably not a bucket name; nothing was sent');
    expect(r.stderr).toContain(`To read names from it: ${flag}. To send it as a bucket name: --literal.`);
    expect(await emu.requests()).toEqual([]);
    expect((await emu.profile('finance')).buckets).toEqual(['alpha-data', 'old-bucket']);
  });

  it('an absolute path and a folder are caught too; --literal sends the name as it is', async () => {
    const absolute = await run(['buckets', 'append', 'finance', join(work, 'lists')]);
    expect(absolute.exitCode).toBe(2);
    expect(absolute.stderr).toContain('is also a folder here');
    const folder = await run(['buckets', 'append', 'finance', 'lists']);
    expect(folder.stderr).toContain('"lists" is also a folder here');
    const literal = await run(['buckets', 'append', 'finance', 'demo-list.txt', '--literal']);
    expect(literal.exitCode, literal.stderr).toBe(0);
    expect((await emu.profile('finance')).buckets).toContain('demo-list.txt');
  });

  it('sync PROFILE FILE is a usage error whose hint says -f FILE', async () => {
    const r = await run(['buckets', 'sync', 'finance', 'demo-list.txt']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      'scpctl: sync takes the desired list from -f FILE, not as arguments: "demo-list.txt" after "finance"\n' +
        'hint: Read it with -f: scpctl buckets sync finance -f demo-list.txt\n',
    );
    expect(await emu.requests()).toEqual([]);
  });
});

describe('a capped report says so', () => {
  it('as many records as --limit: stderr says more may exist and names --all (not under --quiet)', async () => {
    const r = await run(['report', '--type', 'application', '--limit', '3', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(3);
    expect(r.stderr).toContain('3 records: more records may exist; --all pages through all of them (or --skip 3 for the next page)');
    const quiet = await run(['report', '--type', 'application', '--limit', '3', '-o', 'json', '--quiet']);
    expect(quiet.stderr).toBe('');
    const grouped = await run(['report', '--type', 'application', '--groupby', 'application', '--limit', '9999', '-o', 'json']);
    expect(grouped.stderr).not.toContain('more records may exist');
  });
});

describe('help tells the truth', () => {
  it('scpctl help buckets view shows the view help; -o=csv works as --output=csv does', async () => {
    const help = await run(['help', 'buckets', 'view']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toBe((await run(['buckets', 'view', '--help'])).stdout);
    expect(help.stdout).toMatch(/^Usage: scpctl buckets view \[options\] <profile>/);
    const equals = await run(['report', '--type', 'application', '--limit', '2', '-o=csv']);
    expect(equals.exitCode, equals.stderr).toBe(0);
    expect(equals.stdout).toBe((await run(['report', '--type', 'application', '--limit', '2', '--output=csv'])).stdout);
    expect(equals.stdout.split('\n')[0]).toContain(',');
  });
});

describe('errors a newcomer can act on', () => {
  it('https:// to a plain-HTTP port: doctor and every command say so in plain words, with the fix', async () => {
    const https = emu.url.replace('http://', 'https://');
    const doctor = await run(['doctor', '--base-url', https]);
    expect(doctor.exitCode).toBe(6);
    const said = doctor.stdout + doctor.stderr;
    expect(said).toContain('handshake with 127.0.0.1 failed: the server answered in plain HTTP');
    expect(said).toContain('hint: Check the port, or use http:// for a loopback address');
    expect(said).not.toMatch(/ssl3_get_record|openssl/);
    const view = await run(['buckets', 'view', 'finance', '--base-url', https, '--retries', '0']);
    expect(view.exitCode).toBe(6);
    expect(view.stderr).toContain('failed: the server answered in plain HTTP');
  });

  it('login --with-token with nothing on standard input is exit 3, like an empty SCPCTL_TOKEN', async () => {
    const r = await run(['login', '--base-url', emu.url, '--with-token'], { SCPCTL_CONFIG_DIR: join(work) }, '');
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('the token given is empty');
  });
});
