// Contract section 13, "Bounded by the input's size, not its shape": every input under its cap is read
// within about 200 MB whatever its shape, or refused at once (exit 2) naming it. Each shape runs the built
// CLI as a process of its own under an address-space limit (ulimit -v), so that a regression fails within
// a second or two instead of taking the machine's memory, and reports its peak RSS from an exit hook.
// The profiles are absent on the emulator: the reading is what is measured, not the service's answers.
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
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
async function limited(args: string[]): Promise<{ exitCode: number | undefined; stderr: string; maxRssKb: number | undefined }> {
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
  });
  const maxRssKb = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : undefined;
  return { exitCode: run.exitCode, stderr: String(run.stderr), maxRssKb };
}

/** `count` distinct names of `length` characters (at least 9). */
function names(count: number, length: number): string[] {
  return Array.from({ length: count }, (_, i) => `n${i.toString(36).padStart(8, '0')}`.padEnd(length, 'x'));
}

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

  it('a plan just under 64 MiB is refused at once, naming it (was read into 981 MB, or a stack overflow)', async () => {
    const plan = join(suite.dir, 'big-plan.json');
    const head = '{\n "format": "scpctl-plan/2",\n "createdAt": "2026-01-01T00:00:00.000Z",\n "baseUrl": "http://127.0.0.1:1",\n "context": "default",\n "tenant": {"baseUrl": "http://127.0.0.1:1", "key": "hmac-sha256:00000000000000000000000000000000"},\n "validated": true,\n "manifest": "m.yaml",\n "profiles": [\n';
    const lines = `${names(1000, 11).map((n) => `   "${n}"`).join(',\n')},\n`;
    const profile = (i: number, repeat: number): string =>
      ` {"profile": "p${i}", "fingerprint": "sha256:${'0'.repeat(64)}", "add": [\n${lines.repeat(repeat)}   "last-name"\n], "delete": []}`;
    const repeat = Math.floor((64 * 1024 * 1024 - 4096) / 8 / lines.length);
    writeFileSync(plan, `${head}${Array.from({ length: 8 }, (_, i) => profile(i, repeat)).join(',\n')}\n ]\n}\n`);
    expect(readFileSync(plan).length).toBeGreaterThan(63 * 1024 * 1024);
    const run = await limited(['apply', '--plan', plan, '--dry-run']);
    expectBounded(run, 2);
    expect(run.stderr).toMatch(/big-plan\.json: the plan is [\d,]+ bytes, more than apply holds within its memory bound/);
  });
});
