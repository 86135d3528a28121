#!/usr/bin/env node
// The shim. `--version` is answered here, before the command tree loads, because it is the most common
// probe of a CLI; everything else goes to the built entry.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  // dist/ is bundled; --verbose stack traces should name the source files and lines.
  // (The same test as wantsVerbose in src/main.ts, which cannot be imported before dist/ is loaded.)
  const verbose = args.slice(0, args.includes('--') ? args.indexOf('--') : undefined).some((a) => a === '--verbose' || /^-[a-zA-Z]*v[a-zA-Z]*$/.test(a));
  if (verbose) process.setSourceMapsEnabled(true);
  const entry = new URL('../dist/main.js', import.meta.url);
  let cli;
  try {
    cli = await import(entry.href);
  } catch (error) {
    // A checkout run before its build (npm ci --ignore-scripts, or a plain clone) gets what to run, not a stack.
    const { fileURLToPath } = await import('node:url');
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes(fileURLToPath(entry))) throw error;
    const root = fileURLToPath(new URL('..', import.meta.url));
    process.stderr.write(`scpctl: not built yet (no dist/main.js): run \`npm install\` (or \`npm run build\`) in ${root}\n`);
    process.exit(1);
  }
  await cli.runAsProcess(args);
}
