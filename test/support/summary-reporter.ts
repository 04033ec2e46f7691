import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with the tests that passed only on a retry (vitest.config.ts retries once; these
 * are flaky and must be fixed), the ten slowest files (CI has 90 minutes for two whole runs, so it
 * says where the time goes) and the plain "N passed, N failed, N skipped" line that CI reads.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const flaky: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (test.diagnostic()?.flaky) {
          const firstError = result.errors?.[0]?.message.split('\n')[0] ?? '';
          flaky.push(`${module.relativeModuleId} > ${test.fullName}\n    first run: ${firstError}`);
        }
        const state = result.state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
      if (module.state() === 'failed' && module.children.size === 0) counts.failed++;
    }
    if (flaky.length > 0) {
      process.stdout.write('\nPassed only on a retry (flaky, to be fixed):\n');
      for (const name of flaky) process.stdout.write(`  ${name}\n`);
    }
    const slowest = [...testModules].sort((a, b) => b.diagnostic().duration - a.diagnostic().duration).slice(0, 10);
    if (slowest.length > 1) {
      process.stdout.write('\nSlowest files:\n');
      for (const module of slowest) process.stdout.write(`  ${(module.diagnostic().duration / 1000).toFixed(0).padStart(5)} s  ${module.relativeModuleId}\n`);
    }
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
