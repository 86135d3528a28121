#!/usr/bin/env node
// `npm run build:binary`: scpctl as one executable, dist/bin/scpctl, that needs no Node on the machine.
// Node's single-executable-application support (Node 20.12+ for assets) runs one CommonJS script:
// scripts/sea-main.cjs, which runs the bundle as the package's shim does (scripts/bundle.mjs), kept in the
// executable as an asset with the V8 code cache trained for it (scripts/code-cache.cjs), and each package it
// loads lazily from an asset of its own; postject injects the blob into a copy of this Node binary.
// Linux and macOS builds are for the machine they are built on.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAZY_PACKAGES, bundleCli, bundleLazyPackage, esbuildOrExit, trainCodeCache } from './bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const build = await esbuildOrExit(root);
const work = join(root, 'dist', 'sea');
const binary = join(root, 'dist', 'bin', process.platform === 'win32' ? 'scpctl.exe' : 'scpctl');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
mkdirSync(dirname(binary), { recursive: true });

const bundle = join(work, 'scpctl.cjs');
// Short names shrink the bundle (1.29 MB to 0.29 with the lazy packages out), with the function names kept
// for stack traces (scripts/bundle.mjs).
await bundleCli(build, root, bundle, { shortNames: true });
trainCodeCache(root, bundle);
const assets = { 'scpctl.cjs': bundle, 'scpctl.cjs.cache': `${bundle}.cache` };
const main = join(work, 'main.cjs');
// The code cache check (bin/code-cache-file.cjs) as a function of the main script: a single executable's
// main script requires Node's own modules only.
const cacheCheck = `const { cacheFor } = (() => { const module = { exports: {} };\n${readFileSync(join(root, 'bin', 'code-cache-file.cjs'), 'utf8')}\nreturn module.exports; })();`;
writeFileSync(main, `${cacheCheck}\n${readFileSync(join(root, 'scripts', 'sea-main.cjs'), 'utf8')}`);

const config = join(work, 'sea-config.json');
const blob = join(work, 'scpctl.blob');
// Each package only some commands load is an asset of its own, read when first imported (sea-main.cjs):
// in the main bundle they made it 1.29 MB instead of 0.29, read and decoded at every start.
for (const name of LAZY_PACKAGES) {
  const file = join(work, 'lazy', `${name}.cjs`);
  await bundleLazyPackage(build, root, name, file);
  assets[`lazy/${name}.cjs`] = file;
}
// The OS credential store's native addon, this platform's build of it, as found by loading the package here:
// the executable writes it to a private folder and loads it from there (sea-main.cjs). Without one (a
// platform it has no build for), the executable says the store is not available to it, and uses the file.
const addon = keyringAddon();
if (addon) assets['native/keyring.node'] = addon;
writeFileSync(config, JSON.stringify({ main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }));
execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'inherit'] });
rmSync(binary, { force: true });
copyOfNode(binary);
chmodSync(binary, 0o755);
const postject = join(root, 'node_modules', 'postject', 'dist', 'cli.js');
const args = [postject, binary, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'];
if (process.platform === 'darwin') args.push('--macho-segment-name', 'NODE_SEA');
execFileSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
process.stdout.write(`${binary}\n`);

/**
 * This Node's executable, without its symbols and debugging sections where binutils' strip is there to
 * take them (Linux): 86 MB instead of 99, and postject, which reads every section, took 1.7 s of CPU instead
 * of 4.0. The code is the same byte for byte, and so is the start-up. Elsewhere (macOS signs its binaries,
 * and stripping breaks the signature), or if strip fails, a plain copy.
 */
function copyOfNode(to) {
  if (process.platform === 'linux') {
    try {
      execFileSync('strip', ['-o', to, process.execPath], { stdio: 'ignore' });
      return;
    } catch {
      rmSync(to, { force: true });
    }
  }
  copyFileSync(process.execPath, to);
}

/** The path of the keyring addon Node loads on this machine, or undefined when there is none for it. */
function keyringAddon() {
  const require = createRequire(import.meta.url);
  try {
    require('@napi-rs/keyring');
  } catch {
    return undefined;
  }
  return Object.keys(require.cache).find((path) => /[\\/]keyring\.[^\\/]*\.node$/.test(path));
}
