#!/usr/bin/env node
// Builds dist/: the bundle (scripts/bundle.mjs says why one CommonJS file), its source map and its V8 code cache.
// `--typecheck` (`npm run build`) runs `tsc --noEmit` first; it is started from here rather than by the
// script's shell line, so that before `npm ci` the build says so in one line instead of `tsc: not found`.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli, bundleLibrary, esbuildOrExit, trainCodeCache } from './bundle.mjs';
import { exitUnlessInstalled } from './installed.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const typecheck = process.argv.includes('--typecheck');
exitUnlessInstalled(root, 'the build', ['esbuild', ...(typecheck ? ['typescript'] : [])]);
if (typecheck) {
  const checked = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit'], { cwd: root, stdio: 'inherit' });
  if (checked.status !== 0) process.exit(checked.status ?? 1);
}
const build = await esbuildOrExit(root);
rmSync(join(root, 'dist'), { recursive: true, force: true });
const bundle = join(root, 'dist', 'scpctl.cjs');
// --verbose stack traces name source files through the map (src/source-mapped.ts reads it when one is printed).
await bundleCli(build, root, bundle, { sourcemap: true });
// A Node that rejects the code cache (another version) makes its own at its first run, where dist/ is writable.
trainCodeCache(root, bundle);
await bundleLibrary(build, root);
