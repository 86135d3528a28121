#!/usr/bin/env node
// `npm run build:binary`: scpctl as one executable, dist/bin/scpctl, that needs no Node on the machine.
// Node's single-executable-application support (Node 20.6+) runs one CommonJS script: the one bundle
// (scripts/bundle.mjs), which Node turns into a blob with a V8 code cache
// (useCodeCache: the bundle's functions are not compiled again at each start); postject injects the blob
// into a copy of this Node binary. Linux and macOS builds are for the machine they are built on.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let build;
try {
  ({ build } = await import('esbuild'));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  process.stderr.write(`scpctl: the build needs the development dependencies: run \`npm ci\` first (in ${root})\n`);
  process.exit(1);
}
const work = join(root, 'dist', 'sea');
const binary = join(root, 'dist', 'bin', process.platform === 'win32' ? 'scpctl.exe' : 'scpctl');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
mkdirSync(dirname(binary), { recursive: true });

const { bundleCli } = await import('./bundle.mjs');
await bundleCli(build, root, join(work, 'scpctl.cjs'));

const config = join(work, 'sea-config.json');
const blob = join(work, 'scpctl.blob');
writeFileSync(config, JSON.stringify({ main: join(work, 'scpctl.cjs'), output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }));
execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'inherit'] });
rmSync(binary, { force: true });
copyFileSync(process.execPath, binary);
chmodSync(binary, 0o755);
const postject = join(root, 'node_modules', 'postject', 'dist', 'cli.js');
const args = [postject, binary, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'];
if (process.platform === 'darwin') args.push('--macho-segment-name', 'NODE_SEA');
execFileSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
process.stdout.write(`${binary}\n`);
