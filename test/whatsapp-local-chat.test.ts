import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForOperator, type OperatorListener } from '../src/auth/operator-machine.js';
import { CHAT_WORDS } from '../src/people/words-chat.js';
import { readWebhook } from '../src/whatsapp/inbound/meta-payload.js';
import { metaEnvelope } from '../src/whatsapp/local/meta-envelope.js';
import { identityCard } from './support/face-photos.js';
import { startGraphApi } from './support/graph-api.js';
import { loopbackRequest, type PlainResponse } from './support/operator-request.js';
import { call, dialects, listenOnLoopback, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { PDF_BASE64 } from './support/signing.js';
import { runOutbox, startWhatsAppService } from './support/whatsapp-service.js';

/** An address that is not the service's machine. */
const ELSEWHERE = '203.0.113.24';

interface LocalCall {
  key?: string;
  /** Injected on the service's own port from this address, instead of the operator's listener. */
  remote?: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
}

interface ChatView {
  phone: string;
  name?: string;
  messages: { id: string; direction: 'in' | 'out'; content: Record<string, unknown> & { kind: string } }[];
}

let unique = 0;
const newPhone = () => `+5731055${String(10000 + ++unique).slice(-5)}`;
const digits = (phone: string) => phone.slice(1);
const es = CHAT_WORDS.es;

describe.each(dialects)('the local WhatsApp chat page (%s)', (dialect) => {
  let svc: TestService;
  let operator: OperatorListener;

  beforeAll(async () => {
    svc = await startTestService(dialect);
    operator = await listenForOperator(svc.app, 0);
  });
  afterAll(async () => {
    await operator?.close();
    await svc?.close();
  });

  /** With a key or an address, injected on the service's port; else through the operator's listener, as the operator's browser. */
  const local = (method: 'GET' | 'POST', url: string, options: LocalCall = {}): Promise<PlainResponse> => {
    const headers = { ...(options.key ? { authorization: options.key } : {}), ...options.headers };
    if (options.key === undefined && options.remote === undefined) {
      return loopbackRequest(operator.port, method, url, { headers, ...(options.query ? { query: options.query } : {}), body: options.body });
    }
    return svc.app.inject({
      method,
      url,
      ...(options.remote ? { remoteAddress: options.remote } : {}),
      headers,
      ...(options.query ? { query: options.query } : {}),
      ...(options.body ? { payload: options.body } : {}),
    });
  };
  const chatOf = async (phone: string, options: LocalCall = {}): Promise<ChatView> => {
    const res = await local('GET', '/whatsapp/local/messages', { ...options, query: { phone: digits(phone) } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const answer = (phone: string, body: Record<string, unknown>, options: LocalCall = {}) =>
    local('POST', '/whatsapp/local/messages', { ...options, body: { phone: digits(phone), ...body } });

  /** A signing process of `org` whose signer's flow runs through WhatsApp, its invitation written to the local mailbox. */
  const signing = async (org: TestOrganization, signer: Record<string, unknown> = {}): Promise<string> => {
    const phone = newPhone();
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: org.privateKey,
      body: {
        email: org.email,
        name: 'Lease agreement',
        file: PDF_BASE64,
        signProfile: [{ name: 'José Pérez', email: `s${++unique}@people.test`, phone, options: { whatsapp: true }, ...signer }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await runOutbox(svc);
    return phone;
  };
  const invitationOf = async (phone: string, options: LocalCall = {}) => {
    const invitation = (await chatOf(phone, options)).messages.find((m) => m.content.kind === 'buttons');
    const buttons = invitation?.content.buttons as { id: string; title: string }[] | undefined;
    if (!invitation || !buttons?.[0]) throw new Error(`no invitation in the chat of ${phone}`);
    return { id: invitation.id, start: buttons[0] };
  };
  const received = (phone: string) =>
    svc.deps.db.selectFrom('whatsapp_messages').selectAll().where('phone', '=', digits(phone)).where('direction', '=', 'in').orderBy('created_at').execute();

  describe("the operator at the service's machine sees every organization's conversations; from anywhere else a private key is needed", () => {
    it("a request on the operator's own port (127.0.0.1) without a key lists the conversations of both organizations", async () => {
      const [ofA, ofB] = [await signing(svc.orgA), await signing(svc.orgB, { name: 'Ana Ruiz' })];
      const res = await local('GET', '/whatsapp/local/conversations');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().everyOrganization).toBe(true);
      const listed = res.json().conversations as { phone: string; name?: string }[];
      expect(listed).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ phone: digits(ofA), name: 'José Pérez' }),
          expect.objectContaining({ phone: digits(ofB), name: 'Ana Ruiz' }),
        ]),
      );
    });

    it('without a key, another address, a proxy header or a host name other than a loopback one is 401', async () => {
      const refused: LocalCall[] = [
        { remote: ELSEWHERE },
        { headers: { 'x-forwarded-for': '127.0.0.1' } },
        { headers: { forwarded: 'for=127.0.0.1' } },
        { headers: { host: 'rebound.example.com' } },
        { remote: ELSEWHERE, headers: { 'x-forwarded-for': '127.0.0.1', host: 'localhost' } },
      ];
      for (const options of refused) {
        const res = await local('GET', '/whatsapp/local/conversations', options);
        expect([res.statusCode, res.json()], JSON.stringify(options)).toEqual([401, { message: 'UNAUTHORIZED' }]);
      }
      for (const options of [{ headers: { host: '[::1]:3000' } }, { headers: { host: `127.0.0.1:${operator.port}` } }, { headers: { host: 'localhost' } }]) {
        expect((await local('GET', '/whatsapp/local/conversations', options)).statusCode, JSON.stringify(options)).toBe(200);
      }
    });

    it("the service's own port takes no keyless operator even from loopback: a reverse proxy on the same machine relays the internet from there", async () => {
      const port = await listenOnLoopback(svc);
      // What nginx's default `proxy_pass http://127.0.0.1:3000` sends: a loopback peer, a loopback Host, no forwarding header.
      for (const host of [`127.0.0.1:${port}`, 'localhost']) {
        const res = await loopbackRequest(port, 'GET', '/whatsapp/local/conversations', { headers: { host } });
        expect([res.statusCode, res.json()], host).toEqual([401, { message: 'UNAUTHORIZED' }]);
      }
      const injected = await svc.app.inject({
        method: 'GET',
        url: '/whatsapp/local/conversations',
        remoteAddress: '127.0.0.1',
        headers: { host: '127.0.0.1:3000' },
      });
      expect([injected.statusCode, injected.json()]).toEqual([401, { message: 'UNAUTHORIZED' }]);
      // A private key still opens the organization's own conversations there.
      const withKey = await loopbackRequest(port, 'GET', '/whatsapp/local/conversations', { headers: { authorization: svc.orgA.privateKey } });
      expect([withKey.statusCode, withKey.json().everyOrganization]).toEqual([200, false]);
    });

    it('the page itself holds nothing and is served to anyone, in the words of the browser’s language', async () => {
      const page = await local('GET', '/whatsapp/local', { remote: ELSEWHERE, headers: { 'accept-language': 'pt-BR' } });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.body).toContain('<html lang="pt">');
      expect(page.body).toContain('Chat local do WhatsApp');
    });
  });

  describe("an organization's private key sees only its conversations; the public key is refused", () => {
    it("organization A's key lists A's numbers only, and B's key B's only", async () => {
      const [ofA, ofB] = [await signing(svc.orgA), await signing(svc.orgB)];
      for (const [org, own, other] of [
        [svc.orgA, ofA, ofB],
        [svc.orgB, ofB, ofA],
      ] as const) {
        const res = await local('GET', '/whatsapp/local/conversations', { key: org.privateKey, remote: ELSEWHERE });
        expect(res.json().everyOrganization).toBe(false);
        const phones = (res.json().conversations as { phone: string }[]).map((c) => c.phone);
        expect(phones).toContain(digits(own));
        expect(phones).not.toContain(digits(other));
      }
    });

    it("B's key reads A's number exactly as a number nobody has, and cannot open A's messages", async () => {
      const ofA = await signing(svc.orgA);
      const foreign = await local('GET', '/whatsapp/local/messages', { key: svc.orgB.privateKey, remote: ELSEWHERE, query: { phone: digits(ofA) } });
      const unknown = await local('GET', '/whatsapp/local/messages', { key: svc.orgB.privateKey, remote: ELSEWHERE, query: { phone: digits(newPhone()) } });
      expect([foreign.statusCode, foreign.json()]).toEqual([404, { message: 'LOCAL_CHAT_NUMBER_NOT_FOUND' }]);
      expect([unknown.statusCode, unknown.body]).toEqual([foreign.statusCode, foreign.body]);
      expect((await chatOf(ofA, { key: svc.orgA.privateKey, remote: ELSEWHERE })).messages.length).toBeGreaterThan(0);
    });

    it('the public key is refused, on the machine too: 403 on reads, 401 on writes', async () => {
      const ofA = await signing(svc.orgA);
      for (const remote of [ELSEWHERE, undefined]) {
        const options = { key: svc.orgA.publicKey, ...(remote ? { remote } : {}) };
        const read = await local('GET', '/whatsapp/local/messages', { ...options, query: { phone: digits(ofA) } });
        expect([read.statusCode, read.json().message]).toEqual([403, 'PRIVATE_KEY_REQUIRED']);
        const write = await answer(ofA, { text: 'hola' }, options);
        expect([write.statusCode, write.json()]).toEqual([401, { message: 'UNAUTHORIZED' }]);
      }
      expect(await received(ofA)).toEqual([]);
    });
  });

  describe("an organization writes only as its own numbers, and not while another organization's flow is open with one", () => {
    it("B's key cannot write as A's number: 404 as for a number nobody has, and the inbox receives nothing", async () => {
      const ofA = await signing(svc.orgA);
      const { id, start } = await invitationOf(ofA);
      for (const body of [{ text: 'hola' }, { reply: start, contextId: id }, { photo: { data: (await identityCard('authorSelected')).toString('base64') } }]) {
        const res = await answer(ofA, body, { key: svc.orgB.privateKey, remote: ELSEWHERE });
        expect([res.statusCode, res.json()]).toEqual([404, { message: 'LOCAL_CHAT_NUMBER_NOT_FOUND' }]);
      }
      expect(await received(ofA)).toEqual([]);
    });

    it('a number with open flows in both organizations takes neither key, only the operator at the machine', async () => {
      const phone = await signing(svc.orgA);
      const res = await call(svc.app, 'POST', '/document/upload', {
        key: svc.orgB.privateKey,
        body: {
          email: svc.orgB.email,
          name: 'Loan',
          file: PDF_BASE64,
          signProfile: [{ name: 'José Pérez', email: 'jose@people.test', phone, options: { whatsapp: true } }],
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      await runOutbox(svc);
      for (const org of [svc.orgA, svc.orgB]) {
        expect((await answer(phone, { text: '1' }, { key: org.privateKey, remote: ELSEWHERE })).statusCode).toBe(404);
      }
      expect((await answer(phone, { text: '1' })).statusCode).toBe(200);
    });

    it("a button's message must be one the service sent to that number", async () => {
      const [ofA, other] = [await signing(svc.orgA), await signing(svc.orgA)];
      const { id, start } = await invitationOf(other);
      const res = await answer(ofA, { reply: start, contextId: id }, { key: svc.orgA.privateKey, remote: ELSEWHERE });
      expect([res.statusCode, res.json()]).toEqual([404, { message: 'LOCAL_CHAT_MESSAGE_NOT_FOUND' }]);
    });
  });

  describe("what the operator sends goes through Meta's signed webhook and the inbox, and stays readable on the page", () => {
    it('a tap on "Empezar" reaches the conversation, which answers with the PDF; the page shows both, the inbox wiped its content', async () => {
      const phone = await signing(svc.orgA);
      const { id, start } = await invitationOf(phone, { key: svc.orgA.privateKey, remote: ELSEWHERE });
      expect(start.title).toBe(es.start);
      const res = await answer(phone, { reply: start, contextId: id }, { key: svc.orgA.privateKey, remote: ELSEWHERE });
      expect(res.statusCode, res.body).toBe(200);
      const [record] = await received(phone);
      expect(record).toMatchObject({ wamid: res.json().id, kind: 'button', organization_id: svc.orgA.id, status: 'received' });
      await runOutbox(svc);
      expect((await received(phone))[0]).toMatchObject({ status: 'handled', content: null });

      const chat = await chatOf(phone, { key: svc.orgA.privateKey, remote: ELSEWHERE });
      const tapped = chat.messages.find((m) => m.id === res.json().id);
      expect(tapped).toMatchObject({ direction: 'in', content: { kind: 'button', title: es.start } });
      const document = chat.messages.find((m) => m.content.kind === 'document');
      expect(document?.content).toMatchObject({ filename: 'Lease agreement.pdf' });
      expect(chat.messages.indexOf(document ?? tapped!)).toBeGreaterThan(chat.messages.indexOf(tapped!));
    });

    it('typed words and a photo are handled as the person’s, and the photo is never shown back nor kept in plain', async () => {
      const phone = await signing(svc.orgA);
      const text = await answer(phone, { text: 'AYUDA' });
      const blobs = svc.deps.blobs;
      const writeBytes = blobs.writeBytes;
      const written: string[] = [];
      blobs.writeBytes = (key, bytes, contentType) => {
        written.push(key);
        return writeBytes.call(blobs, key, bytes, contentType);
      };
      // Sent before "Empezar": the conversation asks for no photo yet, and does not read it.
      const photo = await answer(phone, {
        photo: { data: (await identityCard('authorSelected')).toString('base64'), filename: 'cedula.jpg', asDocument: true },
      }).finally(() => {
        blobs.writeBytes = writeBytes;
      });
      const [copy] = written.filter((key) => key.startsWith('whatsapp-media/'));
      if (!copy) throw new Error("the page's photo was not stored");
      expect([text.statusCode, photo.statusCode]).toEqual([200, 200]);
      const records = await received(phone);
      expect(records.map((r) => r.kind)).toEqual(['text', 'document']);
      await runOutbox(svc);
      const chat = await chatOf(phone);
      expect(chat.messages.filter((m) => m.direction === 'in').map((m) => m.content)).toEqual([
        { kind: 'text', text: 'AYUDA' },
        { kind: 'photo', filename: 'cedula.jpg', asDocument: true },
      ]);
      expect(JSON.stringify(chat)).not.toMatch(/whatsapp-media|\/photos\//);
      expect(await svc.deps.blobs.exists(copy)).toBe(false);
    });

    it('a file that is not a JPEG or PNG is refused with a clear message, and nothing is sent', async () => {
      const phone = await signing(svc.orgA);
      const res = await answer(phone, { photo: { data: PDF_BASE64, filename: 'lease.pdf' } });
      expect([res.statusCode, res.json()]).toEqual([400, { message: 'LOCAL_CHAT_FILE_INVALID' }]);
      expect(await received(phone)).toEqual([]);
    });

    it("the envelope the page signs reads, through Meta's payload reader, as the very message the person sent", () => {
      const sentAt = new Date('2026-11-26T10:00:00Z');
      const read = (message: Parameters<typeof metaEnvelope>[0]['message'], contextId?: string) =>
        readWebhook(
          metaEnvelope({ wamid: 'wamid.local.1', from: '573001234567', profileName: 'José', sentAt, message, ...(contextId ? { contextId } : {}) }),
          sentAt,
        ).messages;
      const base = { id: 'wamid.local.1', from: '573001234567', profileName: 'José', sentAt: sentAt.toISOString() };
      expect(read({ type: 'text', text: 'hola' })).toEqual([{ ...base, content: { kind: 'text', text: 'hola' } }]);
      expect(read({ type: 'button_reply', id: 'f.start', title: 'Empezar' }, 'whatsapp/1')).toEqual([
        { ...base, contextId: 'whatsapp/1', content: { kind: 'button', id: 'f.start', title: 'Empezar' } },
      ]);
      expect(read({ type: 'quick_reply', payload: 'f.start', text: 'Empezar' })).toEqual([
        { ...base, content: { kind: 'button', id: 'f.start', title: 'Empezar' } },
      ]);
      expect(read({ type: 'image', mediaId: 'm.jpg', mimeType: 'image/jpeg' })).toEqual([
        { ...base, content: { kind: 'image', mediaId: 'm.jpg', mimeType: 'image/jpeg' } },
      ]);
      expect(read({ type: 'document', mediaId: 'm.png', mimeType: 'image/png', filename: 'id.png' })).toEqual([
        { ...base, content: { kind: 'document', mediaId: 'm.png', mimeType: 'image/png', filename: 'id.png' } },
      ]);
    });
  });

  describe('a document the service sent opens through the operator-only route, never a public URL', () => {
    it("A's key opens A's PDF; B's key and the public key do not; the chat names no URL of the file", async () => {
      const phone = await signing(svc.orgA);
      const { id, start } = await invitationOf(phone);
      expect((await answer(phone, { reply: start, contextId: id })).statusCode).toBe(200);
      await runOutbox(svc);
      const chat = await chatOf(phone);
      const document = chat.messages.find((m) => m.content.kind === 'document');
      if (!document) throw new Error('no document in the chat');
      expect(JSON.stringify(chat)).not.toMatch(/https?:|\/files\//);
      const open = (key: string) => local('GET', '/whatsapp/local/document', { key, remote: ELSEWHERE, query: { phone: digits(phone), id: document.id } });
      const pdf = await open(svc.orgA.privateKey);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      expect([(await open(svc.orgB.privateKey)).statusCode, (await open(svc.orgB.privateKey)).json()]).toEqual([
        404,
        { message: 'LOCAL_CHAT_MESSAGE_NOT_FOUND' },
      ]);
      expect((await open(svc.orgA.publicKey)).statusCode).toBe(403);
      const invitation = await local('GET', '/whatsapp/local/document', { query: { phone: digits(phone), id } });
      expect([invitation.statusCode, invitation.json()]).toEqual([404, { message: 'LOCAL_CHAT_MESSAGE_NOT_FOUND' }]);
    });
  });
});

describe('with a WhatsApp provider configured, the real WhatsApp is the chat: the page and its routes are not there', () => {
  it('every route of the local chat is 404', async () => {
    const graph = await startGraphApi();
    const svc = await startWhatsAppService('sqlite', graph);
    try {
      for (const url of ['/whatsapp/local', '/whatsapp/local/conversations', '/whatsapp/local/messages?phone=573001234567']) {
        const res = await svc.app.inject({ method: 'GET', url });
        expect([url, res.statusCode]).toEqual([url, 404]);
      }
      const posted = await svc.app.inject({ method: 'POST', url: '/whatsapp/local/messages', payload: { phone: '573001234567', text: 'hola' } });
      expect(posted.statusCode).toBe(404);
    } finally {
      await svc.close();
      await graph.close();
    }
  });
});
