import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end files mostly wait on child processes, so more workers than cores keeps two cores busy.
    pool: 'forks',
    maxWorkers: 4,
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
