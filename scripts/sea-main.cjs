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
// The OS credential store's addon is native code (scripts/bundle.mjs, NATIVE_PACKAGES): the build keeps this
// platform's as an asset, written to a folder of this process's own (mkdtemp: mode 0700, a new name no other
// user can have prepared) and loaded from there, then removed. Where the build had none, its import fails
// with a code scpctl turns into one line, and login uses the file.
const NATIVE = { '@napi-rs/keyring': 'native/keyring.node' };
const loadNative = (name) => {
  let bytes;
  try {
    bytes = getAsset(NATIVE[name]);
  } catch {
    throw Object.assign(new Error(`${name} is not carried by the single executable`), { code: 'SCPCTL_NOT_IN_EXECUTABLE' });
  }
  const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
  const { join } = require('node:path');
  const folder = mkdtempSync(join(require('node:os').tmpdir(), 'scpctl-addon-'));
  try {
    const file = join(folder, 'addon.node');
    writeFileSync(file, new Uint8Array(bytes), { mode: 0o700, flag: 'wx' });
    const addon = { exports: {} };
    process.dlopen(addon, file);
    return addon.exports;
  } finally {
    // Loaded, the file is no longer needed (Windows keeps a loaded DLL: it stays until the next reboot's cleanup).
    try {
      rmSync(folder, { recursive: true, force: true });
    } catch {}
  }
};
const loaded = new Map();
globalThis._Sci__ = (name) =>
  Promise.resolve().then(() => {
    if (!loaded.has(name)) loaded.set(name, name in NATIVE ? loadNative(name) : run(`lazy/${name}.cjs`, false));
    return loaded.get(name);
  });
run('scpctl.cjs', true);
