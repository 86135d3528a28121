#!/usr/bin/env node
// Builds dist/: the bundles (scripts/bundle.mjs says why one CommonJS file, and why two) and their V8 code caches.
// Types are checked by `tsc --noEmit` before this runs.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLES, bundleCli, esbuildOrExit, trainCodeCache } from './bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const build = await esbuildOrExit(root);
rmSync(join(root, 'dist'), { recursive: true, force: true });
for (const name of Object.keys(BUNDLES)) {
  const bundle = join(root, 'dist', name);
  // --verbose stack traces name source files through the whole bundle's map; the quick bundle never takes
  // --verbose (bin/scpctl.js), so it goes without one.
  await bundleCli(build, root, bundle, { sourcemap: name === 'scpctl.cjs' });
  // A Node that rejects the code cache (another version) makes its own at its first run, where dist/ is writable.
  trainCodeCache(root, bundle);
}
