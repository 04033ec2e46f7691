import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endProcess, recordProcess } from '../src/documents/processes.js';
import { sampleTemplate } from './support/fixtures.js';
import { call, dialects, startTestService, type TestService } from './support/service.js';

describe.each(dialects)('signing processes: transitions only from in signature (%s)', (dialect) => {
  let svc: TestService;
  let templateId: string;
  beforeAll(async () => {
    svc = await startTestService(dialect);
    templateId = (await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body: sampleTemplate() })).json().id;
  });
  afterAll(async () => svc.close());

  it('a process starts in signature with a 10-character code', async () => {
    const process = await recordProcess(svc.deps, { organizationId: svc.orgA.id, name: 'P', templateId });
    expect(process.status).toBe('CREATED');
    expect(process.code).toMatch(/^[A-Z0-9]{10}$/);
  });

  it('terminal states stay terminal', async () => {
    const process = await recordProcess(svc.deps, { organizationId: svc.orgA.id, name: 'P', templateId });
    await endProcess(svc.deps, { organizationId: svc.orgA.id, code: process.code, to: 'REJECTED' });
    for (const to of ['FINISH', 'EXPIRED', 'CANCELLED', 'REJECTED'] as const) {
      await expect(endProcess(svc.deps, { organizationId: svc.orgA.id, code: process.code, to })).rejects.toThrow('DOCUMENT_NOT_IN_SIGNATURE');
    }
  });

  it("a process cannot use another organization's template, nor be ended by it", async () => {
    await expect(recordProcess(svc.deps, { organizationId: svc.orgB.id, name: 'P', templateId })).rejects.toThrow('TEMPLATE_NOT_FOUND');
    const process = await recordProcess(svc.deps, { organizationId: svc.orgA.id, name: 'P', templateId });
    await expect(endProcess(svc.deps, { organizationId: svc.orgB.id, code: process.code, to: 'FINISH' })).rejects.toThrow('DOCUMENT_NOT_FOUND');
  });

  it('a delete racing process creation never leaves a process on a deleted template', async () => {
    const id = (await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body: sampleTemplate() })).json().id;
    const [created, deleted] = await Promise.allSettled([
      recordProcess(svc.deps, { organizationId: svc.orgA.id, name: 'Race', templateId: id }),
      call(svc.app, 'DELETE', `/template?id=${id}`, { key: svc.orgA.privateKey }),
    ]);
    const deleteBody = deleted.status === 'fulfilled' ? deleted.value.json() : undefined;
    if (created.status === 'fulfilled') expect(deleteBody).toEqual({ message: 'TEMPLATE_IN_USE' });
    else expect(deleteBody).toMatchObject({ id, deleted: true });
  });
});
