import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EARLIEST_RETRY_MS } from '../src/outbox/retry-schedule.js';
import { MAX_HANDLING_ATTEMPTS } from '../src/whatsapp/inbound/drain.js';
import type { InboundChatMessage } from '../src/whatsapp/message/chat-message.js';
import { type GraphApiStandIn, startGraphApi } from './support/graph-api.js';
import {
  buttonReply,
  documentMessage,
  imageMessage,
  metaSignature,
  newWamid,
  postWebhook,
  stickerMessage,
  templateButton,
  textMessage,
  webhookBody,
} from './support/meta-webhooks.js';
import { dialects, startTestService, type TestService } from './support/service.js';
import { APP_SECRET, recordingConversation, runOutbox, startWhatsAppService, VERIFY_TOKEN } from './support/whatsapp-service.js';

let numbers = 0;
/** A number of its own for each test, so that tests never share a conversation. */
const newNumber = () => `57300${String(1_000_000 + ++numbers)}`;

describe.each(dialects)("Meta's WhatsApp webhook (%s)", (dialect) => {
  let graph: GraphApiStandIn;
  let svc: TestService;
  let conversation: ReturnType<typeof recordingConversation>;

  beforeAll(async () => {
    graph = await startGraphApi();
    svc = await startWhatsAppService(dialect, graph);
  });
  afterAll(async () => {
    await svc.close();
    await graph.close();
  });
  beforeEach(() => {
    conversation = recordingConversation();
    svc.deps.handleChatMessage = conversation.handle;
  });

  const post = (body: unknown, signature?: string) => postWebhook(svc.app, body, { secret: APP_SECRET, ...(signature ? { signature } : {}) });
  const stored = (phone: string) =>
    svc.deps.db.selectFrom('whatsapp_messages').selectAll().where('phone', '=', phone).orderBy('created_at').orderBy('id').execute();
  const handshake = (query: Record<string, string>) => svc.app.inject({ method: 'GET', url: '/whatsapp/webhook', query });

  describe('the handshake: hub.mode=subscribe with WHATSAPP_VERIFY_TOKEN answers hub.challenge as text; anything else is 403', () => {
    it('the right token answers the challenge, as plain text', async () => {
      const res = await handshake({ 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1158201444' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toBe('1158201444');
    });

    it('a wrong token, or another mode, is 403 and echoes nothing', async () => {
      for (const query of [
        { 'hub.mode': 'subscribe', 'hub.verify_token': `${VERIFY_TOKEN}x`, 'hub.challenge': '42' },
        { 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN.slice(0, -1), 'hub.challenge': '42' },
        { 'hub.mode': 'unsubscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '42' },
      ]) {
        const res = await handshake(query);
        expect([res.statusCode, res.json()]).toEqual([403, { message: 'WHATSAPP_VERIFY_TOKEN_INVALID' }]);
      }
    });
  });

  describe("a delivery is taken only with Meta's signature of its raw bytes: otherwise 401 and nothing is stored", () => {
    it('no signature, another secret, or the signature of the same JSON written otherwise: 401, nothing stored, nothing handled', async () => {
      const phone = newNumber();
      const raw = JSON.stringify(webhookBody({ messages: [textMessage({ from: phone, text: 'Hola' })] }), null, 2);
      const reserialised = metaSignature(JSON.stringify(JSON.parse(raw)), APP_SECRET);
      for (const signature of [
        '',
        'sha256=',
        metaSignature(raw, 'another-secret-of-someone-else'),
        reserialised,
        metaSignature(raw, APP_SECRET).replace('sha256=', 'sha1='),
      ]) {
        const res = await svc.app.inject({
          method: 'POST',
          url: '/whatsapp/webhook',
          headers: { 'content-type': 'application/json', ...(signature ? { 'x-hub-signature-256': signature } : {}) },
          payload: raw,
        });
        expect([res.statusCode, res.json()], signature).toEqual([401, { message: 'WHATSAPP_SIGNATURE_INVALID' }]);
      }
      await runOutbox(svc);
      expect(await stored(phone)).toEqual([]);
      expect(conversation.handled).toEqual([]);
      // The raw bytes as signed are taken, whitespace and all.
      expect((await post(raw)).statusCode).toBe(200);
      await runOutbox(svc);
      expect(conversation.handled.map((message) => message.from)).toEqual([phone]);
    });

    it('a signed body that is not JSON is 400; signed parts of other shapes are answered 200 and ignored', async () => {
      const notJson = await post('{"object": "whatsapp_business_account", ');
      expect([notJson.statusCode, notJson.json().message]).toEqual([400, 'BODY_NOT_JSON: the body is not valid JSON']);
      const phone = newNumber();
      for (const body of [
        { object: 'page', entry: [] },
        { object: 'whatsapp_business_account', entry: 'none' },
        {
          object: 'whatsapp_business_account',
          entry: [
            {
              changes: [
                {
                  value: {
                    messages: [
                      { from: phone, type: 'text' },
                      { id: newWamid(), type: 'text' },
                    ],
                  },
                },
              ],
            },
          ],
        },
        webhookBody({ statuses: [{ id: newWamid(), status: 'exploded', recipient_id: phone }] }),
        [1, 2, 3],
        '"text"',
      ]) {
        const res = await post(body);
        expect([res.statusCode, res.json()], JSON.stringify(body)).toEqual([200, { messages: 0, statuses: 0 }]);
      }
      await runOutbox(svc);
      expect(await stored(phone)).toEqual([]);
    });
  });

  describe('a message is stored before the answer, and handled once even when Meta delivers it twice', () => {
    it('stored as received at the 200, handled once by the outbox, its words not kept once handled', async () => {
      const phone = newNumber();
      const body = webhookBody({ messages: [textMessage({ from: phone, text: 'Hola, quiero firmar' })], names: { [phone]: 'Ana Gómez' } });
      const first = await post(body);
      expect([first.statusCode, first.json()]).toEqual([200, { messages: 1, statuses: 0 }]);
      const [row] = await stored(phone);
      expect(row).toMatchObject({ direction: 'in', kind: 'text', status: 'received' });
      expect(row?.content).toContain('Hola, quiero firmar');

      expect((await post(body)).json()).toEqual({ messages: 0, statuses: 0 });
      await runOutbox(svc);
      expect((await post(body)).json()).toEqual({ messages: 0, statuses: 0 });
      await runOutbox(svc);

      expect(conversation.handled).toHaveLength(1);
      const sent = body.entry[0]!.changes[0]!.value.messages![0]!;
      expect(conversation.handled[0]).toEqual({
        id: sent.id,
        from: phone,
        profileName: 'Ana Gómez',
        sentAt: new Date(Number(sent.timestamp) * 1000).toISOString(),
        content: { kind: 'text', text: 'Hola, quiero firmar' },
      });
      const after = await stored(phone);
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ status: 'handled', content: null });
    });

    it('every kind Meta sends reaches the conversation normalised: text, reply button, template quick reply, image, document, others unsupported', async () => {
      const phone = newNumber();
      const answered = newWamid();
      const messages = [
        textMessage({ from: phone, text: 'AYUDA' }),
        buttonReply({ from: phone, buttonId: 'sign:accept', title: 'Acepto y firmo', contextId: answered }),
        templateButton({ from: phone, payload: 'start-signing', text: 'Firmar', contextId: answered }),
        imageMessage({ from: phone, mediaId: '1479537139650973', caption: 'mi cédula' }),
        documentMessage({ from: phone, mediaId: '1479537139650974', mimeType: 'image/png', filename: 'cedula.png' }),
        stickerMessage({ from: phone }),
      ];
      expect((await post(webhookBody({ messages }))).json()).toEqual({ messages: 6, statuses: 0 });
      await runOutbox(svc);
      expect(conversation.handled.map((message) => [message.contextId, message.content])).toEqual([
        [undefined, { kind: 'text', text: 'AYUDA' }],
        [answered, { kind: 'button', id: 'sign:accept', title: 'Acepto y firmo' }],
        [answered, { kind: 'button', id: 'start-signing', title: 'Firmar' }],
        [undefined, { kind: 'image', mediaId: '1479537139650973', mimeType: 'image/jpeg', caption: 'mi cédula' }],
        [undefined, { kind: 'document', mediaId: '1479537139650974', mimeType: 'image/png', filename: 'cedula.png' }],
        [undefined, { kind: 'unsupported', type: 'sticker' }],
      ]);
    });
  });

  describe("one person's messages are handled one at a time, in the order sent; other people's are not held back", () => {
    it('three deliveries of one number run as three jobs side by side, and are handled in order, never two at once', async () => {
      const ana = newNumber();
      const luis = newNumber();
      const order: string[] = [];
      let running = 0;
      let mostAtOnce = 0;
      let releaseFirst: () => void = () => undefined;
      const firstHeld = new Promise<void>((resolve) => {
        releaseFirst = resolve;
      });
      svc.deps.handleChatMessage = async (_ctx, message: InboundChatMessage) => {
        const text = message.content.kind === 'text' ? message.content.text : '';
        if (message.from === luis) {
          order.push(`luis:${text}`);
          // Luis is handled while Ana's first message is still in the conversation.
          releaseFirst();
          return;
        }
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        if (text === '1') await firstHeld;
        order.push(`ana:${text}`);
        running--;
      };
      for (const text of ['1', '2', '3']) expect((await post(webhookBody({ messages: [textMessage({ from: ana, text })] }))).statusCode).toBe(200);
      expect((await post(webhookBody({ messages: [textMessage({ from: luis, text: 'hola' })] }))).statusCode).toBe(200);
      await runOutbox(svc);
      expect(order).toEqual(['luis:hola', 'ana:1', 'ana:2', 'ana:3']);
      expect(mostAtOnce).toBe(1);
      expect((await stored(ana)).map((row) => row.status)).toEqual(['handled', 'handled', 'handled']);
    });

    it("a long drain keeps the number's lock: renewed once a third of the lease has gone, never lapsed while the holder works", async () => {
      const phone = newNumber();
      const leaseMs = svc.config.outboxLeaseMs;
      const seen: { lockedUntil: string | null; now: string }[] = [];
      svc.deps.handleChatMessage = async () => {
        const lock = await svc.deps.db.selectFrom('whatsapp_conversation_locks').select('locked_until').where('phone', '=', phone).executeTakeFirst();
        seen.push({ lockedUntil: lock?.locked_until ?? null, now: svc.clock.now().toISOString() });
        // Each message takes a fifth of the lease: ten of them, twice the lease in all.
        svc.clock.advance(leaseMs * 0.2);
      };
      for (let i = 0; i < 10; i++) await post(webhookBody({ messages: [textMessage({ from: phone, text: String(i) })] }));
      await runOutbox(svc);
      expect(seen).toHaveLength(10);
      for (const { lockedUntil, now } of seen) expect(lockedUntil !== null && lockedUntil > now).toBe(true);
      // Renewed every other message (each renewal is a commit), not at each one.
      expect(new Set(seen.map((observation) => observation.lockedUntil)).size).toBeLessThanOrEqual(6);
      expect((await stored(phone)).map((row) => row.status)).toEqual(Array(10).fill('handled'));
    });

    /** A conversation that records the text of each message it is handed, and throws on `failing`. */
    function conversationFailingOn(failing: string): string[] {
      const tried: string[] = [];
      svc.deps.handleChatMessage = async (_ctx, message) => {
        const text = message.content.kind === 'text' ? message.content.text : '';
        tried.push(text);
        if (text === failing) throw new Error('the conversation failed');
      };
      return tried;
    }

    it(`a message the conversation keeps failing on is retried by the outbox, given up after ${MAX_HANDLING_ATTEMPTS} attempts, and the next ones go on`, async () => {
      const phone = newNumber();
      const tried = conversationFailingOn('breaks the conversation');
      await post(webhookBody({ messages: [textMessage({ from: phone, text: 'breaks the conversation' })] }));
      await post(webhookBody({ messages: [textMessage({ from: phone, text: 'next' })] }));
      await runOutbox(svc);
      expect(tried).toEqual(['breaks the conversation']);
      for (let attempt = 2; attempt <= MAX_HANDLING_ATTEMPTS; attempt++) {
        // Past the outbox's next retry (5 s, then 5 min, each ±20%).
        svc.clock.advance(10 * 60_000);
        await runOutbox(svc);
      }
      expect(tried).toEqual([...Array(MAX_HANDLING_ATTEMPTS).fill('breaks the conversation'), 'next']);
      const rows = await stored(phone);
      expect(rows.map((row) => [row.status, row.attempts, row.content])).toEqual([
        ['failed', MAX_HANDLING_ATTEMPTS, null],
        ['handled', 0, null],
      ]);
    });

    it("a message failed on waits for the outbox's retry: the number's later webhooks do not spend its attempts at once", async () => {
      const phone = newNumber();
      const tried = conversationFailingOn('breaks the conversation');
      await post(webhookBody({ messages: [textMessage({ from: phone, text: 'breaks the conversation' })] }));
      await runOutbox(svc);
      // Each later webhook queues a drain job of the number, due at once: none of them tries the
      // failed message again before the failing job's retry (5 s, then 5 min, each ±20%).
      for (const text of ['second', 'third']) {
        await post(webhookBody({ messages: [textMessage({ from: phone, text })] }));
        await runOutbox(svc);
        expect(tried).toEqual(['breaks the conversation']);
      }
      const waiting = await stored(phone);
      expect(waiting.map((row) => [row.status, row.attempts])).toEqual([
        ['received', 1],
        ['received', 0],
        ['received', 0],
      ]);
      expect(waiting[0]?.retry_after).toBe(new Date(svc.clock.now().getTime() + EARLIEST_RETRY_MS).toISOString());
      svc.clock.advance(10 * 60_000);
      await runOutbox(svc);
      expect(tried).toEqual(['breaks the conversation', 'breaks the conversation']);
      await post(webhookBody({ messages: [textMessage({ from: phone, text: 'fourth' })] }));
      await runOutbox(svc);
      expect(tried).toHaveLength(2);
      svc.clock.advance(10 * 60_000);
      await runOutbox(svc);
      expect(tried).toEqual([...Array(MAX_HANDLING_ATTEMPTS).fill('breaks the conversation'), 'second', 'third', 'fourth']);
      expect((await stored(phone)).map((row) => [row.status, row.attempts])).toEqual([
        ['failed', MAX_HANDLING_ATTEMPTS],
        ['handled', 0],
        ['handled', 0],
        ['handled', 0],
      ]);
    });
  });

  describe('without its secrets the webhook takes nothing, and says so', () => {
    it('a provider but no WHATSAPP_VERIFY_TOKEN nor WHATSAPP_APP_SECRET: the handshake and deliveries are 404, nothing is stored', async () => {
      const bare = await startTestService(dialect, { WHATSAPP_TOKEN: graph.token, WHATSAPP_PHONE_NUMBER_ID: graph.phoneNumberId, WHATSAPP_API_URL: graph.url });
      try {
        const hand = await bare.app.inject({
          method: 'GET',
          url: '/whatsapp/webhook',
          query: { 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1' },
        });
        expect([hand.statusCode, hand.json()]).toEqual([404, { message: 'WHATSAPP_WEBHOOK_NOT_CONFIGURED: set WHATSAPP_VERIFY_TOKEN' }]);
        const phone = newNumber();
        const delivery = await postWebhook(bare.app, webhookBody({ messages: [textMessage({ from: phone, text: 'x' })] }), { secret: APP_SECRET });
        expect([delivery.statusCode, delivery.json()]).toEqual([404, { message: 'WHATSAPP_WEBHOOK_NOT_CONFIGURED: set WHATSAPP_APP_SECRET' }]);
        expect(await bare.deps.db.selectFrom('whatsapp_messages').selectAll().execute()).toEqual([]);
      } finally {
        await bare.close();
      }
    });

    it('with no provider (the local mailbox), deliveries are signed with a secret the service keeps, for the local chat page', async () => {
      const local = await startTestService(dialect);
      try {
        const secret = local.deps.whatsappWebhook.appSecret;
        expect(secret).toMatch(/^[0-9a-f]{64}$/);
        const phone = newNumber();
        const body = webhookBody({ messages: [textMessage({ from: phone, text: 'x' })] });
        expect((await postWebhook(local.app, body, { secret: APP_SECRET })).statusCode).toBe(401);
        expect((await postWebhook(local.app, body, { secret: secret ?? '' })).json()).toEqual({ messages: 1, statuses: 0 });
      } finally {
        await local.close();
      }
    });
  });
});
