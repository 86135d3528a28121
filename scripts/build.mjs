#!/usr/bin/env node
// Builds dist/: the bundle (scripts/bundle.mjs says why one CommonJS file), its source map and its V8 code cache.
// `--typecheck` (`npm run build`) runs `tsc --noEmit` first; it is started from here rather than by the
// script's shell line, so that before `npm ci` the build says so in one line instead of `tsc: not found`.
// `--if-changed` (`npm test`) builds only when what the build reads differs from what dist/ was built from:
// `npm ci` has just built it (`prepare`), and a second build of the same bytes is a second and a half.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli, bundleLibrary, esbuildOrExit, trainCodeCache } from './bundle.mjs';
import { exitUnlessInstalled } from './installed.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const typecheck = process.argv.includes('--typecheck');
const stamp = join(root, 'dist', '.built-from');

/** A digest of everything the build reads: the sources, the build's own scripts, the locked dependencies, this Node. */
function inputsDigest() {
  const hash = createHash('sha256').update(`${process.version} ${process.arch}\n`);
  const files = ['package.json', 'package-lock.json', 'tsconfig.json', ...['src', 'bin', 'scripts'].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1)))];
  for (const file of files.sort()) hash.update(`${file}\0`).update(readFileSync(join(root, file))).update('\0');
  return hash.digest('hex');
}

exitUnlessInstalled(root, 'the build', ['esbuild', ...(typecheck ? ['typescript'] : [])]);
const digest = inputsDigest();
if (process.argv.includes('--if-changed')) {
  let built = '';
  try {
    built = readFileSync(stamp, 'utf8');
  } catch {
    // never built, or built by a build before this stamp: build
  }
  if (built === digest) process.exit(0);
}
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
writeFileSync(stamp, digest);
