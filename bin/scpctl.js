#!/usr/bin/env node
// The shim. It is CommonJS (bin/package.json says so): an ES module entry costs every run the start of
// Node's module loader, 2 to 3 ms. `--version` is answered here, before anything else loads, because it is
// the most common probe of a CLI; everything else runs the one bundle, dist/scpctl.cjs (scripts/bundle.mjs),
// compiled with the V8 code cache beside it (dist/scpctl.cjs.cache) so that a run does not compile again
// what the last run compiled.
'use strict';
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  require('./write-out.cjs').writeOut(`${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}\n`);
} else {
  run(join(root, 'dist', 'scpctl.cjs'));
}

function run(bundle) {
  // (The same test as wantsVerbose in src/main.ts, which cannot be imported before the bundle is loaded.)
  const verbose = args.slice(0, args.includes('--') ? args.indexOf('--') : undefined).some((a) => a === '--verbose' || /^-[a-zA-Z]*v[a-zA-Z]*$/.test(a));
  let source;
  try {
    source = readFileSync(bundle, 'utf8');
  } catch (error) {
    // A checkout run before its build (npm ci --ignore-scripts, or a plain clone) gets what to run, not a stack.
    if (error?.code !== 'ENOENT') throw error;
    process.stderr.write(`scpctl: not built yet (no dist/scpctl.cjs): run \`npm install\` (or \`npm run build\`) in ${root}/\n`);
    process.exit(1);
  }
  // The shim and the bundle agree on how the bundle is called (scripts/bundle.mjs's banner). One built by
  // another version of scpctl (a checkout pulled without its build) is not run: it would fail with a stack.
  if (!source.startsWith('(function (run, self) {')) {
    process.stderr.write(`scpctl: dist/scpctl.cjs was built by another version of scpctl: run \`npm install\` (or \`npm run build\`) in ${root}/\n`);
    process.exit(1);
  }
  // The packages only some commands load stay in node_modules: the bundle imports them through this
  // (scripts/bundle.mjs), resolved from here, inside the package.
  globalThis._Sci__ = (name) => import(name);
  if (verbose) {
    // --verbose stack traces name the source files and lines: the bundle through require, with its source map.
    process.setSourceMapsEnabled(true);
    require(bundle);
    return;
  }
  const { Script } = require('node:vm');
  const cacheFile = `${bundle}.cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // none yet: this run makes it
  }
  // The bundle is the module's function as one expression (scripts/bundle.mjs): compiled as it is read, with
  // no wrapper to add. It requires only built-ins, which this module's require resolves.
  const script = new Script(source, { filename: bundle, cachedData });
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, require, module, bundle, join(root, 'dist'));
  if (cachedData === undefined || script.cachedDataRejected || process.env.SCPCTL_CODE_CACHE === 'write') {
    // Kept at exit, with what this run compiled; an installation that is not writable just goes without.
    // Written aside and renamed, so that two runs finishing together never leave a torn cache.
    process.once('exit', () => {
      try {
        // Never group- or world-writable, whatever the umask: V8 runs what a code cache holds.
        const aside = `${cacheFile}.${process.pid}`;
        writeFileSync(aside, script.createCachedData(), { mode: 0o644 });
        renameSync(aside, cacheFile);
      } catch {
        // read-only: the next run compiles as this one did
      }
    });
  }
}
