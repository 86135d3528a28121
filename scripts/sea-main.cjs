// The main script of the single executable (scripts/build-binary.mjs). It answers --version itself and
// otherwise compiles the bundle, kept beside it in the executable as an asset, with the V8 code cache made
// for it at build time (scripts/code-cache.cjs): the functions of the common commands are then not compiled
// at each start, which Node's own code cache of a main script (made without running it) does not give.
// SCPCTL_VERSION is written in by the build.
'use strict';
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${SCPCTL_VERSION}\n`);
} else {
  const { getAsset } = require('node:sea');
  const { Script } = require('node:vm');
  const filename = 'scpctl.cjs';
  // The bundle evaluates to the module's function (scripts/bundle.mjs): nothing to wrap, no node:module.
  const script = new Script(getAsset(filename, 'utf8'), { filename, cachedData: Buffer.from(getAsset(`${filename}.cache`)) });
  const module = { exports: {} };
  // The executable's require loads Node's own modules only, which is all the bundle requires.
  script.runInThisContext().call(module.exports, module.exports, require, module, filename, '.');
}
