import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMailbox, mailboxDir } from '../src/messages/local-mailbox.js';
import { templatedEmail } from '../src/messages/message-templates.js';
import { enqueue } from '../src/outbox/enqueue.js';
import { startTestService } from './support/service.js';
import { type LocalSmtp, startLocalSmtp } from './support/smtp.js';

const CODE = '918273';
const otpMail = () => templatedEmail('ana@example.test', 'otp-code', { code: CODE, minutes: 5 }, 'es');

describe('Queued messages are delivered by the outbox worker through the configured senders', () => {
  let smtp: LocalSmtp;

  beforeAll(async () => {
    smtp = await startLocalSmtp();
  });

  afterAll(async () => {
    await smtp.close();
  });

  it('with no provider configured, e-mail and SMS land in the local mailbox, and no attempt records the code', async () => {
    const service = await startTestService('sqlite');
    try {
      await enqueue(service.deps.db, service.clock, [
        { kind: 'email', organizationId: service.orgA.id, payload: otpMail() },
        { kind: 'sms', organizationId: service.orgA.id, payload: { to: '+573001234567', text: `Your code is ${CODE}` } },
      ]);
      expect(await service.deps.worker.deliverDue()).toBe(2);
      expect((await listMailbox(mailboxDir(service.config.dataDir))).map((e) => e.channel).sort()).toEqual(['email', 'sms']);
      const attempts = await service.deps.db.selectFrom('delivery_attempts').selectAll().execute();
      expect(attempts.map((a) => a.ok)).toEqual([1, 1]);
      expect(JSON.stringify(attempts)).not.toContain(CODE);
    } finally {
      await service.close();
    }
  });

  it('with SMTP_URL and MAIL_FROM, e-mail goes to the SMTP server', async () => {
    const service = await startTestService('sqlite', { SMTP_URL: smtp.url, MAIL_FROM: 'no-reply@firma.test' });
    try {
      await enqueue(service.deps.db, service.clock, [{ kind: 'email', organizationId: null, payload: otpMail() }]);
      expect(await service.deps.worker.deliverDue()).toBe(1);
      expect(smtp.received.map((m) => m.to)).toEqual([['ana@example.test']]);
      expect(await service.deps.db.selectFrom('outbox').select(['status', 'attempts']).execute()).toEqual([{ status: 'delivered', attempts: 1 }]);
      expect(await listMailbox(mailboxDir(service.config.dataDir))).toEqual([]);
    } finally {
      await service.close();
    }
  });
});
