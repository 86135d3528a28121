#!/usr/bin/env node
// `npm run build:action`: the GitHub Action's bundle, action/dist/index.cjs (contract section 15). GitHub runs it
// from a checkout of this repository with no `npm ci`, so every package is in it (none is loaded from
// node_modules), and it is committed: test/unit/action-bundle.test.ts fails when it differs from a fresh build.
// The same source always gives the same bytes (no time, no absolute path, no random name), so that test can hold.
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { esbuildOrExit, nodeBundle } from './bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * @actions/core loads @actions/http-client (with an undici of its own: 563 KB, a third of the bundle) only for
 * getIDToken, and @actions/exec only for platform details; the action asks for neither. Both get a stub that
 * says so if ever called. The bundle went from 1,682 KB to about 1,080 KB, and a run compiles that much less.
 */
const STUBBED = /^@actions\/(http-client|exec)(\/.*)?$/;
/**
 * The OS credential store's native addon: the action hands the library its base URL and token (inputs), so
 * the store is never asked, and a .node file cannot be bundled.
 */
const NATIVE = /^@napi-rs\/keyring$/;
const noOidcOrExec = {
  name: 'no-oidc-or-exec',
  setup(build) {
    build.onResolve({ filter: STUBBED }, (args) => (args.importer.includes(`${'node_modules'}/@actions/core/`) ? { path: args.path, namespace: 'stub' } : undefined));
    build.onResolve({ filter: NATIVE }, (args) => ({ path: args.path, namespace: 'stub' }));
    build.onLoad({ filter: /.*/, namespace: 'stub' }, (args) => ({
      contents: `const no = () => { throw new Error(${JSON.stringify(`the scpctl action does not use ${args.path}`)}); };\nmodule.exports = new Proxy({}, { get: (_, name) => (name === '__esModule' ? false : no) });\n`,
      loader: 'js',
    }));
  },
};
export const ACTION_BUNDLE = join(root, 'action', 'dist', 'index.cjs');

/** The bundle's text, built in memory. */
export async function actionBundle() {
  const build = await esbuildOrExit(root);
  const result = await build({
    ...nodeBundle(root),
    entryPoints: ['action/src/index.ts'],
    outfile: ACTION_BUNDLE,
    banner: { js: '// scpctl GitHub Action: built by `npm run build:action` from action/src (do not edit).' },
    logLevel: 'error',
    plugins: [noOidcOrExec],
  });
  return result.outputFiles[0].text;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await actionBundle();
  mkdirSync(dirname(ACTION_BUNDLE), { recursive: true });
  writeFileSync(ACTION_BUNDLE, text);
  process.stdout.write(`action/dist/index.cjs: ${(text.length / 1024).toFixed(0)} KB\n`);
}
