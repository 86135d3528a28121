import { defineConfig } from 'vitest/config';

// Release and load checks: packing, installing, the single executable, and the inputs at their size caps run
// under an address-space limit (input-memory: seconds of CPU each, generating and reading tens of MiB), the
// export of 400,000 names, the OS credential store against a real kernel keyring (some twenty scpctl
// processes, seconds of CPU), and the GitHub Action's committed bundle run as the runner runs it (two dozen
// processes: 10 s of CPU; npm test keeps the check that the bundle is a fresh build, test/unit/action-bundle).
const RELEASE = [
  'test/e2e/package.test.ts',
  'test/e2e/binary.test.ts',
  'test/e2e/input-memory.test.ts',
  'test/e2e/export-large.test.ts',
  'test/e2e/credential-store.test.ts',
  'test/e2e/action.test.ts',
  // The documents run as written (README's first day, docs/library.md, the recipes, bootstrap, gitops): what
  // ships with a release, each a dozen scpctl processes in shells; the behaviour they show is the e2e files'.
  'test/e2e/walkthrough.test.ts',
  'test/e2e/library-docs.test.ts',
  'test/e2e/recipes.test.ts',
  'test/e2e/bootstrap.test.ts',
  'test/e2e/gitops.test.ts',
  // The linear-time promises timed at the sizes users reach (a diff of 100,000 names, a table of 200,000 rows).
  'test/load/**/*.test.ts',
];

export default defineConfig({
  test: {
    // Two cores: the end-to-end files mostly wait (on the emulator, on child processes), so one more
    // worker than cores keeps both busy; a fourth only loads and transforms the modules once more (quiet
    // two-core machine: 30.0 s against 32.2-33.0 s with four). Files share a worker's loaded modules (isolate: false): nothing
    // in scpctl is per-process state (main(argv, io)); the e2e files need processes of their own (forks)
    // because a run with a working directory changes the process's. Unit files run in forks too: as
    // threads they shared one heap (850 MB at its peak against 320 MB) and finished no sooner.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      // The unit and end-to-end files as one project: both load src/ through the same transform, and as two
      // projects each worker loaded and transformed it once per project (a quiet two-core machine: 29.4 s
      // against 30.7-31.5 s of vitest, 5 CPU-s less).
      {
        extends: true,
        test: { name: 'fast', include: ['test/unit/**/*.test.ts', 'test/e2e/**/*.test.ts'], exclude: RELEASE, pool: 'forks', isolate: false },
      },
      // `npm run test:release`: what a release needs checked (packing, installing, the single executable, the
      // memory bound at every input's cap), tens of seconds that no change to a command's behaviour needs on
      // every run; CI runs it after npm test.
      { extends: true, test: { name: 'release', include: RELEASE, pool: 'forks', isolate: false } },
    ],
  },
});
