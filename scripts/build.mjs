#!/usr/bin/env node
// Builds dist/ with esbuild: the entry (src/main.ts) and the modules it needs at start-up in one file, each
// lazily imported command in a chunk of its own. Measured against plain tsc output, this loads commander
// without the ESM-to-CommonJS translation and reads fewer files, so start-up is cheaper (npm run bench).
// Types are checked by `tsc --noEmit` before this runs. ora, cli-table3, conf and undici stay external:
// they are imported only by the commands that need them. So is yaml (only `apply` reads YAML).
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// Before `npm ci` there is no esbuild: `npm pack`, `npm install -g .` or `npm run build` in a fresh clone get
// one line that says what to do, not a module-resolution stack trace.
let build;
try {
  ({ build } = await import('esbuild'));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  process.stderr.write(`scpctl: the build needs the development dependencies: run \`npm ci\` first (in ${root})\n`);
  process.exit(1);
}

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
rmSync(join(root, 'dist'), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['src/main.ts'],
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['ora', 'cli-table3', 'conf', 'undici', 'yaml', 'proper-lockfile'],
  // commander is CommonJS; its require() calls of Node built-ins need a real require in an ES module.
  banner: { js: "import { createRequire as __scpctlRequire } from 'node:module'; const require = __scpctlRequire(import.meta.url);" },
  minifySyntax: true,
  minifyWhitespace: true,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [noExecutableSubcommands],
});
