import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The service as its own process (`src/server.ts` through tsx), for tests that kill it with -9:
 * resolves once it answers at `base`, and registers its kill with `cleanups`.
 */
export async function startServiceProcess(options: { env: Record<string, string>; base: string; cleanups: (() => Promise<void>)[] }): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: root, env: options.env, stdio: 'ignore' });
  options.cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  await expect
    .poll(
      () =>
        // Any answer: the outbox worker starts before the service listens; readiness (the face
        // workers, the renderer) is not what these tests are about, and takes longer than them.
        fetch(`${options.base}/health`).then(
          () => 'answering',
          () => 'not yet',
        ),
      // Starting through tsx compiles the service first: a minute on a machine busy with other work.
      { timeout: 60_000, interval: 100 },
    )
    .toBe('answering');
  return child;
}
