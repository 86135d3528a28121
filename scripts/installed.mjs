// What every script of package.json says before `npm ci` has installed the packages it needs: one line
// naming `npm ci`, exit 1 (contract section 11). It runs first, in node, so that no shell meets a missing
// `tsc` and no import meets a missing package with a stack trace.

/**
 * Exits with that one line when any of `packages` cannot be found from scripts/ (as Node's own import
 * would look for them); `what` names what needs them ("the build", "the demo", "the tests").
 */
export function exitUnlessInstalled(root, what, packages) {
  const missing = packages.filter((name) => {
    try {
      import.meta.resolve(name);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return;
  process.stderr.write(`scpctl: ${what} needs the development dependencies: run \`npm ci\` first (in ${root})\n`);
  process.exit(1);
}
