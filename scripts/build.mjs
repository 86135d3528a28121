#!/usr/bin/env node
// Builds dist/: the one bundle (scripts/bundle.mjs says why one CommonJS file) and its V8 code cache.
// Types are checked by `tsc --noEmit` before this runs.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// Before `npm ci` there is no esbuild: `npm pack`, `npm install -g .` or `npm run build` in a fresh clone get
// one line that says what to do, not a module-resolution stack trace.
let build;
try {
  ({ build } = await import('esbuild'));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  process.stderr.write(`scpctl: the build needs the development dependencies: run \`npm ci\` first (in ${root})\n`);
  process.exit(1);
}
const { bundleCli } = await import('./bundle.mjs');

rmSync(join(root, 'dist'), { recursive: true, force: true });
const bundle = join(root, 'dist', 'scpctl.cjs');
await bundleCli(build, root, bundle, { sourcemap: true, lazyPackages: 'host' });
// The code cache of the bundle, made by running it through the common commands (scripts/code-cache.cjs); a
// Node that rejects it (another version) makes its own at its first run, where dist/ is writable.
const made = spawnSync(process.execPath, [join(root, 'scripts', 'code-cache.cjs'), bundle], { stdio: ['ignore', 'ignore', 'inherit'] });
if (made.status !== 0) process.exit(made.status ?? 1);
