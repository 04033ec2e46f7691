import { afterEach, describe, expect, it } from 'vitest';
import { dialects, startTestService, type TestService } from './support/service.js';

const started: TestService[] = [];
afterEach(async () => {
  for (const svc of started.splice(0)) await svc.close();
});

async function service(dialect: (typeof dialects)[number], env: Record<string, string> = {}): Promise<TestService> {
  const svc = await startTestService(dialect, env);
  started.push(svc);
  return svc;
}

const health = (svc: TestService) => svc.app.inject({ method: 'GET', url: '/health' });

describe.each(dialects)('GET /health says whether the instance is ready (%s)', (dialect) => {
  it('an instance that began no start-up work is ready once its store is migrated: 200, status ok', async () => {
    const svc = await service(dialect);
    const answer = await health(svc);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      status: 'ok',
      ready: true,
      checks: { migrations: 'ok' },
      renderer: { engine: 'bundled chromium (@sparticuz/chromium)', running: false, selfTest: 'not run' },
    });
  });

  it('while the face workers load it answers 503, not ready, faceWorkers starting; 200 and ready once they have loaded', async () => {
    const svc = await service(dialect, { FACE_MATCHER: 'local', FACE_WORKERS: '1' });
    svc.deps.startBackgroundWork();
    const loading = await health(svc);
    expect(loading.statusCode).toBe(503);
    expect(loading.json()).toMatchObject({ status: 'starting', ready: false, checks: { migrations: 'ok', outbox: 'ok', faceWorkers: 'starting' } });
    await expect.poll(async () => (await health(svc)).statusCode, { timeout: 60_000, interval: 100 }).toBe(200);
    expect((await health(svc)).json()).toMatchObject({ status: 'ok', ready: true, checks: { migrations: 'ok', outbox: 'ok', faceWorkers: 'ok' } });
  }, 90_000);

  it('a renderer whose self-test fails keeps the instance not ready: 503, status failed, and the check says why', async () => {
    const svc = await service(dialect, { CHROMIUM_PATH: '/nonexistent/chromium' });
    const selfTest = svc.deps.startRendererSelfTest();
    expect((await health(svc)).json()).toMatchObject({ status: 'starting', ready: false, checks: { renderer: 'starting' } });
    await expect(selfTest).rejects.toThrow();
    const answer = await health(svc);
    expect(answer.statusCode).toBe(503);
    const body = answer.json();
    expect(body).toMatchObject({ status: 'failed', ready: false, checks: { migrations: 'ok' } });
    expect(body.checks.renderer.failed).toContain('/nonexistent/chromium');
    expect(body.renderer.selfTest.failed).toContain('/nonexistent/chromium');
  });

  it('a renderer whose self-test passes makes the instance ready: renderer ok', async () => {
    const svc = await service(dialect);
    await svc.deps.startRendererSelfTest();
    const answer = await health(svc);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ status: 'ok', ready: true, checks: { migrations: 'ok', renderer: 'ok' }, renderer: { running: true } });
  }, 60_000);
});
