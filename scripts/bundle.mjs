// The bundle of scpctl, for the package (dist/scpctl.cjs, loaded by bin/scpctl.js with a V8 code cache) and
// for the single executable (scripts/build-binary.mjs): the entry and every dependency it always loads in
// one CommonJS file (the rest: LAZY_PACKAGES). One file read and, with
// the code cache, nothing compiled again at start: a small `buckets view` took 73 ms as ES modules split in
// chunks (each chunk a module to resolve, load and compile), 51 ms as one bundle with its cache (node -e 0:
// about 20 ms).
// Node 20 has no require() of ES modules and a single executable has no import() at all, so each lazy
// import() of a Node built-in becomes a bundled module that requires it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { exitUnlessInstalled } from './installed.mjs';

// commander loads node:child_process only to run stand-alone executable subcommands, which scpctl has none
// of; loading it costs every command about 10 ms of start-up. Commander's require of it gets a stub.
const noExecutableSubcommands = {
  name: 'no-executable-subcommands',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/commander/`) ? { path: 'child_process', namespace: 'stub' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
      contents: "module.exports = { spawn() { throw new Error('scpctl has no executable subcommands'); } };",
      loader: 'js',
    }));
  },
};

// A bundle is one expression, the module's function: run as a vm.Script (bin/scpctl.js, the executable, the
// code-cache training) it gives that function to call, with nothing to wrap around the source first (a copy
// of 377 KB a start, and the young-generation collection it set off); required (as any CommonJS file may be)
// it calls itself with the module's own arguments. Which of the two is told by `this` at its
// top level: the global object in a script, module.exports in a module (a global named `module`, which
// anything loaded before could define, cannot make a script call itself).
const SELF_DESCRIBING = {
  banner: { js: `(function (run, self) { if (self !== globalThis) run.call(module.exports, exports, require, module, __filename, __dirname); return run; })(function (exports, require, module, __filename, __dirname) {` },
  footer: { js: '}, this)' },
};

const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'builtin' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

/**
 * The dependencies that only some commands load (a spinner, the config store's lock, the YAML reader) stay
 * out of the bundle: they are two thirds of everything, and a bundle is read
 * and decoded whole at each start. The bundle runs in a vm.Script, which has no import() of its own, so each
 * `import("pkg")` of them is rewritten to `_Sci__("pkg")`, a function of the same length (the source map
 * stays true) that the host defines: bin/scpctl.js as its own import() (from node_modules), the single
 * executable as the loading of the package's own bundle (bundleLazyPackage), kept beside it as an asset.
 */
export const LAZY_PACKAGES = ['ora', 'yaml', 'proper-lockfile'];
/**
 * Packages of native code (the OS credential store's addon, loaded only by a context that keeps its token
 * there, and by login, logout, migrate-token and doctor): the host's `_Sci__` too, but no bundle of their own;
 * the single executable says it does not carry them (scripts/sea-main.cjs).
 */
export const NATIVE_PACKAGES = ['@napi-rs/keyring'];
const HOST_IMPORT = new RegExp(`\\bimport\\((?="(?:${[...LAZY_PACKAGES, ...NATIVE_PACKAGES].join('|')})")`, 'g');

/** The bundle's entry: the shim and the executable run it, and it runs the line (src/main.ts). */
const ENTRY = 'src/single-executable.ts';

/** What every bundle of ours is (the CLI's, the GitHub Action's): CommonJS for Node 20, built in memory, the version written in. */
export function nodeBundle(root) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return {
    write: false,
    absWorkingDir: root,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    define: { SCPCTL_BUILT_VERSION: JSON.stringify(version), 'import.meta.url': 'undefined' },
    minifySyntax: true,
    minifyWhitespace: true,
    legalComments: 'none',
  };
}

/**
 * Bundles scpctl into `outfile` (CommonJS, with a linked source map or short names when asked); the lazily
 * loaded packages are left to the host's `_Sci__` (LAZY_PACKAGES).
 */
export async function bundleCli(build, root, outfile, options = {}) {
  const result = await build({
    ...nodeBundle(root),
    external: [...LAZY_PACKAGES, ...NATIVE_PACKAGES],
    entryPoints: [ENTRY],
    outfile,
    // Short names where asked (the executable's bundle, which has no source map: its bundle and code cache
    // are read at each start), kept readable as function and class names (keepNames) for --verbose stack
    // traces.
    ...(options.shortNames ? { minifyIdentifiers: true, keepNames: true } : {}),
    sourcemap: options.sourcemap ? 'linked' : false,
    ...SELF_DESCRIBING,
    logLevel: 'error',
    plugins: [noExecutableSubcommands, builtinsByRequire],
  });
  mkdirSync(dirname(outfile), { recursive: true });
  for (const file of result.outputFiles) {
    const text = file.path === outfile ? file.text.replace(HOST_IMPORT, '_Sci__(') : file.text;
    if (file.path === outfile) refuseNonAscii(text);
    writeFileSync(file.path, text);
  }
}

/**
 * One of LAZY_PACKAGES as a bundle of its own (for the single executable), in the same one-expression form
 * as the main bundle: run, it sets module.exports to what `import(name)` gives (the namespace, `default`
 * included).
 */
export async function bundleLazyPackage(build, root, name, outfile) {
  await build({
    stdin: { contents: `import * as namespace from ${JSON.stringify(name)};\nmodule.exports = namespace;\n`, resolveDir: root, loader: 'js' },
    absWorkingDir: root,
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    keepNames: true,
    legalComments: 'none',
    ...SELF_DESCRIBING,
    logLevel: 'error',
    plugins: [builtinsByRequire],
  });
}

/**
 * One character above U+007F makes V8 hold the whole bundle as a two-byte string: twice the memory, read
 * and hashed slower. A small view ran 0.97x once the last two (in regular expressions, which esbuild leaves
 * as written) were spelled as escapes. The build stops at one, saying where, in one line.
 */
export function refuseNonAscii(text) {
  const at = text.search(/[^\x00-\x7f]/);
  if (at === -1) return;
  const escape = `\\u${text.charCodeAt(at).toString(16).padStart(4, '0')}`;
  process.stderr.write(`scpctl build: the bundle must be ASCII: write ${text[at]} as ${escape} in the source of: ${text.slice(Math.max(0, at - 60), at + 20)}\n`);
  process.exit(1);
}

/**
 * esbuild's build(), or one line saying what to do and exit 1: before `npm ci` there is no esbuild, and
 * `npm pack`, `npm install -g .` or a build in a fresh clone must not end in a module-resolution stack trace.
 */
export async function esbuildOrExit(root) {
  exitUnlessInstalled(root, 'the build', ['esbuild']);
  return (await import('esbuild')).build;
}

/** Writes `${bundle}.cache`, the V8 code cache of the bundle trained on the common commands (code-cache.cjs); exits on failure. */
export function trainCodeCache(root, bundle) {
  // What the training's commands and emulator say is noise in a build's output, unless the training fails.
  const made = spawnSync(process.execPath, [join(root, 'scripts', 'code-cache.cjs'), bundle], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (made.status !== 0) {
    process.stderr.write(made.stderr ?? `code cache: ${made.error?.message ?? 'the training did not run'}\n`);
    process.exit(made.status ?? 1);
  }
}

/**
 * The library (contract section 14): `require('scpctl')` loads dist/library.cjs, `import` a small ES module
 * that re-exports it (one copy of the code, one instance of ScpctlError for both), and the types are the
 * hand-kept src/library/public.d.ts (tsc holds the code to it), copied for each. The dependencies stay
 * packages of their own, loaded from node_modules as any library's are.
 */
export async function bundleLibrary(build, root) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const dist = join(root, 'dist');
  await build({
    absWorkingDir: root,
    entryPoints: ['src/library/index.ts'],
    outfile: join(dist, 'library.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    define: { SCPCTL_BUILT_VERSION: JSON.stringify(version), 'import.meta.url': 'undefined' },
    legalComments: 'none',
    logLevel: 'error',
  });
  writeFileSync(join(dist, 'library.mjs'), "import library from './library.cjs';\n\nexport const { connect, connectAll, ScpctlError, BucketList, planDigest } = library;\nexport default library;\n");
  const types = readFileSync(join(root, 'src/library/public.d.ts'));
  for (const name of ['library.d.mts', 'library.d.cts']) writeFileSync(join(dist, name), types);
}
