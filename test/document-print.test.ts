import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printProcess } from '../src/documents/creating/print-process.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { emailHandler } from '../src/messages/handlers.js';
import type { MailFile } from '../src/messages/mailer.js';
import { isEmailPayload } from '../src/messages/payloads.js';
import { outboxMessage } from './support/outbox-message.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { ANSWERS, outbox, stored, templateWithHtml, webhookTypes } from './support/signing.js';

const PEOPLE = [
  { name: 'Juan Pérez', email: 'juan@people.test' },
  { name: 'Rosa Díaz', email: 'rosa@people.test' },
];

describe.each(dialects)('sign: false on POST /document/save: the document is e-mailed for printing, nobody signs (%s)', (dialect) => {
  let svc: TestService;
  const templates = new Map<string, string>();
  beforeAll(async () => {
    svc = await startTestService(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
    for (const org of [svc.orgA, svc.orgB]) {
      await call(svc.app, 'POST', '/webhooks', { key: org.privateKey, body: { name: 'default', url: 'http://127.0.0.1:9/typed' } });
      templates.set(org.id, await templateWithHtml(svc, org));
    }
  });
  afterAll(async () => svc.close());

  const save = (org: TestOrganization, overrides: Record<string, unknown> = {}) =>
    call(svc.app, 'POST', '/document/save', {
      key: org.privateKey,
      body: {
        email: org.email,
        name: 'Sale',
        message: 'Sign it by hand, please.',
        document: templates.get(org.id),
        data: ANSWERS,
        signProfile: PEOPLE,
        ...overrides,
      },
    });

  describe('the process is FINISH at once with sign: false; no invitation, no link; the creation webhook as always', () => {
    it('answers the code and the participants without url; GET /document says sign: false, signFinish false, to both keys', async () => {
      const mailsBefore = (await outbox(svc, 'email')).length;
      const res = await save(svc.orgA, { sign: false, notification: false });
      expect(res.statusCode, res.body).toBe(200);
      const { code, signProfile } = res.json();
      expect(signProfile.map((p: { email: string; url?: string }) => [p.email, p.url])).toEqual([
        ['juan@people.test', undefined],
        ['rosa@people.test', undefined],
      ]);
      const { process, participants } = await stored(svc, svc.orgA, code);
      expect(process).toMatchObject({ status: 'FINISH', sign: 0, sealed_at: null });
      expect(participants.map((p) => p.status)).toEqual(['PENDING', 'PENDING']);
      expect((await outbox(svc, 'email')).length).toBe(mailsBefore);
      for (const key of [svc.orgA.privateKey, svc.orgA.publicKey]) {
        const view = (await call(svc.app, 'GET', '/document', { key, query: { code } })).json();
        expect(view).toMatchObject({ code, status: 'FINISH', signFinish: false, sign: false });
      }
      expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } })).statusCode).toBe(400);
      expect(await webhookTypes(svc, svc.orgA)).toContain('document.created');
      const jobs = (await outbox(svc, 'job')).filter((row) => row.organization_id === svc.orgA.id);
      expect(jobs.map((row) => row.body)).toContainEqual({ name: 'print-process', data: { processId: process.id } });
    });

    it('without sign, or with sign: true, the process is signed as before (our default is true)', async () => {
      for (const overrides of [{}, { sign: true }]) {
        const res = await save(svc.orgB, overrides);
        const { process } = await stored(svc, svc.orgB, res.json().code);
        expect(process).toMatchObject({ status: 'CREATED', sign: 1 });
        const view = (await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code: res.json().code } })).json();
        expect(view.sign).toBeUndefined();
      }
    });
  });

  describe('the print job renders the PDF and e-mails it attached to each participant the service notifies, once', () => {
    it('one e-mail per participant with the PDF attached; the PRINT line says to whom; a second run sends nothing', async () => {
      const res = await save(svc.orgB, { sign: false, signProfile: [PEOPLE[0], { ...PEOPLE[1], notification: false }] });
      const { process } = await stored(svc, svc.orgB, res.json().code);
      const before = (await outbox(svc, 'email')).length;
      await printProcess(svc.deps, { processId: process.id });
      await printProcess(svc.deps, { processId: process.id });
      const mails = (await outbox(svc, 'email')).slice(before);
      expect(mails.map((m) => [m.organization_id, m.body.to, m.body.template])).toEqual([[svc.orgB.id, 'juan@people.test', 'document-for-printing']]);
      const payload = mails[0]?.body;
      if (!isEmailPayload(payload)) throw new Error('not an e-mail');
      expect(payload.text).toContain('Sign it by hand, please.');
      expect(payload.attachments).toEqual([{ filename: 'Sale.pdf', key: expect.any(String), contentType: 'application/pdf' }]);
      const pdf = await readBlobBytes(svc.deps.blobs, payload.attachments?.[0]?.key ?? '');
      expect(pdf?.subarray(0, 5).toString()).toBe('%PDF-');

      const roadmap = (await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgB.privateKey, query: { code: res.json().code } })).json();
      const printed = roadmap.activityLog.filter((line: { action: string }) => line.action === 'PRINT');
      expect(printed).toEqual([expect.objectContaining({ action: 'PRINT', platform: 'EMAIL' })]);

      // The e-mail handler reads the attachment's bytes from the store as it sends.
      const sent: MailFile[][] = [];
      const handler = emailHandler(
        {
          send: async (_mail, files = []) => {
            sent.push(files);
            return { id: 'x' };
          },
        },
        svc.deps.blobs,
      );
      expect(await handler.deliver(outboxMessage('email', payload))).toMatchObject({ ok: true });
      expect(sent[0]?.map((file) => [file.filename, file.contentType, file.content.equals(pdf ?? Buffer.alloc(0))])).toEqual([
        ['Sale.pdf', 'application/pdf', true],
      ]);
      const gone = { ...payload, attachments: [{ filename: 'Gone.pdf', key: 'processes/none/print.pdf', contentType: 'application/pdf' as const }] };
      expect(await handler.deliver(outboxMessage('email', gone))).toMatchObject({ ok: false, retryable: false });
    });
  });

  describe('document.printed tells the integrator once the document was e-mailed for printing, and to whom', () => {
    it('one webhook per process, with the attached files and the participants e-mailed; none for the other organization', async () => {
      const res = await save(svc.orgA, { sign: false, signProfile: [{ ...PEOPLE[0], notification: false }, PEOPLE[1]] });
      const { code } = res.json();
      const { process } = await stored(svc, svc.orgA, code);
      const printedOf = async (org: TestOrganization) =>
        (await outbox(svc, 'webhook'))
          .filter((row) => row.organization_id === org.id && row.event_type === 'document.printed')
          .map((row) => row.body.event as Record<string, unknown>);
      const printedOfB = (await printedOf(svc.orgB)).length;
      expect(await printedOf(svc.orgA)).toEqual([]);
      await printProcess(svc.deps, { processId: process.id });
      await printProcess(svc.deps, { processId: process.id });
      expect(await printedOf(svc.orgA)).toEqual([
        expect.objectContaining({
          type: 'document.printed',
          data: expect.objectContaining({ code, name: 'Sale', status: 'PRINTED', documents: ['Sale.pdf'], recipients: ['rosa@people.test'] }),
        }),
      ]);
      expect(await printedOf(svc.orgB)).toHaveLength(printedOfB);
    });
  });

  describe('refused with 400: what only a signing flow does', () => {
    it('an overwrite (code), files asked, readers, CC copies', async () => {
      const refusals: [Record<string, unknown>, string][] = [
        [{ code: 'TR99AQMY31' }, '"code": a process in edit mode is sent again to be signed, not with "sign": false'],
        [
          { signProfile: [{ ...PEOPLE[0], files: [{ name: 'ID' }] }] },
          '"signProfile[0].files" are given on the signing page, which "sign": false does not open',
        ],
        [{ readers: [{ name: 'Eva', email: 'eva@people.test' }] }, '"readers" follow a signing flow, which "sign": false does not start'],
        [{ cc: ['archive@people.test'] }, '"cc" follow a signing flow, which "sign": false does not start'],
      ];
      for (const [overrides, message] of refusals) {
        const res = await save(svc.orgA, { sign: false, ...overrides });
        expect(res.statusCode, message).toBe(400);
        expect(res.json().message).toBe(message);
      }
    });
  });
});
