#!/usr/bin/env node
// `npm test`: builds dist/ where its sources changed (the end-to-end tests run the built binary), then runs the type check and the
// tests side by side. tsc keeps one core busy for a few seconds; the suite leaves room for it while its
// end-to-end tests wait on servers, children and timers, so together they finish sooner than one after the
// other. tsc's findings are printed after the tests' report; either failing fails `npm test`.
// Arguments go to vitest (`npm test -- test/unit`). `npm test` runs the fast project (the unit and e2e files);
// `npm run test:release` (`--release`) the release checks (packing, installing, the single executable), which
// .ci/run runs after it. A file named on the line runs whichever project holds it.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitUnlessInstalled } from './installed.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
exitUnlessInstalled(root, 'the test suite', ['vitest', 'typescript', 'esbuild']);

function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, command), ...args], { cwd: root, stdio: options.capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    // The type check only takes what the tests leave idle: it must not slow them.
    if (options.idle) {
      try {
        setPriority(child.pid, 19);
      } catch {
        // not allowed here: it then shares the cores evenly
      }
    }
    let output = '';
    if (options.capture) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const build = await run('scripts/build.mjs', ['--if-changed']);
if (build.code !== 0) process.exit(build.code);

const args = process.argv.slice(2);
const release = args[0] === '--release';
if (release) {
  const tests = await run('node_modules/vitest/vitest.mjs', ['run', '--project', 'release', ...args.slice(1)]);
  process.exit(tests.code);
}
const namesFiles = args.some((arg) => !arg.startsWith('-'));
const projects = namesFiles ? [] : ['--project', 'fast'];
const typecheck = run('node_modules/typescript/bin/tsc', ['-p', 'tsconfig.json', '--noEmit'], { capture: true, idle: true });
const tests = await run('node_modules/vitest/vitest.mjs', ['run', ...projects, ...args]);
const types = await typecheck;
if (types.code !== 0) process.stderr.write(`\ntsc --noEmit found errors:\n${types.output}`);
else process.stdout.write('tsc --noEmit: no type errors\n');
process.exit(tests.code || types.code);
