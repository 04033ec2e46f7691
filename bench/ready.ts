/**
 * Every bench counts only once the service says it is ready (GET /health answers 200): counting from
 * its first answer measured its start-up (the face workers loading, Chromium's self-test) instead.
 */
import type { FastifyInstance } from 'fastify';

interface HealthAnswer {
  status: number;
  body: unknown;
}

const READY_TIMEOUT_MS = 180_000;

/** Resolves once /health answers 200; throws at once when a start-up check failed, and after the timeout. */
export async function waitUntilReady(askHealth: () => Promise<HealthAnswer | undefined>): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last: HealthAnswer | undefined;
  while (Date.now() < deadline) {
    last = await askHealth();
    if (last?.status === 200) return;
    if (hasFailed(last?.body)) throw new Error(`the service will not be ready: ${JSON.stringify(last?.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the service was not ready after ${READY_TIMEOUT_MS / 1000} s: ${JSON.stringify(last?.body)}`);
}

function hasFailed(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'status' in body && body.status === 'failed';
}

/** Asks a service listening at `base`; undefined while nothing answers there. */
export function healthAt(base: string): () => Promise<HealthAnswer | undefined> {
  return () =>
    fetch(`${base}/health`).then(
      async (response) => ({ status: response.status, body: await response.json() }),
      () => undefined,
    );
}

/** Asks a service built in this process. */
export function healthOf(app: FastifyInstance): () => Promise<HealthAnswer> {
  return async () => {
    const answer = await app.inject({ method: 'GET', url: '/health' });
    return { status: answer.statusCode, body: answer.json() };
  };
}
