// The main script of the single executable (scripts/build-binary.mjs). It runs the bundle as bin/scpctl.js
// does, reading no word of the line: the bundle is an asset compiled with the V8 code cache made for it at
// build time (scripts/code-cache.cjs), so the functions of the common commands are not compiled at each
// start, which Node's own code cache of a main script (made without running it) does not give.
// cacheFor (bin/code-cache-file.cjs) is written in by the build.
'use strict';
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
// The OS credential store's addon is native code that no asset here carries (scripts/bundle.mjs,
// NATIVE_PACKAGES): its import fails with a code scpctl turns into one line, and login uses the file.
const NOT_CARRIED = new Set(['@napi-rs/keyring']);
const loaded = new Map();
globalThis._Sci__ = (name) =>
  Promise.resolve().then(() => {
    if (NOT_CARRIED.has(name)) throw Object.assign(new Error(`${name} is not carried by the single executable`), { code: 'SCPCTL_NOT_IN_EXECUTABLE' });
    if (!loaded.has(name)) loaded.set(name, run(`lazy/${name}.cjs`, false));
    return loaded.get(name);
  });
run('scpctl.cjs', true);
