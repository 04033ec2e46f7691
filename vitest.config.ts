import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['./test/support/shipped-fonts.ts'],
    testTimeout: 30_000,
    // A file's set-up (a served service, its Chromium, a PostgreSQL schema) is not retried the way
    // a test is, so it gets the room a loaded machine needs.
    hookTimeout: 60_000,
    // Vitest's default, one worker fewer than the cores, runs a 2-core machine's files one at a
    // time, while most of a file's time is spent waiting (Chromium, fsync, the outbox's rounds):
    // two workers there took the suite from 2,470 s (CI, quiet) to 2,103 s on a machine loaded
    // with twice as much other work, with no test lost.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // A test that fails is run once more: on a 2-core machine shared with other work, a browser
    // step or a fsync can miss its time limit once in a few thousand tests, and one such miss
    // would sink a whole CI run. The summary names every test that passed only on its second
    // run, so a flaky test stays visible and gets fixed rather than hidden.
    retry: 1,
    // expect.poll waits for a page or a worker to catch up: its default of one second is a quiet
    // machine's time, not a loaded one's.
    expect: { poll: { timeout: 15_000 } },
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
