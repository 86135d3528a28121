// `scpctl apply --export` end to end (issue 36): the manifest of the live lists, inline or with list files,
// read back by `apply -f --dry-run --exit-code` as no change; what it refuses (a token-holding name, names a
// manifest cannot hold, a missing profile, list paths that are not plain files or lead out), in both of the
// emulator's error styles.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_STYLES, TOKEN, removeDir, scpctl, tempDir, useEmulator, type Emulator } from './harness.js';
import { connect, ScpctlError } from '../../src/library/index.js';

const PROFILES = ['finance', 'empty', 'Big/Ops', 'buckets', '123', 'true', 'a: b # c', 'ünï\u200bcode', '"quoted"', '__proto__', `long-${'x'.repeat(600)}`];

for (const style of ERROR_STYLES) {
  describe(`apply --export, ${style.name}`, () => {
    let emu: Emulator;
    let env: Record<string, string | undefined>;
    useEmulator(['--profile', 'finance', ...style.args], (suite) => ({ emu, env } = suite));
    let work: string;
    beforeEach(async () => {
      for (const profile of PROFILES) await emu.setProfile(profile, []);
      await emu.setProfile('finance', ['alpha-data', 'bravo-logs']);
      await emu.setProfile('Big/Ops', ['ops-a', 'null', 'true', '123', '1e3', '0x1f']);
      await emu.clearRequests();
      work = tempDir('scpctl-export-');
    });
    afterEach(() => removeDir(work));
    const run = (args: string[]) => scpctl(args, { env, cwd: work });
    // The main paths in both error styles; the rest, which never reach an error reply, in the default one.
    const both = it;
    const once = style.args.length === 0 ? it : it.skip;
    const roundTrip = async (manifest: string) => {
      const check = await run(['apply', '-f', manifest, '--dry-run', '--exit-code']);
      expect(check.exitCode, check.stderr).toBe(0);
      expect(check.stdout).toBe('');
      return check;
    };

    both('round-trips lists of 0, 1 and many names, as YAML (the default) and JSON; only views are sent', async () => {
      await emu.setProfile('empty', []);
      await emu.setProfile('buckets', ['only-one']);
      for (const format of [[], ['-o', 'json'], ['--json']]) {
        const out = await run(['apply', '--export', 'finance', 'empty', 'buckets', 'Big/Ops', ...format]);
        expect(out.exitCode, out.stderr).toBe(0);
        expect(out.stderr).toContain('exported 4 profiles (9 names)');
        writeFileSync(join(work, 'scpctl.yaml'), out.stdout);
        if (format.length > 0) expect(JSON.parse(out.stdout).profiles.empty).toEqual({ buckets: [], allowEmpty: true });
        await roundTrip('scpctl.yaml');
      }
      const yaml = await run(['apply', '--export', 'finance', 'empty']);
      expect(yaml.stdout).toBe('profiles:\n  finance:\n    buckets:\n      - alpha-data\n      - bravo-logs\n  empty:\n    buckets: []\n    allowEmpty: true\n');
      expect(new Set((await emu.requests()).map((r) => r.op))).toEqual(new Set(['viewBucketList']));
    });

    once('profile names that are not plain YAML keys are quoted, and read back as the same profiles', async () => {
      for (const format of ['yaml', 'json']) {
        const out = await run(['apply', '--export', ...PROFILES, '-o', format]);
        expect(out.exitCode, out.stderr).toBe(0);
        if (format === 'yaml') {
          expect(out.stdout).toContain('\n  "Big/Ops":\n');
          expect(out.stdout).toContain('\n  "true":\n');
          expect(out.stdout).toMatch(/^[\x20-\x7e\n]*$/); // the YAML is ASCII: no invisible character in a key
        }
        writeFileSync(join(work, `m.${format}`), out.stdout);
        const json = await run(['apply', '-f', `m.${format}`, '--dry-run', '--json']);
        expect(json.exitCode, json.stderr).toBe(0);
        // In the order given, but that a name like "123" comes first, as in any JavaScript object (the library's value).
        expect(JSON.parse(json.stdout).profiles.map((p: { profile: string }) => p.profile)).toEqual(['123', ...PROFILES.filter((p) => p !== '123')]);
        await roundTrip(`m.${format}`);
      }
    });

    once('--out FILE --files DIR: one list file a profile (as `buckets view` writes it), the manifest naming them from its folder', async () => {
      mkdirSync(join(work, 'gitops'));
      const out = await run(['apply', '--export', 'finance', 'empty', 'Big/Ops', '--out', 'gitops/scpctl.yaml', '--files', 'gitops/lists']);
      expect(out.exitCode, out.stderr).toBe(0);
      expect(out.stdout).toBe('');
      expect(out.stderr).toContain('wrote gitops/lists/finance.txt (2 names)\n');
      expect(out.stderr).toContain('wrote gitops/lists/empty.txt (0 names)\n');
      expect(out.stderr).toContain('wrote gitops/scpctl.yaml (3 profiles)');
      const manifest = readFileSync(join(work, 'gitops/scpctl.yaml'), 'utf8');
      expect(manifest).toContain('  finance:\n    files:\n      - "lists/finance.txt"\n');
      expect(manifest).toContain('  empty:\n    files:\n      - "lists/empty.txt"\n    allowEmpty: true\n');
      const view = await run(['buckets', 'view', 'finance']);
      expect(readFileSync(join(work, 'gitops/lists/finance.txt'), 'utf8')).toBe(view.stdout);
      expect(readdirSync(join(work, 'gitops/lists')).sort()).toEqual(['big-ops-15f741b4.txt', 'empty.txt', 'finance.txt']);
      await roundTrip('gitops/scpctl.yaml');
      // Again over the files it wrote (a re-export updates them), and as JSON.
      await emu.setProfile('finance', ['alpha-data']);
      expect((await run(['apply', '--export', 'finance', '--out', 'gitops/scpctl.json', '--files', 'gitops/lists', '-o', 'json'])).exitCode).toBe(0);
      expect(readFileSync(join(work, 'gitops/lists/finance.txt'), 'utf8')).toBe('alpha-data\n');
      await roundTrip('gitops/scpctl.json');
    });

    once('refuses list paths that cannot round-trip or are not plain files, before anything is read', async () => {
      mkdirSync(join(work, 'gitops', 'lists'), { recursive: true });
      const outside = tempDir('scpctl-export-outside-');
      symlinkSync(outside, join(work, 'gitops', 'out-link'));
      symlinkSync(join(outside, 'stolen.txt'), join(work, 'gitops', 'lists', 'finance.txt'));
      execFileSync('mkfifo', [join(work, 'gitops', 'lists', 'empty.txt')]);
      const cases: Array<[string[], RegExp]> = [
        [['--files', 'gitops/lists'], /--files needs --out FILE/],
        [['--out', 'gitops/scpctl.yaml', '--files', 'elsewhere'], /--files elsewhere is outside the folder of the manifest/],
        [['--out', 'gitops/scpctl.yaml', '--files', 'gitops/out-link/lists'], /leads out of the manifest's folder through a symlink/],
        [['--out', 'gitops/scpctl.yaml', '--files', 'gitops/lists'], /gitops\/lists\/finance\.txt is a symlink, not a regular file/],
        [['--out', 'gitops/lists/finance.txt'], /is a symlink, not a regular file/],
        [['--out', 'missing/scpctl.yaml'], /does not exist/],
        [['-f', 'gitops/scpctl.yaml'], /--export and -f cannot be given together/],
        [['--dry-run'], /--export and --dry-run cannot be given together/],
      ];
      for (const [args, message] of cases) {
        const r = await run(['apply', '--export', 'finance', ...args]);
        expect([r.exitCode, r.stdout], args.join(' ')).toEqual([2, '']);
        expect(r.stderr, args.join(' ')).toMatch(message);
      }
      const fifo = await run(['apply', '--export', 'empty', '--out', 'gitops/scpctl.yaml', '--files', 'gitops/lists']);
      expect(fifo.exitCode).toBe(2);
      expect(fifo.stderr).toMatch(/lists\/empty\.txt is a FIFO, not a regular file/);
      expect(readdirSync(outside)).toEqual([]);
      expect(existsSync(join(work, 'gitops', 'scpctl.yaml'))).toBe(false);
      expect(await emu.requests()).toEqual([]);
    });

    both('a live name holding the token is refused (exit 2), nothing printed or written, the token never shown', async () => {
      await emu.setProfile('finance', ['alpha-data', `x${TOKEN.toLowerCase()}`]);
      await emu.setProfile('empty', [TOKEN]);
      for (const extra of [[], ['--out', 'scpctl.yaml']]) {
        const r = await run(['apply', '--export', 'finance', 'empty', ...extra]);
        expect([r.exitCode, r.stdout]).toEqual([2, '']);
        expect(r.stderr).toContain('scpctl: the live list of finance, empty holds a name that looks like the API token (not shown); nothing was exported');
        expect(r.stderr).toContain('  finance: a name that looks like the API token (not shown)\n  empty: a name that looks like the API token (not shown)\n');
        expect(r.stderr.toLowerCase()).not.toContain(TOKEN.toLowerCase().slice(0, 8));
      }
      expect(readdirSync(work)).toEqual([]);
    });

    once('live names a manifest cannot hold are named (exit 2): apply reads manifests with the naming rules on', async () => {
      await emu.setProfile('finance', ['alpha-data', 'Upper_Case', 'evil\u001b[31m']);
      const r = await run(['apply', '--export', 'finance']);
      expect([r.exitCode, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toContain('2 live names of finance are not a valid S3 bucket name');
      expect(r.stderr).toContain('  finance: "Upper_Case": upper-case letters are not allowed\n');
      expect(r.stderr).not.toContain('\u001b');
    });

    both('a profile that does not exist is exit 4 with the closest seen name; nothing is printed or written (all or nothing)', async () => {
      expect((await run(['buckets', 'view', 'finance'])).exitCode).toBe(0);
      for (const extra of [[], ['--out', 'scpctl.yaml']]) {
        const r = await run(['apply', '--export', 'finance', 'finanse', ...extra]);
        expect([r.exitCode, r.stdout]).toEqual([4, '']);
        expect(r.stderr).toMatch(/finanse/);
        expect(r.stderr).toContain('Did you mean "finance"?');
      }
      expect(readdirSync(work)).toEqual([]);
    });

    both('the library: scp.export() gives the same manifest as a value, plan() of it changes nothing; failures are ScpctlErrors', async () => {
      const scp = await connect({ baseUrl: emu.url, token: TOKEN, stateDir: join(work, 'state'), retries: 0 });
      try {
        const manifest = await scp.export(['finance', 'empty', 'finance']);
        expect(JSON.parse(JSON.stringify(manifest))).toEqual({ profiles: { finance: { buckets: ['alpha-data', 'bravo-logs'] }, empty: { buckets: [], allowEmpty: true } } });
        expect((await scp.plan(manifest)).hasChanges).toBe(false);
        const cli = await run(['apply', '--export', 'finance', 'empty', '--json']);
        expect(JSON.parse(cli.stdout)).toEqual(JSON.parse(JSON.stringify(manifest)));
        await expect(scp.export(['finance', 'nosuch'])).rejects.toMatchObject({ exitCode: 4, kind: 'notFound' });
        await expect(scp.export([])).rejects.toMatchObject({ exitCode: 2, kind: 'usage' });
        await emu.setProfile('empty', [TOKEN.toLowerCase()]);
        const refused = await scp.export(['empty']).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(ScpctlError);
        expect(JSON.stringify({ ...(refused as ScpctlError), message: (refused as Error).message }).toLowerCase()).not.toContain(TOKEN.toLowerCase());
      } finally {
        await scp.close();
      }
    });

    once('--export with -f, --plan, --dry-run, --save-plan or --exit-code is a usage error; -o takes yaml and json only', async () => {
      for (const extra of [['-f', 'x.yaml'], ['--plan', 'p.json'], ['--dry-run'], ['--dry-run', '--save-plan', 'p.json'], ['--exit-code'], ['--markdown'], ['-o', 'markdown']]) {
        const r = await run(['apply', '--export', 'finance', ...extra]);
        expect(r.exitCode, extra.join(' ')).toBe(2);
      }
      const yamlPlan = await run(['apply', '-f', 'x.yaml', '-o', 'yaml']);
      expect(yamlPlan.exitCode).toBe(2);
      expect(yamlPlan.stderr).toContain('(-o yaml is for --export)');
      expect(await emu.requests()).toEqual([]);
    });
  });
}
