import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requestOtp, verifyOtp } from '../src/documents/participant/signer-flow.js';
import { listProcessEvents } from '../src/documents/queries.js';
import { call, dialects, startTestService, type TestService } from './support/service.js';
import { outbox, pdfProcess, readAndSign, stored } from './support/signing.js';

describe.each(dialects)('POST /document/unlock decides a participant blocked during identity validation (%s)', (dialect) => {
  let svc: TestService;
  beforeEach(async () => {
    svc = await startTestService(dialect);
    await call(svc.app, 'POST', '/webhooks', { key: svc.orgA.privateKey, body: { name: 'default', url: 'https://hooks.example.test/documents' } });
  });
  afterEach(async () => svc.close());

  /** A process of organization A whose first signer entered three wrong codes; answers the unlock code and the signer's token. */
  async function blocked(): Promise<{ code: string; unlockCode: string; token: string }> {
    const body = pdfProcess(svc.orgA, {
      signProfile: [
        { name: 'Ana Gómez', email: 'ana@people.test', otpCode: true, options: { otpCode: 'email' } },
        { name: 'Luis Pérez', email: 'luis@people.test' },
      ],
    });
    const code: string = (await call(svc.app, 'POST', '/document/upload', { key: svc.orgA.privateKey, body })).json().code;
    const { participants } = await stored(svc, svc.orgA, code);
    const signer = participants[0]!;
    await requestOtp(svc.deps, { token: signer.link_token });
    for (let i = 0; i < 3; i++) await verifyOtp(svc.deps, { token: signer.link_token, code: 'wrong!' }).catch(() => undefined);
    expect((await stored(svc, svc.orgA, code)).participants[0]!.status).toBe('BLOCK');
    return { code, unlockCode: `${code}${signer.participant_id}`, token: signer.link_token };
  }

  const unlock = (body: Record<string, unknown>, key = svc.orgA.privateKey) => call(svc.app, 'POST', '/document/unlock', { key, body });
  const webhookTypes = async () => (await outbox(svc, 'webhook')).map((row) => (row.body.event as { type: string }).type);

  it('approve accepts the identity the block was about: the participant signs without a new code', async () => {
    const { code, unlockCode, token } = await blocked();
    const res = await unlock({ code: unlockCode, email: svc.orgA.email, status: 'approve', message: 'Identity checked by phone' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'OK' });
    const signer = (await stored(svc, svc.orgA, code)).participants[0]!;
    expect(signer).toMatchObject({ status: 'NOTIFICATION', block_reason: null });
    expect(signer.otp_verified_at).not.toBeNull();
    expect((await readAndSign(svc.deps, { token })).status).toBe('FINISH');
    const unlocked = (await listProcessEvents(svc.deps.db, signer.process_id)).find((e) => e.action === 'PARTICIPANT_UNLOCK');
    expect(unlocked).toMatchObject({ actor: svc.orgA.email, message: 'Identity checked by phone' });
    expect(await webhookTypes()).toContain('document.signer_unlocked');
  });

  it('reset clears the attempts: the steps start again', async () => {
    const { code, unlockCode, token } = await blocked();
    expect((await unlock({ code: unlockCode, email: svc.orgA.email, status: 'reset' })).json()).toEqual({ message: 'OK' });
    const signer = (await stored(svc, svc.orgA, code)).participants[0]!;
    expect(signer).toMatchObject({ status: 'NOTIFICATION', otp_failures: 0, otp_verified_at: null, otp_sent_at: null });
    expect((await requestOtp(svc.deps, { token })).medium).toBe('email');
  });

  it('reject rejects the participant, and so the process; cancel cancels it with the message', async () => {
    const first = await blocked();
    await unlock({ code: first.unlockCode, email: svc.orgA.email, status: 'reject' });
    expect((await stored(svc, svc.orgA, first.code)).process.status).toBe('REJECTED');
    expect((await stored(svc, svc.orgA, first.code)).participants[0]!.status).toBe('REJECT');

    const second = await blocked();
    await unlock({ code: second.unlockCode, email: svc.orgA.email, status: 'cancel', message: 'Could not confirm who signs' });
    const { process } = await stored(svc, svc.orgA, second.code);
    expect(process).toMatchObject({ status: 'CANCELLED', end_reason: 'Could not confirm who signs', ended_by: svc.orgA.email });
    expect(await webhookTypes()).toEqual(expect.arrayContaining(['document.rejected', 'document.cancelled']));
  });

  it('only a blocked participant of a process in signature, and once', async () => {
    const { code, unlockCode } = await blocked();
    const other = (await stored(svc, svc.orgA, code)).participants[1]!;
    expect((await unlock({ code: `${code}${other.participant_id}`, email: svc.orgA.email, status: 'reset' })).json()).toEqual({
      message: 'NOT_BLOCKED_PROCESS',
    });
    await unlock({ code: unlockCode, email: svc.orgA.email, status: 'reset' });
    expect((await unlock({ code: unlockCode, email: svc.orgA.email, status: 'reset' })).json()).toEqual({ message: 'NOT_BLOCKED_PROCESS' });
  });

  it("the code names the participant; the decider is a user of the organization; another organization's code is unknown", async () => {
    const { code, unlockCode } = await blocked();
    expect((await unlock({ code, email: svc.orgA.email, status: 'reset' })).json()).toEqual({ message: 'MISSING_SIGNER_ID' });
    expect((await unlock({ code: `${code}ZZ`, email: svc.orgA.email, status: 'reset' })).json()).toEqual({ message: 'SIGNER_NOT_FOUND' });
    expect((await unlock({ code: unlockCode, email: 'stranger@acme.test', status: 'reset' })).json()).toEqual({ message: 'USER_NOTFOUND' });
    expect((await unlock({ code: unlockCode, email: svc.orgB.email, status: 'reset' }, svc.orgB.privateKey)).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
    expect((await stored(svc, svc.orgA, code)).participants[0]!.status).toBe('BLOCK');
  });

  it('message is required for approve and cancel, and refused for reject and reset', async () => {
    const { unlockCode } = await blocked();
    expect((await unlock({ code: unlockCode, email: svc.orgA.email, status: 'approve' })).json()).toEqual({ message: '"message" is required' });
    expect((await unlock({ code: unlockCode, email: svc.orgA.email, status: 'cancel' })).json()).toEqual({ message: '"message" is required' });
    expect((await unlock({ code: unlockCode, email: svc.orgA.email, status: 'reject', message: 'x' })).json()).toEqual({ message: '"message" is not allowed' });
    expect((await unlock({ code: unlockCode, email: svc.orgA.email, status: 'unblock' })).json()).toEqual({
      message: '"status" must be one of [approve, reject, reset, cancel]',
    });
  });
});
