#!/usr/bin/env node
// The shim. It is CommonJS (bin/package.json says so): an ES module entry costs every run the start of
// Node's module loader, 2 to 3 ms. `--version` is answered here, before anything else loads, because it is
// the most common probe of a CLI. A line that may be the quick path's (`buckets view ...`, src/quick.ts) runs
// dist/quick.cjs, a third of the code and no commander; it declines any line that is not one (its `finished`
// is undefined) before doing anything, and that line, like every other, runs the whole bundle,
// dist/scpctl.cjs (scripts/bundle.mjs). Each is compiled with the V8 code cache beside it (`.cache`) so that
// a run does not compile again what the last run compiled, when that cache was made from the same bytes.
'use strict';
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const args = process.argv.slice(2);
// A guess from the words, to load the whole bundle with its source map (`-ov`, which is -o "v", guesses
// wrong and only costs the cache): whether a stack is printed is src/run.ts's, from commander's reading.
const verbose = args.slice(0, args.includes('--') ? args.indexOf('--') : undefined).some((a) => a === '--verbose' || /^-[a-zA-Z]*v[a-zA-Z]*$/.test(a));
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  require('./write-out.cjs').writeOut(`${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}\n`);
} else {
  // A hint, not the rule: the quick bundle reads the line itself (src/quick.ts). It never takes --verbose,
  // which wants the source map of the whole bundle; and a build without it still runs every line.
  const quick = !verbose && args[0] === 'buckets' && args[1] === 'view' ? run('quick.cjs', { optional: true }) : undefined;
  if (quick?.finished === undefined) run('scpctl.cjs');
}

/** Runs dist/NAME, a bundle (scripts/bundle.mjs), and gives its exports; an optional one that is not there, none. */
function run(name, { optional = false } = {}) {
  const bundle = join(root, 'dist', name);
  let bytes;
  try {
    bytes = readFileSync(bundle);
  } catch (error) {
    // A checkout run before its build (npm ci --ignore-scripts, or a plain clone) gets what to run, not a stack.
    if (error?.code !== 'ENOENT') throw error;
    if (optional) return undefined;
    process.stderr.write(`scpctl: not built yet (no dist/${name}): run \`npm install\` (or \`npm run build\`) in ${root}/\n`);
    process.exit(1);
  }
  const source = bytes.toString('utf8');
  // The shim and the bundle agree on how the bundle is called (scripts/bundle.mjs's banner). One built by
  // another version of scpctl (a checkout pulled without its build) is not run: it would fail with a stack.
  if (!source.startsWith('(function (run, self) {')) {
    process.stderr.write(`scpctl: dist/${name} was built by another version of scpctl: run \`npm install\` (or \`npm run build\`) in ${root}/\n`);
    process.exit(1);
  }
  // The packages only some commands load stay in node_modules: the bundle imports them through this
  // (scripts/bundle.mjs), resolved from here, inside the package.
  globalThis._Sci__ = (name) => import(name);
  if (verbose) {
    // --verbose stack traces name the source files and lines: the bundle through require, with its source map.
    process.setSourceMapsEnabled(true);
    return require(bundle);
  }
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
  // no wrapper to add. It requires only built-ins, which this module's require resolves.
  const script = new Script(source, { filename: bundle, cachedData });
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, require, module, bundle, join(root, 'dist'));
  // A bundle that declined the line (the quick one, for a line that is not its own) compiled next to nothing:
  // a cache of that would be taken, and kept, by every run after.
  const ranTheLine = module.exports.finished !== undefined;
  if (ranTheLine && (cachedData === undefined || script.cachedDataRejected || process.env.SCPCTL_CODE_CACHE === 'write')) {
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
  return module.exports;
}
