import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withTransaction } from '../src/db/transaction.js';
import { requestOtp } from '../src/documents/participant/signer-otp.js';
import { queueChatMessage } from '../src/whatsapp/queue-chat.js';
import { type GraphApiStandIn, startGraphApi } from './support/graph-api.js';
import { newWamid, postWebhook, statusUpdate, textMessage, webhookBody } from './support/meta-webhooks.js';
import { call, dialects, type TestOrganization, type TestService } from './support/service.js';
import { pdfProcess, stored } from './support/signing.js';
import { WebhookReceiver } from './support/webhook-receiver.js';
import { APP_SECRET, recordingConversation, runOutbox, startWhatsAppService } from './support/whatsapp-service.js';

let numbers = 0;
const newNumber = () => `57310${String(1_000_000 + ++numbers)}`;

describe.each(dialects)('WhatsApp records and delivery truth (%s)', (dialect) => {
  let graph: GraphApiStandIn;
  let svc: TestService;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    graph = await startGraphApi();
    svc = await startWhatsAppService(dialect, graph);
    receiver = new WebhookReceiver();
    const url = await receiver.start();
    for (const org of [svc.orgA, svc.orgB]) {
      const created = await call(svc.app, 'POST', '/webhooks', { key: org.privateKey, body: { name: 'default', url } });
      expect(created.statusCode, created.body).toBe(200);
      // Both organizations' webhooks share the receiver; each event says whose process it is by its code.
      receiver.secret = created.json().secret;
    }
  });
  afterAll(async () => {
    await svc.close();
    await graph.close();
    await receiver.close();
  });
  beforeEach(() => {
    svc.deps.handleChatMessage = recordingConversation().handle;
  });

  const post = (body: unknown) => postWebhook(svc.app, body, { secret: APP_SECRET });
  const records = (org: TestOrganization, userId: string, key = org.privateKey) => call(svc.app, 'GET', '/whatsapp/records', { key, query: { userId } });
  const roadmap = async (org: TestOrganization, code: string) =>
    (await call(svc.app, 'GET', '/document/roadmap', { key: org.privateKey, query: { code } })).json().activityLog as {
      action: string;
      platform?: string;
      message?: string;
    }[];

  /** A process of `org` whose one signer is invited through WhatsApp; answers its code and the signer's id, token and number. */
  async function whatsAppSigner(org: TestOrganization, signer: Record<string, unknown> = {}) {
    const phone = newNumber();
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: org.privateKey,
      body: pdfProcess(org, {
        signProfile: [{ name: 'Ana Gómez', email: `ana${phone}@people.test`, phone: `+${phone}`, options: { whatsapp: true }, ...signer }],
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const participant = (await stored(svc, org, res.json().code)).participants[0]!;
    return { code: res.json().code as string, userId: participant.participant_id, rowId: participant.id, token: participant.link_token, phone };
  }

  describe("statuses Meta reports move a message's record forward, never back, even one arriving before the send is recorded", () => {
    it('delivered before the send is recorded is kept and applied; then read; a late sent changes nothing', async () => {
      const { userId, phone } = await whatsAppSigner(svc.orgA);
      const wamid = newWamid();
      graph.nextWamids.push(wamid);
      // Meta's status overtakes its answer to the send: it arrives while the invitation is still queued here.
      expect((await post(webhookBody({ statuses: [statusUpdate({ wamid, status: 'delivered', recipient: phone })] }))).json()).toEqual({
        messages: 0,
        statuses: 1,
      });
      await runOutbox(svc);
      const afterSend = (await records(svc.orgA, userId)).json();
      expect(afterSend.messages).toEqual([
        { direction: 'out', kind: 'buttons', purpose: 'invitation', createdAt: expect.any(String), status: 'delivered', statusAt: expect.any(String) },
      ]);
      await post(webhookBody({ statuses: [statusUpdate({ wamid, status: 'read', recipient: phone })] }));
      await runOutbox(svc);
      await post(webhookBody({ statuses: [statusUpdate({ wamid, status: 'sent', recipient: phone })] }));
      await runOutbox(svc);
      expect((await records(svc.orgA, userId)).json().messages.map((m: { status: string }) => m.status)).toEqual(['read']);
    });
  });

  describe('a failed invitation is written in the roadmap as NOTIFICATION_FAILED_SIGN and sent by webhook; other organizations see none of it', () => {
    it("Meta's failed status: NOTIFICATION_FAILED_SIGN with WhatsApp's reason, and the document.notification_failed webhook", async () => {
      const { code, userId, phone } = await whatsAppSigner(svc.orgA);
      const wamid = newWamid();
      graph.nextWamids.push(wamid);
      await runOutbox(svc);
      await post(webhookBody({ statuses: [statusUpdate({ wamid, status: 'failed', recipient: phone, errorTitle: 'Re-engagement message' })] }));
      await runOutbox(svc);

      const failed = (await roadmap(svc.orgA, code)).filter((event) => event.action === 'NOTIFICATION_FAILED_SIGN');
      expect(failed).toEqual([expect.objectContaining({ platform: 'WHATSAPP', message: 'Re-engagement message' })]);
      const hook = receiver.received.find((r) => r.body.type === 'document.notification_failed' && r.body.data.code === code);
      expect(hook?.body.data).toMatchObject({ code, status: 'NOTIFICATION_FAILED', message: 'Re-engagement message', signer: { id: userId } });
      expect((await records(svc.orgA, userId)).json().messages).toEqual([expect.objectContaining({ status: 'failed', error: 'Re-engagement message' })]);
      // Told once, however often Meta reports it.
      await post(webhookBody({ statuses: [statusUpdate({ wamid, status: 'failed', recipient: phone, errorTitle: 'Re-engagement message' })] }));
      await runOutbox(svc);
      expect((await roadmap(svc.orgA, code)).filter((event) => event.action === 'NOTIFICATION_FAILED_SIGN')).toHaveLength(1);

      const fromB = await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgB.privateKey, query: { code } });
      expect(fromB.json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
    });

    it('a send Meta refuses for good (a 4xx) counts as failed too', async () => {
      const phone = newNumber();
      graph.refuse(phone, { status: 400, code: 131026, message: '(#131026) Message undeliverable' });
      const { code, userId } = await whatsAppSigner(svc.orgA, { phone: `+${phone}`, email: `refused${phone}@people.test` });
      await runOutbox(svc);
      const failed = (await roadmap(svc.orgA, code)).filter((event) => event.action === 'NOTIFICATION_FAILED_SIGN');
      expect(failed).toEqual([expect.objectContaining({ platform: 'WHATSAPP', message: expect.stringContaining('Message undeliverable') })]);
      expect((await records(svc.orgA, userId)).json().messages).toEqual([expect.objectContaining({ status: 'failed', purpose: 'invitation' })]);
    });

    it('a failed message that is no invitation nor reminder writes nothing in the roadmap', async () => {
      const { code, userId, rowId, phone } = await whatsAppSigner(svc.orgA);
      await runOutbox(svc);
      const processId = (await stored(svc, svc.orgA, code)).process.id;
      const wamid = newWamid();
      graph.nextWamids.push(wamid);
      await withTransaction(svc.deps, (trx) =>
        queueChatMessage(trx, svc.clock, {
          organizationId: svc.orgA.id,
          to: phone,
          purpose: 'step',
          content: { kind: 'text', text: 'Envía una foto de tu cédula' },
          processId,
          participantId: rowId,
        }),
      );
      await runOutbox(svc);
      await post(webhookBody({ statuses: [statusUpdate({ wamid, status: 'failed', recipient: phone })] }));
      await runOutbox(svc);
      expect((await roadmap(svc.orgA, code)).map((event) => event.action)).not.toContain('NOTIFICATION_FAILED_SIGN');
      expect((await records(svc.orgA, userId)).json().messages.map((m: { purpose: string; status: string }) => [m.purpose, m.status])).toEqual([
        ['invitation', 'sent'],
        ['step', 'failed'],
      ]);
    });
  });

  describe('a message received is listed with the flow it continues: the one of the message it replies to, else the one last written to the number', () => {
    it("one number invited by two organizations: a reply to A's invitation is A's, a message without a reply is B's (written to last), and neither sees the other's", async () => {
      const shared = newNumber();
      const a = await whatsAppSigner(svc.orgA, { phone: `+${shared}` });
      await runOutbox(svc);
      const b = await whatsAppSigner(svc.orgB, { phone: `+${shared}` });
      await runOutbox(svc);
      const invitationOf = async (rowId: string) =>
        (
          await svc.deps.db
            .selectFrom('whatsapp_messages')
            .select('wamid')
            .where('participant_id', '=', rowId)
            .where('purpose', '=', 'invitation')
            .executeTakeFirstOrThrow()
        ).wamid;
      const reply = newWamid();
      await post(
        webhookBody({
          messages: [
            textMessage({ from: shared, id: reply, text: 'Sí, la de A', contextId: (await invitationOf(a.rowId)) ?? '' }),
            textMessage({ from: shared, text: 'Hola' }),
          ],
        }),
      );
      await runOutbox(svc);

      const received = async (org: TestOrganization, userId: string) =>
        ((await records(org, userId)).json().messages as { direction: string; kind: string }[]).filter((message) => message.direction === 'in');
      expect(await received(svc.orgA, a.userId)).toHaveLength(1);
      expect(await received(svc.orgB, b.userId)).toHaveLength(1);
      const rows = await svc.deps.db
        .selectFrom('whatsapp_messages')
        .select(['organization_id', 'participant_id', 'wamid'])
        .where('direction', '=', 'in')
        .where('phone', '=', shared)
        .execute();
      expect(rows.find((row) => row.wamid === reply)).toMatchObject({ organization_id: svc.orgA.id, participant_id: a.rowId });
      expect(rows.find((row) => row.wamid !== reply)).toMatchObject({ organization_id: svc.orgB.id, participant_id: b.rowId });
    });
  });

  describe("GET /whatsapp/records: the private key reads a participant's conversation, oldest first, without its words, codes or media", () => {
    it('the invitation, the code and the reply are listed; no digit of the code, no text, no media id', async () => {
      const { userId, token, phone } = await whatsAppSigner(svc.orgA, { otpCode: true, options: { whatsapp: true, otpCode: 'phone' } });
      await requestOtp(svc.deps, { token });
      await runOutbox(svc);
      const digits = graph.sent
        .filter((sent) => sent.to === phone)
        .map((sent) => /Tu código es (\d{6})/.exec(JSON.stringify(sent.body))?.[1])
        .find((found) => found !== undefined);
      expect(digits).toMatch(/^\d{6}$/);
      await post(webhookBody({ messages: [textMessage({ from: phone, text: `Mi código es ${digits}` })] }));
      await runOutbox(svc);

      const res = await records(svc.orgA, userId);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        userId,
        messages: [
          expect.objectContaining({ direction: 'out', kind: 'buttons', purpose: 'invitation', status: 'sent' }),
          expect.objectContaining({ direction: 'out', kind: 'text', purpose: 'code', status: 'sent' }),
          expect.objectContaining({ direction: 'in', kind: 'text', status: 'handled' }),
        ],
      });
      expect(res.body).not.toContain(digits);
      expect(res.body).not.toContain('código');
      expect(res.body).not.toContain('wamid');
      // Nor is the code kept in the store once the message is handled.
      const rows = await svc.deps.db.selectFrom('whatsapp_messages').selectAll().where('phone', '=', phone).execute();
      expect(JSON.stringify(rows)).not.toContain(digits);
    });

    it("the public key is refused; another organization's participant is answered as an unknown one", async () => {
      const { userId } = await whatsAppSigner(svc.orgA);
      await runOutbox(svc);
      const publicKey = await records(svc.orgA, userId, svc.orgA.publicKey);
      expect([publicKey.statusCode, publicKey.json().message]).toEqual([403, expect.stringMatching(/^PRIVATE_KEY_REQUIRED/)]);
      const fromB = await records(svc.orgB, userId);
      const unknown = await records(svc.orgB, 'Q7M2XK9PA3LD8RWE');
      expect([fromB.statusCode, fromB.json()]).toEqual([404, { message: 'PARTICIPANT_NOT_FOUND' }]);
      expect([unknown.statusCode, unknown.body]).toEqual([fromB.statusCode, fromB.body]);
      // B's own participant lists only B's messages.
      const ofB = await whatsAppSigner(svc.orgB);
      await runOutbox(svc);
      expect((await records(svc.orgB, ofB.userId)).json().messages).toHaveLength(1);
    });
  });
});
