// `apply --export` of a full list (issue 36): 400,000 names exported, as YAML and JSON, and read back by
// `apply -f --dry-run --exit-code` as no change, each run the built CLI in a process of its own with its
// time and peak memory said. In the release project: seconds of CPU each, more than every run may pay.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, envFor, useEmulator, type EmulatorSuite } from './harness.js';

let suite: EmulatorSuite;
useEmulator(['--profile', 'finance'], (s) => (suite = s));

const NAMES = Array.from({ length: 400_000 }, (_, i) => `bucket-${i.toString(36).padStart(4, '0')}-data`);

async function run(args: string[]): Promise<{ exitCode: number | undefined; stdout: string; stderr: string; ms: number; maxRssMb: number }> {
  const rssFile = join(suite.dir, 'rss');
  const hook = join(suite.dir, 'max-rss.cjs');
  writeFileSync(hook, "process.on('exit', () => require('node:fs').writeFileSync(process.env.RSS_FILE, String(process.resourceUsage().maxRSS)));\n");
  const started = performance.now();
  const r = await execa('node', ['-r', hook, BIN, ...args], {
    cwd: suite.dir,
    env: { ...envFor(suite.emu, suite.dir), RSS_FILE: rssFile },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  const ms = Math.round(performance.now() - started);
  const { readFileSync } = await import('node:fs');
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr), ms, maxRssMb: Math.round(Number(readFileSync(rssFile, 'utf8')) / 1024) };
}

describe('apply --export of 400,000 names', () => {
  it.each([['yaml', []], ['json', []], ['yaml', ['--files', 'lists']]])('round-trips as %s %s, the export within the memory bound', async (format, extra) => {
    await suite.emu.setProfile('finance', NAMES);
    const manifest = `scpctl${extra.length}.${format}`;
    const exported = await run(['apply', '--export', 'finance', '-o', format, '--out', manifest, ...extra]);
    expect(exported.exitCode, exported.stderr).toBe(0);
    expect(exported.stderr).toContain(`wrote ${manifest} (1 profile)`);
    const check = await run(['apply', '-f', manifest, '--dry-run', '--exit-code']);
    expect(check.exitCode, check.stderr).toBe(0);
    console.log(`export 400,000 names as ${format} ${extra.join(' ')}: ${exported.ms} ms, ${exported.maxRssMb} MB; apply --dry-run of it: ${check.ms} ms, ${check.maxRssMb} MB`);
    // (apply's own reading of a 400,000-name manifest against a 400,000-name live list is not this test's.)
    expect(exported.maxRssMb).toBeLessThan(200);
  });
});
