import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addUser } from '../src/organizations/organizations.js';
import { finishVeriface, submitDocumentPhoto, submitFacePhoto } from '../src/veriface/person-flow.js';
import { verifaceBody } from './support/fixtures.js';
import { jpeg, matcher } from './support/images.js';
import { call, dialects, startTestService, type TestService } from './support/service.js';
import { outbox } from './support/signing.js';

describe.each(dialects)('a person decides a BLOCKED face validation: POST /veriface/review (%s)', (dialect) => {
  let svc: TestService;
  beforeEach(async () => {
    svc = await startTestService(dialect);
    await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgA.id, email: 'supervisor@acme.test' });
    await call(svc.app, 'POST', '/webhooks', { key: svc.orgA.privateKey, body: { name: 'default', url: 'https://hooks.example.test/veriface' } });
  });
  afterEach(async () => svc.close());

  /** A face validation of organization A that went through the person's steps and ended as the matcher decides. */
  async function finished(decides: ReturnType<typeof matcher> | undefined = undefined): Promise<string> {
    const created = await call(svc.app, 'POST', '/veriface', { key: svc.orgA.privateKey, body: verifaceBody(svc.orgA.email, { platform: 'web' }) });
    const { code } = created.json();
    const row = await svc.deps.db.selectFrom('veriface_processes').select('link_token').where('code', '=', code).executeTakeFirstOrThrow();
    const token = row.link_token;
    await submitDocumentPhoto(svc.deps, { token, side: 'front', image: jpeg() });
    await submitFacePhoto(svc.deps, { token, image: jpeg() });
    await finishVeriface(decides ? { ...svc.deps, faceMatcher: decides } : svc.deps, { token });
    return code;
  }

  const review = (body: Record<string, unknown>, key = svc.orgA.privateKey) => call(svc.app, 'POST', '/veriface/review', { key, body });
  const read = async (code: string, key = svc.orgA.privateKey) => (await call(svc.app, 'GET', '/veriface', { key, query: { code } })).json();
  const events = async () => (await outbox(svc, 'webhook')).map((row) => row.body.event as { type: string; data: Record<string, unknown> });

  it('approve makes it VALIDATED, shows who decided as emailValidated, and sends veriface.validated', async () => {
    const code = await finished();
    expect((await read(code)).status).toBe('BLOCKED');
    const res = await review({ code, decision: 'approve', email: 'Supervisor@Acme.test', reason: 'Checked the ID in person' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code, status: 'VALIDATED', emailValidated: 'supervisor@acme.test' });
    expect(await read(code)).toMatchObject({ status: 'VALIDATED', emailValidated: 'supervisor@acme.test', reviewReason: 'Checked the ID in person' });
    expect((await read(code)).stages.map((s: { stage: string }) => s.stage)).toContain('validated');
    const validated = (await events()).find((e) => e.type === 'veriface.validated');
    expect(validated?.data).toMatchObject({ code, status: 'VALIDATED', emailValidated: 'supervisor@acme.test', reason: 'Checked the ID in person' });
  });

  it('reject makes it INVALIDATED and sends veriface.invalidated', async () => {
    const code = await finished();
    const res = await review({ code, decision: 'reject', email: svc.orgA.email });
    expect(res.json()).toEqual({ code, status: 'INVALIDATED', emailValidated: svc.orgA.email });
    expect(await read(code)).toMatchObject({ status: 'INVALIDATED', emailValidated: svc.orgA.email });
    expect((await events()).map((e) => e.type)).toContain('veriface.invalidated');
  });

  it('only a BLOCKED validation can be reviewed, and only once', async () => {
    const approved = await finished(matcher(95));
    expect((await review({ code: approved, decision: 'reject', email: svc.orgA.email })).json()).toEqual({ message: 'VERIFACE_NOT_BLOCKED' });
    expect((await read(approved)).status).toBe('APPROVED');
    const blocked = await finished();
    const [first, second] = await Promise.all([
      review({ code: blocked, decision: 'approve', email: svc.orgA.email }),
      review({ code: blocked, decision: 'reject', email: svc.orgA.email }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 400]);
    expect([first.json(), second.json()]).toContainEqual({ message: 'VERIFACE_NOT_BLOCKED' });
    expect((await events()).filter((e) => e.type === 'veriface.validated' || e.type === 'veriface.invalidated')).toHaveLength(1);
  });

  it('the reviewer must be a registered user of the organization; the code must be its own', async () => {
    const code = await finished();
    expect((await review({ code, decision: 'approve', email: 'stranger@acme.test' })).json()).toEqual({ message: 'USER_NOTFOUND' });
    expect((await review({ code, decision: 'approve', email: svc.orgB.email })).json()).toEqual({ message: 'USER_NOTFOUND' });
    const fromB = await review({ code, decision: 'approve', email: svc.orgB.email }, svc.orgB.privateKey);
    expect(fromB.json()).toEqual({ message: 'VERIFACE_NOT_FOUND' });
    expect((await read(code)).status).toBe('BLOCKED');
    expect((await call(svc.app, 'GET', '/veriface', { key: svc.orgB.privateKey, query: { code } })).json()).toEqual({ message: 'VERIFACE_NOT_FOUND' });
  });

  it('bad bodies are refused in Joi words, and the public key cannot review', async () => {
    const code = await finished();
    expect((await review({ code, decision: 'maybe', email: svc.orgA.email })).json()).toEqual({ message: '"decision" must be one of [approve, reject]' });
    expect((await review({ code: 'short', decision: 'approve', email: svc.orgA.email })).json()).toEqual({
      message: '"code" length must be 16 characters long',
    });
    expect((await review({ code, decision: 'approve', email: svc.orgA.email }, svc.orgA.publicKey)).statusCode).toBe(401);
  });
});
