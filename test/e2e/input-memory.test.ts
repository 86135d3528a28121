// Contract section 13, "Bounded by the input's size, not its shape": every input under its cap is read
// within about 200 MB whatever its shape, or refused at once (exit 2) naming it. Each shape runs the built
// CLI as a process of its own under an address-space limit (ulimit -v), so that a regression fails within
// a second or two instead of taking the machine's memory, and reports its peak RSS from an exit hook.
// The profiles are absent on the emulator: the reading is what is measured, not the service's answers.
import { closeSync, openSync, writeFileSync, readFileSync, existsSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { fingerprintList } from '../../src/core/fingerprint.js';
import { PLAN_FORMAT, planHeadSealParts } from '../../src/core/saved-plan.js';
import { tenantIdentity } from '../../src/core/tenant.js';
import { BIN, envFor, useEmulator, type EmulatorSuite } from './harness.js';

/**
 * The address space each run may take: Node 20 reserves about 1 GB of it before it runs any code; what is
 * left is about 300 MB of memory. The code before these shapes were bounded failed under it within a second
 * or two (a crash, an abort or a refused allocation); within the bound the runs need less than half of it.
 */
const ADDRESS_SPACE_KB = 1_400_000;
const BOUND_KB = 200 * 1024;

let suite: EmulatorSuite;
useEmulator([], (s) => (suite = s));

/** The run of `args` in the suite's folder under the limit: its exit code, stderr and peak RSS (KB). */
async function limited(args: string[], how: { stdout?: 'ignore' } = {}): Promise<{ exitCode: number | undefined; stderr: string; maxRssKb: number | undefined }> {
  const rssFile = join(suite.dir, `rss-${args.join('-').replace(/[^a-z0-9.-]/gi, '_')}`);
  const hook = join(suite.dir, 'max-rss.cjs');
  if (!existsSync(hook)) {
    writeFileSync(hook, "process.on('exit', () => require('node:fs').writeFileSync(process.env.RSS_FILE, String(process.resourceUsage().maxRSS)));\n");
  }
  const run = await execa('sh', ['-c', `ulimit -v ${ADDRESS_SPACE_KB}; exec node -r "$0" "$@"`, hook, BIN, ...args], {
    cwd: suite.dir,
    env: { ...envFor(suite.emu, suite.dir, { SCPCTL_RATE: '1000/1' }), RSS_FILE: rssFile },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    stdout: how.stdout ?? 'pipe',
  });
  const maxRssKb = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : undefined;
  return { exitCode: run.exitCode, stderr: String(run.stderr), maxRssKb };
}

/** `count` distinct names of `length` characters (at least 9). */
function names(count: number, length: number): string[] {
  return Array.from({ length: count }, (_, i) => `n${i.toString(36).padStart(8, '0')}`.padEnd(length, 'x'));
}

const BASE36 = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz');

function expectBounded(run: Awaited<ReturnType<typeof limited>>, exitCode: number): void {
  expect(run.stderr).not.toMatch(/unexpected failure|allocation failed|heap out of memory|Maximum call stack/);
  expect({ exitCode: run.exitCode, ran: run.maxRssKb !== undefined }).toEqual({ exitCode, ran: true });
  expect(run.maxRssKb).toBeLessThan(BOUND_KB);
}

describe.skipIf(process.platform !== 'linux').concurrent('inputs under their caps stay within about 200 MB, whatever their shape', () => {
  it('a manifest whose inline block list holds 400,000 names (was quadratic: 40,000 names took 908 MB)', async () => {
    const manifest = join(suite.dir, 'block.yaml');
    writeFileSync(manifest, `profiles:\n  absent-block:\n    buckets:\n${names(400_000, 9).map((n) => `      - ${n}\n`).join('')}`);
    const run = await limited(['apply', '-f', manifest, '--dry-run']);
    expectBounded(run, 4); // the profile does not exist: the names were read, the view failed
    expect(run.stderr).toContain('absent-block');
  });

  it('a one-line JSON manifest of 16 MiB (was 2 GB of YAML nodes, then an abort)', async () => {
    const manifest = join(suite.dir, 'one-line.json');
    const list = names(Math.floor(16 * 1024 * 1024 / 43) - 10, 40).map((n) => `"${n}"`).join(',');
    writeFileSync(manifest, `{"profiles":{"absent-json":{"buckets":[${list}]}}}`);
    expect(readFileSync(manifest).length).toBeLessThan(16 * 1024 * 1024);
    const run = await limited(['apply', '-f', manifest, '--dry-run']);
    expectBounded(run, 2); // read whole, and more than a list can hold: the profile fails before its view
    expect(run.stderr).toContain('the limit is 8 MiB');
  });

  it('one list file named by 100 profiles is read and held once (was once a profile: 60 profiles took 1.7 GB)', async () => {
    writeFileSync(join(suite.dir, 'shared.txt'), `${names(Math.floor(4 * 1024 * 1024 / 21), 20).join('\n')}\n`);
    const manifest = join(suite.dir, 'shared.yaml');
    writeFileSync(manifest, `profiles:\n${Array.from({ length: 100 }, (_, i) => `  absent-${i}:\n    files: [shared.txt]\n`).join('')}`);
    const run = await limited(['apply', '-f', manifest, '--dry-run']);
    expectBounded(run, 4);
  });

  it('three profiles, each with an 8 MiB file of 6-character names (was 233 MB: 36 bytes a name, the files held to the end), or one naming all three (was 228 MB)', async () => {
    // 1.2 million names a file, written as bytes (a string a name would take longer than the run).
    const count = Math.floor(8 * 1024 * 1024 / 7);
    for (let file = 0; file < 3; file++) {
      const bytes = Buffer.allocUnsafe(count * 7);
      for (let i = 0, at = 0; i < count; i++, at += 7) {
        bytes[at] = 0x61 + file;
        for (let k = 1, n = i; k < 6; k++, n = Math.floor(n / 36)) bytes[at + k] = BASE36[n % 36]!;
        bytes[at + 6] = 0x0a;
      }
      writeFileSync(join(suite.dir, `short-${file}.txt`), bytes);
    }
    const manifest = join(suite.dir, 'short.yaml');
    writeFileSync(manifest, `profiles:\n${[0, 1, 2].map((file) => `  absent-short-${file}:\n    files: [short-${file}.txt]\n`).join('')}`);
    // One profile of 24 MiB: no request can carry it, so its names are not held past 8 MiB, only checked.
    const one = join(suite.dir, 'short-one.yaml');
    writeFileSync(one, 'profiles:\n  absent-all:\n    files: [short-0.txt, short-1.txt, short-2.txt]\n');
    const [run, all] = await Promise.all([limited(['apply', '-f', manifest, '--dry-run']), limited(['apply', '-f', one, '--dry-run'])]);
    expectBounded(run, 4);
    expect(run.stderr).toContain('3 of 3 profiles failed');
    expectBounded(all, 2);
    expect(all.stderr).toContain('absent-all: list is 24.00 MiB (25,165,811 bytes, 3,595,116 names, repeats past the first 8 MiB counted); the limit is 8 MiB');
  });

  it('a plan just under 64 MiB is checked and printed a profile at a time (was refused at once; before that 981 MB, or a stack overflow)', async () => {
    // A plan made here (its tenant key this run's), as the current format writes it.
    const identity = tenantIdentity(suite.emu.url, suite.emu.token);
    const tenant = await identity.make();
    const head = { format: PLAN_FORMAT as typeof PLAN_FORMAT, createdAt: '2026-01-01T00:00:00.000Z', baseUrl: suite.emu.url, context: 'default', tenant, validated: true, manifest: 'm.yaml' };
    // Sealed as --save-plan seals it (planHeadSealParts, profileSealParts), a part at a time.
    const seal = (await identity.sealer(tenant))!.begin();
    for (const part of planHeadSealParts(head)) seal.add(part);
    // 8 profiles of 8 MiB each, as --save-plan writes them (one name a line), written a profile at a time.
    const added = names(118_000, 63);
    const block = added.map((n) => `    "${n}"`).join(',\n');
    const plan = join(suite.dir, 'big-plan.json');
    const fd = openSync(plan, 'w');
    writeSync(fd, `${JSON.stringify({ ...head, profiles: [] }, null, 1).slice(0, -4)}[\n`);
    for (let i = 0; i < 8; i++) {
      await suite.emu.setProfile(`plan-${i}`, []);
      const entry = `  {\n   "profile": "plan-${i}",\n   "fingerprint": "${fingerprintList([])}",\n   "add": [\n${block}\n   ],\n   "delete": []\n  }`;
      writeSync(fd, `${i > 0 ? ',\n' : ''}${entry}`);
      for (const part of [`plan-${i}`, fingerprintList([]), `add ${added.length}`, ...added, 'delete 0']) seal.add(part);
    }
    writeSync(fd, `\n ],\n "seal": ${JSON.stringify(seal.seal())}\n}\n`);
    closeSync(fd);
    expect(readFileSync(plan).length).toBeGreaterThan(63 * 1024 * 1024);
    const run = await limited(['apply', '--plan', plan, '--dry-run', '--exit-code'], { stdout: 'ignore' });
    expectBounded(run, 8); // every profile checked, viewed, found unchanged since the plan, and printed: differences found
    expect(run.stderr).toContain('dry run: 8 of 8 profiles to change (944000 to add, 0 to delete); nothing sent');
  });

  it('a plan whose one profile is more than one can hold (over 24 MiB) is refused at once, naming it', async () => {
    const plan = join(suite.dir, 'one-large-profile.json');
    const lines = `${names(100_000, 11).map((n) => `    "${n}"`).join(',\n')}`;
    writeFileSync(plan, `{\n "format": "${PLAN_FORMAT}",\n "profiles": [\n  {\n   "profile": "p",\n   "add": [\n${Array(15).fill(lines).join(',\n')}\n   ],\n   "delete": []\n  }\n ]\n}\n`);
    expect(readFileSync(plan).length).toBeGreaterThan(24 * 1024 * 1024);
    const run = await limited(['apply', '--plan', plan, '--dry-run']);
    expectBounded(run, 2);
    expect(run.stderr).toContain("one-large-profile.json: the plan's profiles[0] is over 24 MiB, more than apply holds of one profile; nothing was sent");
  });

  it('a plan of 4 million tiny profiles, or one nested 60 MiB deep on one line, is refused at once, naming it', async () => {
    const tiny = join(suite.dir, 'tiny-profiles.json');
    writeFileSync(tiny, `{\n "format": "${PLAN_FORMAT}",\n "profiles": [\n${'  {\n  },\n'.repeat(4 * 1024 * 1024)}  {\n  }\n ]\n}\n`);
    const deep = join(suite.dir, 'deep-plan.json');
    writeFileSync(deep, `{"format": "${PLAN_FORMAT}", "profiles": [${'['.repeat(30 * 1024 * 1024)}${']'.repeat(30 * 1024 * 1024)}]}`);
    const [many, nested] = await Promise.all([limited(['apply', '--plan', tiny, '--dry-run']), limited(['apply', '--plan', deep, '--dry-run'])]);
    expectBounded(many, 2);
    expect(many.stderr).toContain('tiny-profiles.json: it names more than 15,000 profiles, more than apply holds within its memory bound; nothing was sent');
    expectBounded(nested, 2);
    expect(nested.stderr).toContain('deep-plan.json: not a plan saved by scpctl apply --save-plan (its fields other than the names hold more than 256 KiB)');
  });
});
