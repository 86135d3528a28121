#!/usr/bin/env node
// The shim. It is CommonJS (bin/package.json says so): an ES module entry costs every run the start of
// Node's module loader, 2 to 3 ms. It reads no word of the line: it runs dist/scpctl.cjs (scripts/bundle.mjs),
// whose commander reads it, compiled with the V8 code cache beside it (`.cache`) so that a run does not
// compile again what the last run compiled, when that cache was made from the same bytes.
'use strict';
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const bundle = join(root, 'dist', 'scpctl.cjs');
let bytes;
try {
  bytes = readFileSync(bundle);
} catch (error) {
  // A checkout run before its build (npm ci --ignore-scripts, or a plain clone) gets what to run, not a stack.
  if (error?.code !== 'ENOENT') throw error;
  process.stderr.write(`scpctl: not built yet (no dist/scpctl.cjs): run \`npm install\` (or \`npm run build\`) in ${root}/\n`);
  process.exit(1);
}
const source = bytes.toString('utf8');
// The shim and the bundle agree on how the bundle is called (scripts/bundle.mjs's banner). One built by
// another version of scpctl (a checkout pulled without its build) is not run: it would fail with a stack.
if (!source.startsWith('(function (run, self) {')) {
  process.stderr.write(`scpctl: dist/scpctl.cjs was built by another version of scpctl: run \`npm install\` (or \`npm run build\`) in ${root}/\n`);
  process.exit(1);
}
// The packages only some commands load stay in node_modules: the bundle imports them through this
// (scripts/bundle.mjs), resolved from here, inside the package.
globalThis._Sci__ = (name) => import(name);
const { Script } = require('node:vm');
const cacheFile = `${bundle}.cache`;
const { cacheFor, sealCache } = require('./code-cache-file.cjs');
let cachedData;
try {
  // Only a cache made from this very bundle (bin/code-cache-file.cjs): any other is made again below.
  cachedData = cacheFor(bytes, readFileSync(cacheFile));
} catch {
  // none yet: this run makes it
}
// The bundle is the module's function as one expression (scripts/bundle.mjs): compiled as it is read, with
// no wrapper to add. It requires only built-ins, which this module's require resolves. (A --verbose stack
// trace names the source files all the same: src/source-mapped.ts reads the map when one is printed.)
const script = new Script(source, { filename: bundle, cachedData });
const bundleModule = { exports: {} };
script.runInThisContext().call(bundleModule.exports, bundleModule.exports, require, bundleModule, bundle, join(root, 'dist'));
if (cachedData === undefined || script.cachedDataRejected || process.env.SCPCTL_CODE_CACHE === 'write') {
  // Kept at exit, with what this run compiled; an installation that is not writable just goes without.
  // Written aside and renamed, so that two runs finishing together never leave a torn cache.
  process.once('exit', () => {
    try {
      // Never group- or world-writable, whatever the umask: V8 runs what a code cache holds.
      const aside = `${cacheFile}.${process.pid}`;
      writeFileSync(aside, sealCache(bytes, script.createCachedData()), { mode: 0o644 });
      renameSync(aside, cacheFile);
    } catch {
      // read-only: the next run compiles as this one did
    }
  });
}
