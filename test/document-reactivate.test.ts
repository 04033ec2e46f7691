import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDueProcesses } from '../src/documents/lifecycle/process-sweeps.js';
import { listMailbox, mailboxDir } from '../src/messages/local-mailbox.js';
import { call, dialects, PUBLIC_URL, startServiceWithBothWebhookFormats, type TestOrganization, type TestService } from './support/service.js';
import { createProcess, endProcess, outbox, PDF_BASE64, pdfProcess, readAndSign, stored } from './support/signing.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** Each organization's two webhooks: `default` is typed, `flat` takes the real service's bodies. */
const BOTH_FORMATS = ['default', 'flat'];

describe.each(dialects)('PUT /document/reactivate puts a rejected or expired process back in signature (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startServiceWithBothWebhookFormats(dialect);
  });
  afterAll(async () => svc.close());

  const reactivate = (body: Record<string, unknown>, key = svc.orgA.privateKey) => call(svc.app, 'PUT', '/document/reactivate', { key, body });
  const view = async (code: string, org = svc.orgA) => (await call(svc.app, 'GET', '/document', { key: org.privateKey, query: { code } })).json();
  const roadmap = async (code: string) => (await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgA.privateKey, query: { code } })).json();

  /** What the local mailbox received of a channel while `work` ran, every queued message delivered. */
  async function delivered(channel: 'email' | 'whatsapp', work: () => Promise<unknown>) {
    const mailbox = async () => (await listMailbox(mailboxDir(svc.config.dataDir), { channel, limit: 10_000 })).reverse();
    while ((await svc.deps.worker.deliverDue()) > 0);
    const before = (await mailbox()).length;
    await work();
    while ((await svc.deps.worker.deliverDue()) > 0);
    return (await mailbox()).slice(before);
  }

  /** A process of `org` whose first participant rejected it. */
  async function rejected(org: TestOrganization, body: Record<string, unknown> = pdfProcess(org)): Promise<string> {
    const code = await createProcess(svc, org, '/document/upload', body);
    await endProcess(svc, org, code, 'REJECTED');
    return code;
  }

  /** The webhooks queued for `org` after `count` earlier ones: each typed event and each flat body. */
  async function webhooksSince(org: TestOrganization, count: number) {
    const rows = (await outbox(svc, 'webhook')).filter((row) => row.organization_id === org.id).slice(count);
    return rows.map((row) => row.body.flat ?? row.body.event);
  }
  const webhookCount = async (org: TestOrganization) => (await outbox(svc, 'webhook')).filter((row) => row.organization_id === org.id).length;

  describe('a rejected process: the participant who rejected gets a fresh chance, and everyone who has not signed is invited again', () => {
    it('answers {notifications, users}; the invitations reach the mailbox; the process is in signature and can finish', async () => {
      const code = await rejected(svc.orgA);
      const mails = await delivered('email', async () => {
        const res = await reactivate({ code, email: svc.orgA.email });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ notifications: 2, users: ['Signer 0', 'Signer 1'] });
      });
      const { participants } = await stored(svc, svc.orgA, code);
      expect(mails.map((m) => [m.to, m.summary]).sort()).toEqual([
        ['signer0@people.test', 'Lease'],
        ['signer1@people.test', 'Lease'],
      ]);
      for (const participant of participants) {
        expect(String(mails.find((m) => m.to === participant.email)?.message.text)).toContain(`${PUBLIC_URL}/s/${participant.link_token}`);
      }
      expect(participants.map((p) => [p.status, p.rejected_at, p.reject_reason])).toEqual([
        ['NOTIFICATION', null, null],
        ['NOTIFICATION', null, null],
      ]);
      const read = await view(code);
      expect(read).toMatchObject({ status: 'CREATED', signFinish: false });
      expect(read).not.toHaveProperty('reason');
      await endProcess(svc, svc.orgA, code, 'FINISH');
    });

    it('the roadmap keeps the rejection and records REACTIVATION_SIGN, by whom, then the invitations', async () => {
      const code = await rejected(svc.orgA);
      await reactivate({ code, email: svc.orgA.email });
      const { participants } = await stored(svc, svc.orgA, code);
      const log = (await roadmap(code)).activityLog;
      const from = log.findIndex((e: { action: string }) => e.action === 'PARTICIPANT_REJECT');
      expect(log.slice(from)).toMatchObject([
        { action: 'PARTICIPANT_REJECT', participant: participants[0]?.participant_id, message: 'Not agreed' },
        { action: 'REACTIVATION_SIGN', participant: 'ARCHIVE', platform: 'API', by: svc.orgA.email },
        { action: 'NOTIFICATION_SIGN', participant: participants[0]?.participant_id, platform: 'EMAIL' },
        { action: 'NOTIFICATION_SIGN', participant: participants[1]?.participant_id, platform: 'EMAIL' },
      ]);
    });

    it('with turns: the turn that rejected is invited again; later turns wait for it', async () => {
      const code = await rejected(
        svc.orgA,
        pdfProcess(svc.orgA, {
          signProfile: [
            { name: 'Ana', email: 'ana@people.test', order: 0 },
            { name: 'Luis', email: 'luis@people.test', order: 1 },
          ],
        }),
      );
      expect((await reactivate({ code, email: svc.orgA.email })).json()).toEqual({ notifications: 1, users: ['Ana'] });
      expect((await stored(svc, svc.orgA, code)).participants.map((p) => p.status)).toEqual(['NOTIFICATION', 'PENDING']);
    });

    it('a participant in WhatsApp starts again from the invitation in their chat', async () => {
      const code = await rejected(
        svc.orgA,
        pdfProcess(svc.orgA, { signProfile: [{ name: 'Ana', email: 'ana@people.test', phone: '+573001112233', options: { whatsapp: true } }] }),
      );
      const [ana] = (await stored(svc, svc.orgA, code)).participants;
      // She was typing her reason in the chat when she rejected.
      await svc.deps.db
        .updateTable('chat_flows')
        .set({ step: 'rejecting' })
        .where('participant_row_id', '=', ana?.id ?? '')
        .execute();
      const chats = await delivered('whatsapp', async () => {
        expect((await reactivate({ code, email: svc.orgA.email })).json()).toEqual({ notifications: 1, users: ['Ana'] });
      });
      expect(chats.map((m) => [m.to, (m.message.chat as { purpose: string }).purpose])).toEqual([['+573001112233', 'invitation']]);
      const chat = await svc.deps.db
        .selectFrom('chat_flows')
        .select('step')
        .where('participant_row_id', '=', ana?.id ?? '')
        .executeTakeFirst();
      expect(chat?.step).toBe('invited');
    });
  });

  describe('an expired process: a passed expiry is renewed by the lifetime the process was created with', () => {
    it('only those who have not signed are invited; the sweep does not expire it again before its new date', async () => {
      const created = svc.clock.now().getTime();
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { expiredDate: new Date(created + 4 * DAY) }));
      const [first] = (await stored(svc, svc.orgA, code)).participants;
      await readAndSign(svc.deps, { token: first?.link_token ?? '' });
      await endProcess(svc, svc.orgA, code, 'EXPIRED');
      svc.clock.advance(DAY);
      const now = svc.clock.now().getTime();
      const mails = await delivered('email', async () => {
        expect((await reactivate({ code, email: svc.orgA.email })).json()).toEqual({ notifications: 1, users: ['Signer 1'] });
      });
      expect(mails.map((m) => m.to)).toEqual(['signer1@people.test']);
      const renewed = new Date(now + 4 * DAY).toISOString();
      expect(await view(code)).toMatchObject({ status: 'CREATED', expiredDate: renewed });
      expect((await roadmap(code)).activityLog.filter((e: { action: string }) => e.action === 'EXPIRED')).toHaveLength(1);
      svc.clock.advance(4 * DAY - 1000);
      await expireDueProcesses(svc.deps);
      expect((await view(code)).status).toBe('CREATED');
      svc.clock.advance(1001);
      await expireDueProcesses(svc.deps);
      expect((await view(code)).status).toBe('EXPIRED');
    });

    it('a rejected process whose expiry is still ahead keeps it', async () => {
      const expiredDate = new Date(svc.clock.now().getTime() + 10 * DAY).toISOString();
      const code = await rejected(svc.orgA, pdfProcess(svc.orgA, { expiredDate }));
      await reactivate({ code, email: svc.orgA.email });
      expect((await view(code)).expiredDate).toBe(expiredDate);
    });
  });

  describe('the webhooks: document.reactivated (typed, with by and from) and REACTIVATED (flat), to the organization only', () => {
    it('a document', async () => {
      const code = await rejected(svc.orgA, pdfProcess(svc.orgA, { targetWebhooks: BOTH_FORMATS }));
      const [a, b] = [await webhookCount(svc.orgA), await webhookCount(svc.orgB)];
      await reactivate({ code, email: svc.orgA.email });
      expect(await webhooksSince(svc.orgA, a)).toEqual([
        {
          type: 'document.reactivated',
          timestamp: svc.clock.now().toISOString(),
          data: { code, name: 'Lease', status: 'REACTIVATED', by: svc.orgA.email, from: 'REJECTED' },
        },
        { code, name: 'Lease', status: 'REACTIVATED' },
      ]);
      expect(await webhooksSince(svc.orgB, b)).toEqual([]);
    });

    it('a package, reactivated by {package}: its documents back at CREATE', async () => {
      const res = await call(svc.app, 'POST', '/document/many', {
        key: svc.orgA.privateKey,
        body: {
          email: svc.orgA.email,
          name: 'Pack',
          targetWebhooks: BOTH_FORMATS,
          signProfile: [{ name: 'Ana', email: 'ana@people.test' }],
          documents: [
            { name: 'One', file: PDF_BASE64 },
            { name: 'Two', file: PDF_BASE64 },
          ],
        },
      });
      const pack: string = res.json().package;
      const [one, two] = res.json().documents.map((d: { code: string }) => d.code);
      await endProcess(svc, svc.orgA, pack, 'REJECTED');
      const before = await webhookCount(svc.orgA);
      expect((await reactivate({ package: pack, email: svc.orgA.email })).json()).toEqual({ notifications: 1, users: ['Ana'] });
      expect(await webhooksSince(svc.orgA, before)).toEqual([
        expect.objectContaining({ type: 'package.reactivated' }),
        {
          package: pack,
          name: 'Pack',
          status: 'REACTIVATED',
          documents: [
            { code: one, name: 'One', status: 'CREATE' },
            { code: two, name: 'Two', status: 'CREATE' },
          ],
        },
      ]);
    });
  });

  describe('refused, with nothing changed and nothing sent', () => {
    it('`email` must be a registered user of the organization: 400 USER_NOTFOUND for a stranger or a user of another organization', async () => {
      const code = await rejected(svc.orgA);
      for (const email of ['stranger@nowhere.test', svc.orgB.email]) {
        expect((await reactivate({ code, email })).json()).toEqual({ message: 'USER_NOTFOUND' });
      }
      expect((await view(code)).status).toBe('REJECTED');
    });

    it("400 PROCESS_NOT_FOUND for an unknown code and for another organization's process", async () => {
      const theirs = await rejected(svc.orgB);
      const mails = await delivered('email', async () => {
        expect((await reactivate({ code: 'ZZZZZZZZZZ', email: svc.orgA.email })).json()).toEqual({ message: 'PROCESS_NOT_FOUND' });
        const res = await reactivate({ code: theirs, email: svc.orgA.email });
        expect([res.statusCode, res.json()]).toEqual([400, { message: 'PROCESS_NOT_FOUND' }]);
        expect((await reactivate({ package: theirs, email: svc.orgA.email })).json()).toEqual({ message: 'PROCESS_NOT_FOUND' });
      });
      expect(mails).toEqual([]);
      expect((await view(theirs, svc.orgB)).status).toBe('REJECTED');
    });

    it('400 PROCESS_NOT_REACTIVABLE for a process in signature, finished or cancelled, and once its identity photos were deleted', async () => {
      const inSignature = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      expect((await reactivate({ code: inSignature, email: svc.orgA.email })).json()).toEqual({ message: 'PROCESS_NOT_REACTIVABLE: it is CREATED' });
      for (const to of ['FINISH', 'CANCELLED'] as const) {
        const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
        await endProcess(svc, svc.orgA, code, to);
        expect((await reactivate({ code, email: svc.orgA.email })).json()).toEqual({ message: `PROCESS_NOT_REACTIVABLE: it is ${to}` });
      }
      const code = await rejected(svc.orgA);
      expect((await call(svc.app, 'DELETE', '/document/photos', { key: svc.orgA.privateKey, query: { code } })).statusCode).toBe(200);
      expect((await reactivate({ code, email: svc.orgA.email })).json()).toEqual({ message: 'PROCESS_NOT_REACTIVABLE: its identity photos were deleted' });
      expect((await view(code)).status).toBe('REJECTED');
    });

    it('a reactivated process is in signature: reactivating it again is refused', async () => {
      const code = await rejected(svc.orgA);
      expect((await reactivate({ code, email: svc.orgA.email })).statusCode).toBe(200);
      expect((await reactivate({ code, email: svc.orgA.email })).json()).toEqual({ message: 'PROCESS_NOT_REACTIVABLE: it is CREATED' });
    });

    it('exactly one of code and package; the private key only', async () => {
      const code = await rejected(svc.orgA);
      expect((await reactivate({ code, package: code, email: svc.orgA.email })).json()).toEqual({
        message: '"value" contains a conflict between exclusive peers [code, package]',
      });
      expect((await reactivate({ email: svc.orgA.email })).json()).toEqual({ message: '"value" must contain at least one of [code, package]' });
      expect((await reactivate({ code })).json()).toEqual({ message: '"email" is required' });
      expect((await reactivate({ code, email: svc.orgA.email }, svc.orgA.publicKey)).statusCode).toBe(401);
      expect((await view(code)).status).toBe('REJECTED');
    });
  });
});
