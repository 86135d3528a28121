// The main script of the single executable (scripts/build-binary.mjs). It answers --version itself and
// otherwise runs the bundles as bin/scpctl.js does: the quick path's first for a line that may be its own
// (`buckets view ...`), which declines (`finished` undefined) any other before doing anything, then the whole
// one. (The shim also sends --verbose straight to the whole bundle, for its source map; the executable has
// none, and the quick bundle declines --verbose itself.) Each is an asset compiled with the V8 code cache made for it at build time (scripts/code-cache.cjs):
// the functions of the common commands are then not compiled at each start, which Node's own code cache
// of a main script (made without running it) does not give.
// SCPCTL_VERSION, writeOut (bin/write-out.cjs) and cacheFor (bin/code-cache-file.cjs) are written in by the build.
'use strict';
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  writeOut(`${SCPCTL_VERSION}\n`);
} else {
  const { getAsset } = require('node:sea');
  const { Script } = require('node:vm');
  /** Runs a bundle (scripts/bundle.mjs: it evaluates to the module's function) and gives its exports. */
  const run = (filename, withCache) => {
    const bytes = Buffer.from(getAsset(filename));
    // Only the cache made from these very bytes (bin/code-cache-file.cjs, written in by the build).
    const cachedData = withCache ? cacheFor(bytes, Buffer.from(getAsset(`${filename}.cache`))) : undefined;
    const script = new Script(bytes.toString('utf8'), { filename, cachedData });
    const module = { exports: {} };
    // The executable's require loads Node's own modules only, which is all a bundle requires.
    script.runInThisContext().call(module.exports, module.exports, require, module, filename, '.');
    return module.exports;
  };
  // The bundle's import() of a package only some commands load (scripts/bundle.mjs, LAZY_PACKAGES): its own
  // asset, run once, its namespace kept as import() keeps a module's.
  const loaded = new Map();
  globalThis._Sci__ = (name) =>
    Promise.resolve().then(() => {
      if (!loaded.has(name)) loaded.set(name, run(`lazy/${name}.cjs`, false));
      return loaded.get(name);
    });
  const quick = args[0] === 'buckets' && args[1] === 'view' ? run('quick.cjs', true) : undefined;
  if (quick?.finished === undefined) run('scpctl.cjs', true);
}
