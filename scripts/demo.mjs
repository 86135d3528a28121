#!/usr/bin/env node
// `npm run demo`: builds if needed, starts the bundled emulator on a free port with a demo profile, runs
// the main job against it (view, append from a file, modify, view --json), shows everything, and stops.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from './emulator.mjs';
import { exitUnlessInstalled } from './installed.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'scpctl.js');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

// Before anything is printed: the packages scpctl runs with, and those its build needs.
exitUnlessInstalled(root, 'the demo', [...Object.keys(pkg.dependencies), 'esbuild', 'typescript']);
const built = join(root, 'dist', 'scpctl.cjs');
if (!existsSync(built) || statSync(built).mtimeMs < newestMtime(join(root, 'src'))) {
  console.log('$ npm run build');
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const work = mkdtempSync(join(tmpdir(), 'scpctl-demo-'));
const token = `demo-${Math.random().toString(36).slice(2)}`;
const emulator = await startEmulator(['--token', token, '--profile', 'demo=finance-reports,payroll-archive']);
const { url } = emulator;
const stopAll = () => {
  emulator.stop();
  rmSync(work, { recursive: true, force: true });
};
const watchdog = setTimeout(() => {
  console.error('demo: took longer than 60 s, stopping');
  stopAll();
  process.exit(1);
}, 60_000);

console.log(`emulator listening on ${url}\n`);

const env = { ...process.env, SCPCTL_BASE_URL: url, SCPCTL_TOKEN: token, SCPCTL_CONFIG_DIR: work };
const namesFile = join(work, 'new-buckets.txt');
writeFileSync(namesFile, '# buckets approved this week\nlogs-eu-west-1\nbackups-2026, analytics-raw\nlogs-eu-west-1\n');

function run(args, shown = args.join(' ')) {
  console.log(`$ scpctl ${shown}`);
  const result = spawnSync(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  console.log();
  if (result.status !== 0) {
    stopAll();
    console.error(`demo: scpctl ${shown} exited ${result.status}`);
    process.exit(result.status ?? 1);
  }
}

try {
  run(['buckets', 'view', 'demo', '-o', 'table']);
  run(['buckets', 'append', 'demo', '-f', namesFile], 'buckets append demo -f new-buckets.txt');
  run(['buckets', 'modify', 'demo', '--add', 'audit-trail', '--delete', 'payroll-archive']);
  run(['buckets', 'view', 'demo', '--json']);
  run(['report', '--type', 'application', '--groupby', 'application', '--period', '7d', '--limit', '5', '-o', 'table']);
} finally {
  clearTimeout(watchdog);
  stopAll();
}
console.log('demo finished: the emulator is stopped.');
