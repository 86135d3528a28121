// docs/library.md's examples, run as written: each ```js block as an ES module and the ```cjs block as
// CommonJS, in a folder whose node_modules/scpctl is this checkout (so `from 'scpctl'` goes through the
// package's exports to the built library), in one Node process against the emulator. The ```ts block is
// type-checked by the TypeScript consumer of test/e2e/library-package.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { ROOT, envFor, removeDir, startEmulator, tempDir, type Emulator } from './harness.js';
import { codeBlocks } from './markdown-blocks.js';

const doc = readFileSync(join(ROOT, 'docs/library.md'), 'utf8');
let emu: Emulator;
let work: string;

beforeAll(async () => {
  emu = await startEmulator(['--profile', 'finance=alpha-data,bravo-logs', '--events', '50']);
  work = tempDir('scpctl-library-docs-');
  mkdirSync(join(work, 'node_modules'));
  symlinkSync(ROOT, join(work, 'node_modules', 'scpctl'), 'dir');
});
afterAll(async () => {
  await emu.stop();
  removeDir(work);
});

describe('docs/library.md', () => {
  it('shows every call of the library, and each example runs as written', async () => {
    const js = codeBlocks(doc, 'js');
    const cjs = codeBlocks(doc, 'cjs');
    const [yaml] = codeBlocks(doc, 'yaml');
    for (const call of ['connect(', 'planDigest(', 'buckets.view(', 'buckets.append(', 'buckets.delete(', 'buckets.replace(', 'buckets.modify(', '.plan(', '.apply(', '.export(', '.report(', 'ScpctlError']) {
      expect(js.some((block) => block.includes(call)), call).toBe(true);
    }
    js.forEach((block, i) => writeFileSync(join(work, `example-${i + 1}.mjs`), block));
    cjs.forEach((block, i) => writeFileSync(join(work, `example-${i + 1}.cjs`), block));
    writeFileSync(join(work, 'scpctl.yaml'), yaml!);
    // One process for all of them, one after the other, each example's end said on stderr.
    const runner = [
      "import { createRequire } from 'node:module';",
      ...js.map((_, i) => `await import('./example-${i + 1}.mjs'); console.error('example ${i + 1} ran');`),
      ...cjs.map((_, i) => `createRequire(import.meta.url)('./example-${i + 1}.cjs');`),
    ].join('\n');
    writeFileSync(join(work, 'run.mjs'), runner);
    const run = await execa('node', ['run.mjs'], { cwd: work, env: envFor(emu, join(work, 'config'), { SCPCTL_STATE_DIR: join(work, 'state') }), extendEnv: false, reject: false });
    expect(run.stderr).toBe(js.map((_, i) => `example ${i + 1} ran`).join('\n'));
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("{ add: [ 'charlie-data' ], delete: [ 'bravo-logs' ] }");
    expect(run.stdout).toContain('usage 2 2 invalid bucket names; nothing was sent');
    expect(run.stdout).toMatch(/alerts in the last 7 days: \d+/);
    expect(run.stdout).toContain('{"profiles":{"finance":{"buckets":["alpha-data","foxtrot-data"]}}}\nexport round-trips: true\n');
    // The CommonJS example ends the output: the list the plan example applied.
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe("[ 'alpha-data', 'foxtrot-data' ]");
  });
});
