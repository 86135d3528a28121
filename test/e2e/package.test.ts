// Packaging: what `npm pack` puts in the tarball, and that the tarball installs (dependencies from the npm
// cache, no network) and runs from another folder against the emulator. Slow, so it has a file of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { createRequire } from 'node:module';
import { ROOT, envFor, removeDir, scpctl, startEmulator, tempDir, withTempDir, type Emulator } from './harness.js';
import { codeBlocks } from './markdown-blocks.js';

const SLOW = 120_000;
const { cacheFor } = createRequire(import.meta.url)('../../bin/code-cache-file.cjs') as { cacheFor: (bundle: Buffer, file: Buffer) => Buffer | undefined };
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

let emu: Emulator;
let work: string;
let tarball: string;
let files: string[];

beforeAll(async () => {
  emu = await startEmulator(['--profile', 'finance=packaged-bucket,another-bucket']);
  work = tempDir('scpctl-package-');
  // --ignore-scripts: npm pack would run prepare, rebuilding dist/ under the feet of the other test files
  // (npm test has just built it: scripts/test.mjs).
  const packed = await execa('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT, reject: false });
  expect(packed.exitCode, String(packed.stderr)).toBe(0);
  const [info] = JSON.parse(String(packed.stdout)) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, info!.filename);
  files = info!.files.map((f) => f.path);
}, SLOW);
afterAll(async () => {
  await emu?.stop();
  removeDir(work);
});

describe('package.json', () => {
  it('declares what a published CLI needs', () => {
    expect(pkg.name).toBe('scpctl');
    expect(pkg.type).toBe('module');
    expect(pkg.bin).toEqual({ scpctl: 'bin/scpctl.js' });
    // The bundle, its map (for --verbose stack traces) and its code cache, and the library with its types: the
    // single executable (dist/bin/, dist/sea/) is 100 MB of Node, never packed.
    const bundles = ['dist/scpctl.cjs', 'dist/scpctl.cjs.map', 'dist/scpctl.cjs.cache'];
    const library = ['dist/library.cjs', 'dist/library.mjs', 'dist/library.d.mts', 'dist/library.d.cts'];
    expect(pkg.files).toEqual(['bin/', ...bundles, ...library, 'schema/', 'README.md', 'LICENSE']);
    // The library (contract section 14): import and require, each with its types.
    expect(pkg.exports['.']).toEqual({
      import: { types: './dist/library.d.mts', default: './dist/library.mjs' },
      require: { types: './dist/library.d.cts', default: './dist/library.cjs' },
    });
    expect(pkg.engines.node).toMatch(/^>=\s*20/);
    expect(pkg.repository).toMatchObject({ type: 'git', url: expect.any(String) });
    expect(pkg.keywords).toEqual(expect.arrayContaining(['cli']));
    expect(pkg.license).toBe('MIT');
    // A checkout works after `npm ci` / `npm install` with no extra step (npm runs the root's prepare).
    expect(pkg.scripts.prepare).toBe('node scripts/build.mjs');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toContain('MIT');
  });
});

