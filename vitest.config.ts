import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['./test/support/shipped-fonts.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Vitest's default, one worker fewer than the cores, runs a 2-core machine's files one at a
    // time, while most of a file's time is spent waiting (Chromium, fsync, the outbox's rounds):
    // two workers there took the suite from 2,470 s (CI, quiet) to 2,103 s on a machine loaded
    // with twice as much other work, with no test lost.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
