import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remindDueParticipants } from '../src/documents/lifecycle/process-sweeps.js';
import { requestOtp, verifyOtp } from '../src/documents/participant/signer-flow.js';
import { listMailbox, mailboxDir } from '../src/messages/local-mailbox.js';
import { call, dialects, PUBLIC_URL, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { createProcess, endProcess, PDF_BASE64, pdfProcess, readAndSign, stored } from './support/signing.js';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe.each(dialects)('POST /document/reminder and /document/many/reminder (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  const remind = (code: string, key = svc.orgA.privateKey) => call(svc.app, 'POST', '/document/reminder', { key, body: { code } });
  const remindInPackage = (code: string, key = svc.orgA.privateKey) => call(svc.app, 'POST', '/document/many/reminder', { key, body: { package: code } });

  /** Everything the local mailbox received of a channel, oldest first. */
  const mailbox = async (channel: 'email' | 'whatsapp') => (await listMailbox(mailboxDir(svc.config.dataDir), { channel, limit: 10_000 })).reverse();

  /** Delivers what the outbox holds, and answers what reached the mailbox meanwhile. */
  async function delivered(
    work: () => Promise<unknown>,
  ): Promise<{ email: Awaited<ReturnType<typeof mailbox>>; whatsapp: Awaited<ReturnType<typeof mailbox>> }> {
    // What earlier tests left queued (their final files' e-mails) goes out first.
    while ((await svc.deps.worker.deliverDue()) > 0);
    const before = { email: (await mailbox('email')).length, whatsapp: (await mailbox('whatsapp')).length };
    await work();
    while ((await svc.deps.worker.deliverDue()) > 0);
    return { email: (await mailbox('email')).slice(before.email), whatsapp: (await mailbox('whatsapp')).slice(before.whatsapp) };
  }

  /** A process of `org` and the code that names each of its participants (the process code and their id). */
  async function processOf(org: TestOrganization, body: Record<string, unknown> = pdfProcess(org)) {
    const code = await createProcess(svc, org, '/document/upload', body);
    const { participants } = await stored(svc, org, code);
    return { code, participants, codeOf: (i: number) => `${code}${participants[i]?.participant_id}` };
  }

  describe('the participant whose turn it is receives their invitation again, as a reminder, through the channels they were invited by', () => {
    it('e-mail: {message: "OK"}; the reminder with their own link reaches the mailbox; the roadmap records REMINDER_SIGN on EMAIL', async () => {
      const { code, participants, codeOf } = await processOf(svc.orgA);
      svc.clock.advance(HOUR);
      let res = await remind(codeOf(0));
      const got = await delivered(async () => {
        res = await remind(codeOf(1));
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'OK' });
      expect(got.whatsapp).toEqual([]);
      expect(got.email.map((m) => [m.to, m.summary])).toEqual([['signer1@people.test', 'Recordatorio: «Lease» espera tu firma']]);
      expect(String(got.email[0]?.message.text)).toContain(`${PUBLIC_URL}/s/${participants[1]?.link_token}`);
      const roadmap = (await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgA.privateKey, query: { code } })).json();
      expect(roadmap.activityLog.slice(-2)).toMatchObject([
        { action: 'REMINDER_SIGN', participant: participants[0]?.participant_id, platform: 'EMAIL' },
        { action: 'REMINDER_SIGN', participant: participants[1]?.participant_id, platform: 'EMAIL' },
      ]);
    });

    it('WhatsApp: the reminder reaches their chat; options.both: their chat and their e-mail', async () => {
      const { codeOf } = await processOf(
        svc.orgA,
        pdfProcess(svc.orgA, {
          signProfile: [
            { name: 'Ana', email: 'ana@people.test', phone: '+573001234567', options: { whatsapp: true } },
            { name: 'Luis', email: 'luis@people.test', phone: '+573001234568', options: { whatsapp: true, both: true } },
          ],
        }),
      );
      svc.clock.advance(HOUR);
      const got = await delivered(async () => {
        expect((await remind(codeOf(0))).json()).toEqual({ message: 'OK' });
        expect((await remind(codeOf(1))).json()).toEqual({ message: 'OK' });
      });
      expect(got.whatsapp.map((m) => m.to).sort()).toEqual(['+573001234567', '+573001234568']);
      expect(got.whatsapp.map((m) => m.message)).toMatchObject([{ chat: { purpose: 'reminder' } }, { chat: { purpose: 'reminder' } }]);
      expect(got.email.map((m) => m.to)).toEqual(['luis@people.test']);
    });

    it('the package form: {package: <package code><participant id>} answers {message: "REMINDER_SENT"}', async () => {
      const res = await call(svc.app, 'POST', '/document/many', {
        key: svc.orgA.privateKey,
        body: {
          email: svc.orgA.email,
          name: 'Pack',
          signProfile: [{ name: 'Ana', email: 'ana@people.test' }],
          documents: [
            { name: 'One', file: PDF_BASE64 },
            { name: 'Two', file: PDF_BASE64 },
          ],
        },
      });
      const pack: string = res.json().package;
      const [ana] = (await stored(svc, svc.orgA, pack)).participants;
      svc.clock.advance(HOUR);
      let answer = await remindInPackage(pack);
      const got = await delivered(async () => {
        answer = await remindInPackage(`${pack}${ana?.participant_id}`);
      });
      expect(answer.json()).toEqual({ message: 'REMINDER_SENT' });
      expect(got.email.map((m) => m.to)).toEqual(['ana@people.test']);
    });
  });

  describe('a person hears from the service at most once an hour: a reminder within an hour of their invitation or last reminder is 429 REMINDER_TOO_SOON', () => {
    it('counted from the invitation, then from the last reminder, per participant, with Retry-After', async () => {
      const { codeOf } = await processOf(svc.orgA);
      const got = await delivered(async () => {
        const early = await remind(codeOf(0));
        expect(early.statusCode).toBe(429);
        expect(early.json()).toEqual({ message: 'REMINDER_TOO_SOON: try again in 3600 s' });
        expect(early.headers['retry-after']).toBe('3600');
        svc.clock.advance(59 * MINUTE);
        expect((await remind(codeOf(0))).headers['retry-after']).toBe('60');
        svc.clock.advance(MINUTE);
        expect((await remind(codeOf(0))).json()).toEqual({ message: 'OK' });
        expect((await remind(codeOf(0))).json()).toEqual({ message: 'REMINDER_TOO_SOON: try again in 3600 s' });
        // Another participant of the same process has their own hour.
        expect((await remind(codeOf(1))).json()).toEqual({ message: 'OK' });
      });
      expect(got.email.map((m) => m.to).sort()).toEqual(['signer0@people.test', 'signer1@people.test']);
    });

    it('an automatic reminder (`remember`) counts too', async () => {
      const { codeOf } = await processOf(svc.orgA, pdfProcess(svc.orgA, { remember: 3 }));
      svc.clock.advance(3 * HOUR);
      await remindDueParticipants(svc.deps);
      svc.clock.advance(30 * MINUTE);
      expect((await remind(codeOf(0))).json()).toEqual({ message: 'REMINDER_TOO_SOON: try again in 1800 s' });
    });

    it('two reminders at once send one', async () => {
      const { codeOf } = await processOf(svc.orgA);
      svc.clock.advance(HOUR);
      const got = await delivered(async () => {
        const answers = await Promise.all([remind(codeOf(0)), remind(codeOf(0))]);
        expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 429]);
      });
      expect(got.email.map((m) => m.to)).toEqual(['signer0@people.test']);
    });
  });

  describe('refused, with nothing sent, when there is nobody to remind', () => {
    it("400 MISSING_SIGNER_ID for the bare process code; DOCUMENT_NOT_FOUND for an unknown code or another organization's; SIGNER_NOT_FOUND for an unknown participant", async () => {
      const mine = await processOf(svc.orgA);
      const theirs = await processOf(svc.orgB);
      svc.clock.advance(HOUR);
      const got = await delivered(async () => {
        expect((await remind(mine.code)).json()).toEqual({ message: 'MISSING_SIGNER_ID' });
        expect((await remind(`ZZZZZZZZZZ${mine.participants[0]?.participant_id}`)).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
        const foreign = await remind(theirs.codeOf(0));
        expect([foreign.statusCode, foreign.json()]).toEqual([400, { message: 'DOCUMENT_NOT_FOUND' }]);
        expect((await remindInPackage(theirs.codeOf(0))).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
        expect((await remind(`${mine.code}AB`)).json()).toEqual({ message: 'SIGNER_NOT_FOUND' });
        expect((await remind(mine.codeOf(0), svc.orgA.publicKey)).statusCode).toBe(401);
        expect((await remind('abc')).json()).toEqual({ message: '"code" length must be at least 10 characters long' });
      });
      expect(got).toEqual({ email: [], whatsapp: [] });
      // The other organization's participant can still be reminded by their own organization.
      expect((await remind(theirs.codeOf(0), svc.orgB.privateKey)).json()).toEqual({ message: 'OK' });
    });

    it('a finished, cancelled, rejected or expired process: DOCUMENT_NOT_IN_SIGNATURE; one past its expiry not yet swept: DOCUMENT_EXPIRED', async () => {
      for (const to of ['FINISH', 'CANCELLED', 'REJECTED', 'EXPIRED'] as const) {
        const { code, codeOf } = await processOf(svc.orgA, pdfProcess(svc.orgA, { expiredDate: new Date(svc.clock.now().getTime() + 4 * DAY) }));
        await endProcess(svc, svc.orgA, code, to);
        svc.clock.advance(HOUR);
        expect((await remind(codeOf(1))).json()).toEqual({ message: `DOCUMENT_NOT_IN_SIGNATURE: ${to}` });
      }
      const { process, participants } = await stored(
        svc,
        svc.orgA,
        await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { expiredDate: new Date(svc.clock.now().getTime() + 4 * DAY) })),
      );
      svc.clock.advance(4 * DAY);
      expect((await remind(`${process.code}${participants[0]?.participant_id}`)).json()).toEqual({ message: 'DOCUMENT_EXPIRED' });
    });

    it('a participant who signed: PARTICIPANT_ALREADY_DONE; blocked: PARTICIPANT_BLOCKED; whose turn has not come: NOT_YOUR_TURN', async () => {
      const { participants, codeOf } = await processOf(
        svc.orgA,
        pdfProcess(svc.orgA, {
          signProfile: [
            { name: 'Ana', email: 'ana@people.test', order: 0 },
            { name: 'Eva', email: 'eva@people.test', order: 0, otpCode: true, options: { otpCode: 'email' } },
            { name: 'Luis', email: 'luis@people.test', order: 1 },
          ],
        }),
      );
      const [ana, eva] = participants;
      if (!ana || !eva) throw new Error('participants not stored');
      await readAndSign(svc.deps, { token: ana.link_token });
      await requestOtp(svc.deps, { token: eva.link_token });
      for (let i = 0; i < 3; i++) await verifyOtp(svc.deps, { token: eva.link_token, code: 'wrong!' }).catch(() => undefined);
      svc.clock.advance(HOUR);
      const got = await delivered(async () => {
        expect((await remind(codeOf(0))).json()).toEqual({ message: 'PARTICIPANT_ALREADY_DONE' });
        expect((await remind(codeOf(1))).json()).toEqual({ message: 'PARTICIPANT_BLOCKED' });
        expect((await remind(codeOf(2))).json()).toEqual({ message: 'NOT_YOUR_TURN' });
      });
      expect(got).toEqual({ email: [], whatsapp: [] });
    });

    it('a participant the integrator notifies itself (notification false): PARTICIPANT_NOT_NOTIFIED; a PDF still awaited: DOCUMENT_AWAITING_UPLOAD', async () => {
      const muted = await processOf(svc.orgA, pdfProcess(svc.orgA, { notification: false }));
      const awaited = await processOf(svc.orgA, pdfProcess(svc.orgA, { file: undefined, compress: true }));
      svc.clock.advance(HOUR);
      const got = await delivered(async () => {
        expect((await remind(muted.codeOf(0))).json()).toEqual({ message: 'PARTICIPANT_NOT_NOTIFIED' });
        expect((await remind(awaited.codeOf(0))).json()).toEqual({ message: 'DOCUMENT_AWAITING_UPLOAD' });
      });
      expect(got).toEqual({ email: [], whatsapp: [] });
    });
  });
});