describe('before npm ci', () => {
  it('the build (npm pack and npm install -g . run it as prepare) prints one line saying to run npm ci first', async () => {
    const fresh = join(work, 'fresh-clone');
    cpSync(join(ROOT, 'scripts'), join(fresh, 'scripts'), { recursive: true });
    copyFileSync(join(ROOT, 'package.json'), join(fresh, 'package.json'));
    const built = await execa('node', ['scripts/build.mjs'], { cwd: fresh, reject: false });
    expect(built.exitCode).toBe(1);
    expect(built.stderr).toBe(`scpctl: the build needs the development dependencies: run \`npm ci\` first (in ${fresh})`);
    // Each script's line run by sh as `npm run` runs it (node_modules/.bin first on the PATH; `npm run build`
    // was `tsc ... && ...` and said `sh: 1: tsc: not found`), without npm's half second each; npm itself
    // runs `npm pack`. Side by side: one line on stderr each, naming npm ci, and a failure.
    // (The PATH vitest runs with has this checkout's node_modules/.bin, where a fresh clone's tsc is not.)
    const PATH = [join(fresh, 'node_modules', '.bin'), ...(process.env.PATH ?? '').split(':').filter((dir) => !dir.includes('node_modules'))].join(':');
    const runs = await Promise.all([
      ...['build', 'demo', 'prepare', 'test'].map((script) => execa('sh', ['-c', pkg.scripts[script]], { cwd: fresh, reject: false, stdin: 'ignore', env: { PATH } })),
      execa('npm', ['pack', '--dry-run'], { cwd: fresh, reject: false, stdin: 'ignore' }),
    ]);
    for (const [index, run] of runs.entries()) {
      const what = ['build', 'demo', 'prepare', 'test', 'pack'][index];
      expect(run.exitCode, what).not.toBe(0);
      expect(String(run.stderr), what).not.toMatch(/\n\s+at |not found/);
      const ours = String(run.stderr).split('\n').filter((line) => !line.startsWith('npm '));
      expect(ours, what).toEqual([expect.stringMatching(/^scpctl: the [a-z ]+ needs the development dependencies: run `npm ci` first \(in /)]);
    }
  }, SLOW);
});

describe('install lines in the README and docs/', () => {
  it('install from a checkout or a tarball, never a package name no registry holds', () => {
    const texts = [join(ROOT, 'README.md'), ...readdirSync(join(ROOT, 'docs'), { recursive: true }).map((f) => join(ROOT, 'docs', String(f)))]
      .filter((path) => /\.(md|yml|yaml|sh)$/.test(path))
      .map((path) => [path, readFileSync(path, 'utf8')] as const);
    const installs: string[] = [];
    for (const [path, text] of texts) {
      for (const match of text.matchAll(/(?:npm (?:install|i)|npx)(?: -g)? +([^\s`#]+)/g)) installs.push(`${path}: ${match[0]}`);
    }
    expect(installs.length).toBeGreaterThan(2);
    for (const line of installs) expect(line, line).toMatch(/: npm (install|i) (-g )?(\.|\.\/\S+|\/\S+)$/);
  });
});

describe('npm pack', () => {
  it('holds only package.json, bin/, dist/, schema/, README.md and LICENSE', () => {
    expect(existsSync(tarball)).toBe(true);
    for (const path of files) expect(path).toMatch(/^(package\.json|README\.md|LICENSE|bin\/.+|dist\/scpctl\.cjs(\.map|\.cache)?|dist\/library\.(cjs|mjs|d\.mts|d\.cts)|schema\/.+)$/);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'bin/scpctl.js', 'schema/manifest.schema.json']));
    expect(files.some((f) => f.startsWith('dist/'))).toBe(true);
    expect(files.filter((f) => /^(src|test|docs|scripts|bench)\//.test(f) || (f.endsWith('.ts') && !/\.d\.[cm]ts$/.test(f)))).toEqual([]);
  });
});

describe('installed from the tarball', () => {
  let prefix: string;
  let bin: string;
  let elsewhere: string;

  beforeAll(async () => {
    prefix = join(work, 'prefix');
    elsewhere = tempDir('scpctl-elsewhere-');
    const args = ['install', '-g', '--prefix', prefix, tarball, '--no-audit', '--no-fund'];
    let installed = await execa('npm', [...args, '--offline'], { cwd: elsewhere, reject: false });
    if (installed.exitCode !== 0) installed = await execa('npm', [...args, '--prefer-offline'], { cwd: elsewhere, reject: false });
    expect(installed.exitCode, String(installed.stderr)).toBe(0);
    bin = join(prefix, 'bin', 'scpctl');
  }, SLOW);
  afterAll(() => removeDir(elsewhere));

  it('has its runtime dependencies and none of the development ones', () => {
    const modules = join(prefix, 'lib', 'node_modules', 'scpctl', 'node_modules');
    for (const dep of Object.keys(pkg.dependencies)) {
      expect(existsSync(join(modules, dep)) || existsSync(join(prefix, 'lib', 'node_modules', dep)), dep).toBe(true);
    }
    for (const dev of ['vitest', 'typescript', 'execa']) expect(existsSync(join(modules, dev)), dev).toBe(false);
  });

  it('prints its version', async () => {
    const r = await execa(bin, ['--version'], { cwd: elsewhere, reject: false });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(pkg.version);
  });

  it('views a bucket list, runs doctor and prints completion from another folder', async () => {
    const env = envFor(emu, elsewhere);
    const view = await scpctl(['buckets', 'view', 'finance'], { env, cwd: elsewhere });
    expect(view.exitCode).toBe(0);
    // The same through the installed binary (not the repository's): the harness runs `node BIN`, so call it directly.
    const installed = await execa(bin, ['buckets', 'view', 'finance'], { env: env as Record<string, string>, extendEnv: false, cwd: elsewhere, reject: false });
    expect(installed.exitCode, String(installed.stderr)).toBe(0);
    expect(installed.stdout).toBe('packaged-bucket\nanother-bucket');
    expect(installed.stdout).toBe(view.stdout.trimEnd());
    const doctor = await execa(bin, ['doctor', '--json'], { env: env as Record<string, string>, extendEnv: false, cwd: elsewhere, reject: false });
    expect(doctor.exitCode, String(doctor.stdout)).toBe(0);
    expect(String(doctor.stdout)).not.toContain(emu.token);
    const completion = await execa(bin, ['completion', 'bash'], { cwd: elsewhere, reject: false });
    expect(completion.stdout).toContain('complete -F _scpctl scpctl');
  });
});

describe('the library, from a project that installs the tarball (contract section 14)', () => {
  let project: string;

  beforeAll(async () => {
    project = tempDir('scpctl-consumer-');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const args = ['install', tarball, '--no-audit', '--no-fund', '--no-package-lock'];
    let installed = await execa('npm', [...args, '--offline'], { cwd: project, reject: false });
    if (installed.exitCode !== 0) installed = await execa('npm', [...args, '--prefer-offline'], { cwd: project, reject: false });
    expect(installed.exitCode, String(installed.stderr)).toBe(0);
  }, SLOW);
  afterAll(() => removeDir(project));

  /** Runs a consumer file with node against the emulator; its stdout. */
  const consume = async (file: string, source: string): Promise<string> => {
    writeFileSync(join(project, file), source);
    const run = await execa(process.execPath, [file], { cwd: project, env: envFor(emu, project), extendEnv: false, reject: false });
    expect(run.stderr, file).toBe('');
    expect(run.exitCode, file).toBe(0);
    return run.stdout;
  };
  const uses = (load: string): string => `${load}
const scp = await connect();
const list = await scp.buckets.view('finance');
let kind;
try { await scp.buckets.view('no-such-profile'); } catch (error) { kind = error instanceof ScpctlError && \`\${error.kind} \${error.exitCode}\`; }
console.log(JSON.stringify([list.names(), list.size, kind]));
await scp.close();
`;

  it('an ES module and a CommonJS module each connect, view and catch a ScpctlError', async () => {
    const expected = JSON.stringify([['packaged-bucket', 'another-bucket'], 2, 'notFound 4']);
    expect(await consume('esm.mjs', uses("import { connect, ScpctlError } from 'scpctl';"))).toBe(expected);
    const cjs = uses("const { connect, ScpctlError } = require('scpctl');").replace(/^const scp/m, '(async () => {\nconst scp') + '})();\n';
    expect(await consume('cjs.cjs', cjs)).toBe(expected);
  });

  it('a TypeScript consumer type-checks against the shipped types (ES module and CommonJS), docs/library.md\'s example included', async () => {
    const [example] = codeBlocks(readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8'), 'ts');
    writeFileSync(join(project, 'example.mts'), example!);
    writeFileSync(join(project, 'typed.mts'), `import { connect, ScpctlError, type Plan, type ScpctlErrorKind } from 'scpctl';
const scp = await connect({ baseUrl: 'https://tenant.example.com', token: 't' });
const plan: Plan = await scp.plan({ profiles: { finance: { buckets: ['alpha-data'] } } });
const kinds: ScpctlErrorKind[] = plan.profiles.flatMap((p) => (p.error ? [p.error.kind] : []));
for await (const record of scp.report({ type: 'alert', all: true })) console.log(record.count, kinds);
try { await scp.apply(plan); } catch (error) { if (error instanceof ScpctlError) console.log(error.exitCode, error.kind, error.hint); }
// @ts-expect-error: a view takes a profile name
await scp.buckets.view(42);
`);
    writeFileSync(join(project, 'typed.cts'), `import scpctl = require('scpctl');
const pending: Promise<scpctl.Scpctl> = scpctl.connect({ context: 'prod' });
void pending.then((scp) => scp.buckets.modify('finance', { add: ['a-data'], delete: 'b-logs' }));
`);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2023'], strict: true, noEmit: true, skipLibCheck: false, typeRoots: [join(ROOT, 'node_modules', '@types')], types: ['node'] },
      files: ['example.mts', 'typed.mts', 'typed.cts'],
    }));
    const checked = await execa(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: project, reject: false });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.exitCode).toBe(0);
  }, SLOW);
});

describe('--verbose', () => {
  it('stack traces name the source files: the map beside the bundle is read when a stack is printed', async () => {
    await withTempDir('scpctl-verbose-', async (config) => {
      const r = await execa(process.execPath, [join(ROOT, 'bin', 'scpctl.js'), '--verbose', 'buckets', 'view', 'finance', '--base-url', 'http://service.example.com'], {
        env: { PATH: process.env.PATH, SCPCTL_CONFIG_DIR: config, SCPCTL_TOKEN: 'verbose-token' },
        extendEnv: false,
        reject: false,
      });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/\n\s+at normalizeBaseUrl \(.*src\/settings\/base-url\.ts:\d+:\d+\)/);
    });
  });

  it('installed elsewhere, with the cache the build made (whose frames name the build\'s folder), by the map beside the bundle', async () => {
    await withTempDir('scpctl-verbose-copy-', async (copy) => {
      cpSync(join(ROOT, 'bin'), join(copy, 'bin'), { recursive: true });
      mkdirSync(join(copy, 'dist'));
      for (const file of ['scpctl.cjs', 'scpctl.cjs.cache', 'scpctl.cjs.map']) copyFileSync(join(ROOT, 'dist', file), join(copy, 'dist', file));
      copyFileSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
      const r = await execa(process.execPath, [join(copy, 'bin', 'scpctl.js'), '-v', 'buckets', 'view', 'finance', '--base-url', 'http://service.example.com'], {
        env: { PATH: process.env.PATH, SCPCTL_CONFIG_DIR: copy, SCPCTL_TOKEN: 'verbose-token' },
        extendEnv: false,
        reject: false,
      });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`at normalizeBaseUrl (${join(copy, 'src', 'settings', 'base-url.ts')}:`);
      expect(r.stderr).not.toContain(ROOT);
    });
  });
});

describe('the bundle as a script', () => {
  it('runs once, as a script, even when something loaded before it defined a global `module`', async () => {
    await withTempDir('scpctl-preload-', async (folder) => {
      const preload = join(folder, 'preload.cjs');
      writeFileSync(preload, 'globalThis.module = { exports: {} }; globalThis.exports = {};\n');
      const r = await execa(process.execPath, ['--require', preload, join(ROOT, 'bin', 'scpctl.js'), 'buckets', '--help'], { reject: false });
      expect(r.exitCode, String(r.stderr)).toBe(0);
      expect(r.stdout.match(/Usage: scpctl buckets/g)).toHaveLength(1);
    });
  });
});

describe('the code cache', () => {
  /** Runs `use` on the package as installed, in a folder of its own: bin/, the bundle, package.json, node_modules. */
  const withPackageCopy = (use: (copy: string) => Promise<void>): Promise<void> =>
    withTempDir('scpctl-cache-', (copy) => {
      cpSync(join(ROOT, 'bin'), join(copy, 'bin'), { recursive: true });
      mkdirSync(join(copy, 'dist'));
      copyFileSync(join(ROOT, 'dist', 'scpctl.cjs'), join(copy, 'dist', 'scpctl.cjs'));
      copyFileSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
      symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
      return use(copy);
    });
  /** V8's data in a cache file, when the file was made from exactly `bundle` (bin/code-cache-file.cjs). */
  const v8Data = (bundle: string, cache: string): Buffer | undefined => cacheFor(readFileSync(bundle), readFileSync(cache));
  const takenByV8 = async (bundle: string, cache: string): Promise<boolean> => {
    if (v8Data(bundle, cache) === undefined) return false;
    const check = `const {Script}=require('node:vm');const fs=require('node:fs');const {cacheFor}=require(${JSON.stringify(join(ROOT, 'bin', 'code-cache-file.cjs'))});` +
      `const b=fs.readFileSync(${JSON.stringify(bundle)});const s=new Script(b.toString('utf8'),{cachedData:cacheFor(b,fs.readFileSync(${JSON.stringify(cache)}))});` +
      `process.stdout.write(String(!s.cachedDataRejected))`;
    return (await execa(process.execPath, ['-e', check])).stdout === 'true';
  };

  it('the build refuses a bundle that is not ASCII (V8 would hold it as a two-byte string), in one line naming the character', async () => {
    const check = (text: string) =>
      execa(process.execPath, ['--input-type=module', '-e', `import { refuseNonAscii } from ${JSON.stringify(join(ROOT, 'scripts', 'bundle.mjs'))}; refuseNonAscii(${JSON.stringify(text)});`], { reject: false });
    expect((await check('const PLAIN = /^[\\x20-\\x7e\\u2026]*$/;')).exitCode).toBe(0);
    const refused = await check('const PLAIN = /^[\\x20-\\x7e…]*$/;');
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toBe('scpctl build: the bundle must be ASCII: write … as \\u2026 in the source of: const PLAIN = /^[\\x20-\\x7e…]*$/;');
  });

  it('the build ships the cache trained on the common commands, not one a run wrote', async () => {
    await withPackageCopy(async (copy) => {
      // With no cache, a run writes what it compiled at its exit: --help compiles a fraction of what the
      // training (help, a view, a report, a dry-run replace) does.
      const help = await execa(process.execPath, [join(copy, 'bin', 'scpctl.js'), '--help'], { reject: false });
      expect(help.exitCode, String(help.stderr)).toBe(0);
      const helpOnly = v8Data(join(copy, 'dist', 'scpctl.cjs'), join(copy, 'dist', 'scpctl.cjs.cache'))!.length;
      const shipped = v8Data(join(ROOT, 'dist', 'scpctl.cjs'), join(ROOT, 'dist', 'scpctl.cjs.cache'))!.length;
      expect(shipped).toBeGreaterThan(helpOnly * 1.3);
      expect(await takenByV8(join(ROOT, 'dist', 'scpctl.cjs'), join(ROOT, 'dist', 'scpctl.cjs.cache'))).toBe(true);
    });
  });

  it('the shim takes the shipped cache as it is (it compiles the bundle as the training did)', async () => {
    await withPackageCopy(async (copy) => {
      const cache = join(copy, 'dist', 'scpctl.cjs.cache');
      copyFileSync(join(ROOT, 'dist', 'scpctl.cjs.cache'), cache);
      const shipped = readFileSync(cache);
      const run = await execa(process.execPath, [join(copy, 'bin', 'scpctl.js'), 'buckets', '--help'], { reject: false });
      expect(run.exitCode, String(run.stderr)).toBe(0);
      // A cache V8 rejected would have been written again at exit, with what --help alone compiled.
      expect(readFileSync(cache).equals(shipped)).toBe(true);
    });
  });

  it('a bundle rebuilt to the same length with other content never runs the code of the old one\'s cache', async () => {
    await withPackageCopy(async (copy) => {
      const bundle = join(copy, 'dist', 'scpctl.cjs');
      const shim = join(copy, 'bin', 'scpctl.js');
      const before = 'print each HTTP request and response on stderr';
      const text = readFileSync(bundle, 'latin1');
      expect(text).toContain(before);
      // The first run compiles and keeps its cache; the second takes it (the cache file is unchanged).
      for (let i = 0; i < 2; i++) expect((await execa(process.execPath, [shim, '--help'])).stdout).toContain(before);
      const kept = readFileSync(`${bundle}.cache`);
      const after = before.toUpperCase();
      writeFileSync(bundle, text.replace(before, after), 'latin1');
      expect(statSync(bundle).size).toBe(text.length);
      const rebuilt = await execa(process.execPath, [shim, '--help']);
      expect(rebuilt.stdout).toContain(after);
      expect(rebuilt.stdout).not.toContain(before);
      // The old cache was set aside for one made from the new bundle.
      expect(readFileSync(`${bundle}.cache`).equals(kept)).toBe(false);
      expect(await takenByV8(bundle, `${bundle}.cache`)).toBe(true);
    });
  });

  it('a cache V8 rejects (another Node, a damaged file) is made again at the next run, never writable by others', async () => {
    await withPackageCopy(async (copy) => {
      const cache = join(copy, 'dist', 'scpctl.cjs.cache');
      writeFileSync(cache, 'not a code cache');
      // umask 002, as some systems have it: the cache must still be writable by its owner alone.
      const run = await execa('sh', ['-c', `umask 002 && exec "${process.execPath}" "${join(copy, 'bin', 'scpctl.js')}" buckets --help`], { reject: false });
      expect(run.exitCode, String(run.stderr)).toBe(0);
      expect(run.stdout).toContain('Usage: scpctl buckets');
      expect(readFileSync(cache, 'utf8')).not.toBe('not a code cache');
      expect(statSync(cache).mode & 0o022).toBe(0);
      expect(await takenByV8(join(copy, 'dist', 'scpctl.cjs'), cache)).toBe(true);
      expect(readdirSync(join(copy, 'dist')).sort()).toEqual(['scpctl.cjs', 'scpctl.cjs.cache']); // nothing left aside
    });
  });
});

describe('from a checkout', () => {
  it('npm install -g . puts a working scpctl on the PATH (README: Install)', async () => {
    await withTempDir('scpctl-link-', async (prefix) => {
      // --ignore-scripts: installing the folder runs its prepare, which would rebuild dist/ under the other test
      // files (npm test has just built it: scripts/test.mjs).
      const linked = await execa('npm', ['install', '-g', '--prefix', prefix, '.', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: ROOT,
        reject: false,
      });
      expect(linked.exitCode, String(linked.stderr)).toBe(0);
      const env = envFor(emu, prefix);
      const r = await execa(join(prefix, 'bin', 'scpctl'), ['buckets', 'view', 'finance'], { env: env as Record<string, string>, extendEnv: false, cwd: prefix, reject: false });
      expect(r.exitCode, String(r.stderr)).toBe(0);
      expect(r.stdout).toBe('packaged-bucket\nanother-bucket');
    });
  }, SLOW);

  it('before its build, says in one line what to run instead of a stack trace', async () => {
    await withTempDir('scpctl-unbuilt-', async (clone) => {
      cpSync(join(ROOT, 'bin'), join(clone, 'bin'), { recursive: true });
      copyFileSync(join(ROOT, 'package.json'), join(clone, 'package.json'));
      // --version too: commander answers it, in the bundle (the shim reads no word of the line).
      for (const line of [['buckets', 'view', 'finance'], ['report'], ['--version']]) {
        const r = await execa('node', [join(clone, 'bin', 'scpctl.js'), ...line], { reject: false });
        expect(r.exitCode).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toBe(`scpctl: not built yet (no dist/scpctl.cjs): run \`npm install\` (or \`npm run build\`) in ${clone}/`);
      }
      // A build of another version (here: the bundle as it was before it carried its own call) is not run.
      mkdirSync(join(clone, 'dist'));
      const current = readFileSync(join(ROOT, 'dist', 'scpctl.cjs'), 'utf8');
      writeFileSync(join(clone, 'dist', 'scpctl.cjs'), current.slice(current.indexOf('\n') + 1).replace(/\n\}, this\)\n/, '\n'));
      for (const line of [['buckets', 'view', 'finance'], ['report']]) {
        const stale = await execa('node', [join(clone, 'bin', 'scpctl.js'), ...line], { reject: false });
        expect(stale.exitCode).toBe(1);
        expect(stale.stdout).toBe('');
        expect(stale.stderr).toBe(`scpctl: dist/scpctl.cjs was built by another version of scpctl: run \`npm install\` (or \`npm run build\`) in ${clone}/`);
      }
    });
  });
});
