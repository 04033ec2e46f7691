import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECURRING_JOBS } from '../src/deps.js';
import { expireDueProcesses, remindDueParticipants } from '../src/documents/lifecycle/process-sweeps.js';
import { scheduleRecurringJobs } from '../src/outbox/jobs.js';
import { call, dialects, startTestService, type TestService } from './support/service.js';
import { ANSWERS, createProcess, endProcess, outbox, pdfProcess, stored, templateWithHtml, webhookTypes } from './support/signing.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe.each(dialects)('signing processes: states and transitions (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
    for (const org of [svc.orgA, svc.orgB]) {
      await call(svc.app, 'POST', '/webhooks', { key: org.privateKey, body: { name: 'default', url: 'http://127.0.0.1:9/hook' } });
    }
  });
  afterAll(async () => svc.close());

  const view = async (code: string, key = svc.orgA.privateKey) => (await call(svc.app, 'GET', '/document', { key, query: { code } })).json();
  const cancel = (codes: string[], email = svc.orgA.email, key = svc.orgA.privateKey) =>
    call(svc.app, 'POST', '/document/cancel', { key, body: { codes, message: 'Wrong price', email } });

  describe('POST /document/cancel cancels processes in signature', () => {
    it('answers {success, errors} and lists the codes it could not cancel', async () => {
      const mine = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      const theirs = await createProcess(svc, svc.orgB, '/document/upload', pdfProcess(svc.orgB));
      const res = await cancel([mine, theirs, 'ZZZZZZZZZZ']);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: 1, errors: { cant: 2, documents: [theirs, 'ZZZZZZZZZZ'] } });
      expect((await view(theirs, svc.orgB.publicKey)).status).toBe('CREATED');
    });

    it('the process becomes CANCELLED with the reason and who; the webhook and an e-mail to the notified participants follow', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      const mailsBefore = (await outbox(svc, 'email')).length;
      await cancel([code]);
      expect(await view(code)).toMatchObject({ status: 'CANCELLED', signFinish: false, reason: 'Wrong price', endedBy: svc.orgA.email });
      expect((await webhookTypes(svc, svc.orgA)).at(-1)).toBe('document.cancelled');
      const mails = (await outbox(svc, 'email')).slice(mailsBefore);
      expect(mails.map((m) => [m.body.to, m.body.template])).toEqual([
        ['signer0@people.test', 'process-cancelled'],
        ['signer1@people.test', 'process-cancelled'],
      ]);
      const roadmap = (await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgA.privateKey, query: { code } })).json();
      expect(roadmap.activityLog.at(-1)).toMatchObject({
        action: 'CANCEL_SIGN',
        participant: 'ARCHIVE',
        platform: 'API',
        by: svc.orgA.email,
        message: 'Wrong price',
      });
    });

    it('terminal states stay terminal: a cancelled, finished, rejected or expired process cannot be cancelled', async () => {
      for (const to of ['CANCELLED', 'FINISH', 'REJECTED', 'EXPIRED'] as const) {
        const code = await createProcess(
          svc,
          svc.orgA,
          '/document/upload',
          pdfProcess(svc.orgA, { expiredDate: new Date(svc.clock.now().getTime() + 4 * DAY) }),
        );
        await endProcess(svc, svc.orgA, code, to);
        expect((await cancel([code])).json()).toEqual({ success: 0, errors: { cant: 1, documents: [code] } });
        expect((await view(code)).status).toBe(to);
      }
    });

    it('400 USER_NOTFOUND when the one cancelling is not a user of the organization', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      expect((await cancel([code], svc.orgB.email)).json()).toEqual({ message: 'USER_NOTFOUND' });
    });

    it('400 for a malformed code, with the validator message', async () => {
      expect((await cancel(['abc'])).json()).toEqual({ message: '"codes[0]" length must be 10 characters long' });
    });
  });

  describe('a process whose expiredDate passes while in signature becomes EXPIRED (scheduled sweep)', () => {
    it('expires after its date, not before, with its audit line and webhook', async () => {
      const expiredDate = new Date(svc.clock.now().getTime() + 4 * DAY);
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { expiredDate }));
      expect((await view(code)).expiredDate).toBe(expiredDate.toISOString());
      await expireDueProcesses(svc.deps);
      expect((await view(code)).status).toBe('CREATED');
      svc.clock.advance(4 * DAY + 1);
      expect(await expireDueProcesses(svc.deps)).toBeGreaterThanOrEqual(1);
      expect((await view(code)).status).toBe('EXPIRED');
      expect(await webhookTypes(svc, svc.orgA)).toContain('document.expired');
    });

    it('a process that ended first is not expired', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { expiredDate: new Date(svc.clock.now().getTime() + 4 * DAY) }));
      await cancel([code]);
      svc.clock.advance(5 * DAY);
      await expireDueProcesses(svc.deps);
      expect((await view(code)).status).toBe('CANCELLED');
    });
  });

  describe('reminders every `remember` hours to the participants who have not acted', () => {
    it('reminds when due, then again `remember` hours later; never after the process ended', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { remember: 3 }));
      expect((await view(code)).remember).toBe(3);
      const reminders = async () => (await outbox(svc, 'email')).filter((m) => m.body.template === 'signing-reminder').length;
      const before = await reminders();
      await remindDueParticipants(svc.deps);
      expect(await reminders()).toBe(before);
      svc.clock.advance(3 * HOUR);
      await remindDueParticipants(svc.deps);
      expect(await reminders()).toBe(before + 2);
      svc.clock.advance(3 * HOUR);
      await remindDueParticipants(svc.deps);
      expect(await reminders()).toBe(before + 4);
      await cancel([code]);
      svc.clock.advance(3 * HOUR);
      await remindDueParticipants(svc.deps);
      expect(await reminders()).toBe(before + 4);
      const roadmap = (await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgA.privateKey, query: { code } })).json();
      expect(roadmap.activityLog.filter((e: { action: string }) => e.action === 'REMINDER_SIGN')).toHaveLength(4);
    });
  });

  describe('GET /document without code lists the processes, newest first, by status and template', () => {
    it('filters by status and by template, and pages with a cursor', async () => {
      const fresh = await startTestService(dialect);
      try {
        const templateId = await templateWithHtml(fresh, fresh.orgA);
        const fromTemplate = [];
        for (let i = 0; i < 3; i++) {
          fromTemplate.push(
            await createProcess(fresh, fresh.orgA, '/document/save', { email: fresh.orgA.email, name: `T${i}`, document: templateId, data: ANSWERS }),
          );
          fresh.clock.advance(1000);
        }
        const pdf = await createProcess(fresh, fresh.orgA, '/document/upload', pdfProcess(fresh.orgA));
        await createProcess(fresh, fresh.orgB, '/document/upload', pdfProcess(fresh.orgB));
        await call(fresh.app, 'POST', '/document/cancel', {
          key: fresh.orgA.privateKey,
          body: { codes: [fromTemplate[0]], message: 'x', email: fresh.orgA.email },
        });

        const list = async (query: Record<string, string>) => (await call(fresh.app, 'GET', '/document', { key: fresh.orgA.privateKey, query })).json();
        const codes = (page: { data: { code: string }[] }) => page.data.map((p) => p.code);
        expect(codes(await list({}))).toEqual([pdf, fromTemplate[2], fromTemplate[1], fromTemplate[0]]);
        expect(codes(await list({ template: templateId, status: 'CREATED' }))).toEqual([fromTemplate[2], fromTemplate[1]]);
        expect(codes(await list({ status: 'CANCELLED' }))).toEqual([fromTemplate[0]]);
        const first = await list({ limit: '2' });
        expect(codes(first)).toEqual([pdf, fromTemplate[2]]);
        const second = await list({ limit: '2', cursor: first.next });
        expect(codes(second)).toEqual([fromTemplate[1], fromTemplate[0]]);
        expect(second.next).toBeNull();
        expect(await list({ status: 'DONE' })).toEqual({ message: '"status" must be one of [CREATED, EDITING, FINISH, REJECTED, EXPIRED, CANCELLED]' });
      } finally {
        await fresh.close();
      }
    });
  });

  describe('a template delete racing a process creation never leaves a process on a deleted template', () => {
    it('either the process exists and the delete is TEMPLATE_IN_USE, or the template is gone and creation failed', async () => {
      for (let i = 0; i < 3; i++) {
        const templateId = await templateWithHtml(svc, svc.orgA);
        const [created, deleted] = await Promise.all([
          call(svc.app, 'POST', '/document/save', {
            key: svc.orgA.privateKey,
            body: { email: svc.orgA.email, name: 'Race', document: templateId, data: ANSWERS },
          }),
          call(svc.app, 'DELETE', `/template?id=${templateId}`, { key: svc.orgA.privateKey }),
        ]);
        if (created.statusCode === 200) {
          expect(deleted.json()).toEqual({ message: 'TEMPLATE_IN_USE' });
          expect((await stored(svc, svc.orgA, created.json().code)).process.status).toBe('CREATED');
        } else {
          expect(created.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
          expect(deleted.json()).toMatchObject({ id: templateId, deleted: true });
        }
      }
    });
  });
});

describe.each(dialects)('signing processes: the scheduled work runs through the outbox (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  it('the expiry sweep and the sealing of a finished process are jobs the worker runs', async () => {
    await scheduleRecurringJobs(svc.deps.db, svc.clock, RECURRING_JOBS);
    const expiring = await createProcess(
      svc,
      svc.orgA,
      '/document/upload',
      pdfProcess(svc.orgA, { expiredDate: new Date(svc.clock.now().getTime() + 4 * DAY) }),
    );
    const signed = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
    await endProcess(svc, svc.orgA, signed, 'FINISH');
    svc.clock.advance(4 * DAY);
    await svc.deps.worker.deliverDue();
    expect((await stored(svc, svc.orgA, expiring)).process.status).toBe('EXPIRED');
    const finished = await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code: signed } });
    expect(finished.json()).toMatchObject({
      status: 'FINISH',
      signFinish: true,
      certificateUrl: expect.stringMatching(/\/final\/[0-9a-f]{24}\/certificate\.pdf/),
    });
    expect(finished.json().documents[0].signedUrl).toMatch(/\/final\/[0-9a-f]{24}\/0\.pdf/);
  });
});
