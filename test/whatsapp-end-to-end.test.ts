import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSigning, signDocument } from '../src/documents/participant/signer-flow.js';
import { finalFileKeys } from '../src/documents/sealing/final-file-queries.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { CHAT_WORDS } from '../src/people/words-chat.js';
import { numberedCard } from './support/document-photos.js';
import { identityCard, selfie } from './support/face-photos.js';
import { type GraphApiStandIn, type SentMessage, startGraphApi } from './support/graph-api.js';
import { buttonReply, imageMessage, postWebhook, textMessage, webhookBody } from './support/meta-webhooks.js';
import { call, dialects, type TestOrganization, type TestService } from './support/service.js';
import { outbox, PDF_BASE64, stored } from './support/signing.js';
import { printedPhoto } from './support/spoof-photos.js';
import { APP_SECRET, runOutbox, startWhatsAppService } from './support/whatsapp-service.js';

/*
 * The whole WhatsApp conversation as Meta would carry it: every message a person sends is Meta's
 * signed webhook, handled from the durable inbox; every answer goes to a stand-in of the Graph API
 * (documents uploaded, then sent by id); photos are fetched from it by media id and compared by the
 * machine's face matcher, on real photographs.
 */

const es = CHAT_WORDS.es;

/** A field deep in a JSON body Meta was sent, or undefined. */
function dig(value: unknown, ...path: string[]): unknown {
  let here = value;
  for (const key of path) here = typeof here === 'object' && here !== null ? Reflect.get(here, key) : undefined;
  return here;
}
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function textOf(sent: SentMessage | undefined): string {
  const type = dig(sent?.body, 'type');
  if (type === 'text') return text(dig(sent?.body, 'text', 'body'));
  if (type === 'interactive') return text(dig(sent?.body, 'interactive', 'body', 'text'));
  if (type === 'document') return text(dig(sent?.body, 'document', 'caption'));
  return '';
}

function buttonsOf(sent: SentMessage | undefined): { id: string; title: string }[] {
  const buttons = dig(sent?.body, 'interactive', 'action', 'buttons');
  return (Array.isArray(buttons) ? buttons : []).map((button: unknown) => ({
    id: text(dig(button, 'reply', 'id')),
    title: text(dig(button, 'reply', 'title')),
  }));
}

let unique = 0;

describe.each(dialects)("WhatsApp end to end, through Meta's signed webhook and the Graph API (%s)", { timeout: 180_000 }, (dialect) => {
  let graph: GraphApiStandIn;
  let svc: TestService;
  let photos: { card: Buffer; back: Buffer; face: Buffer; stranger: Buffer };

  beforeAll(async () => {
    graph = await startGraphApi();
    svc = await startWhatsAppService(dialect, graph, { FACE_MATCHER: 'local', FACE_WORKERS: '1' });
    const [card, back, face, stranger] = await Promise.all([
      identityCard('authorSelected'),
      identityCard('womanBrownHair'),
      selfie('authorPhoto'),
      selfie('womanBlonde'),
    ]);
    photos = { card, back, face, stranger };
  }, 120_000);
  afterAll(async () => {
    await svc?.close();
    await graph?.close();
  });

  const newNumber = () => `57301${String(1_000_000 + crypto.randomInt(0, 8_000_000) + ++unique)}`;
  const sentTo = (number: string) => graph.sent.filter((sent) => sent.to === number);
  const last = (number: string) => sentTo(number).at(-1);

  /** Every body Meta delivered, as sent: what an attacker who captured the traffic would hold. */
  const captured: { from: string; body: ReturnType<typeof webhookBody> }[] = [];

  /** The person writes: Meta's signed delivery, then the outbox's rounds (the conversation's job, the answers' sends). */
  async function deliver(message: Record<string, unknown>): Promise<void> {
    const body = webhookBody({ messages: [message] });
    captured.push({ from: String(message.from), body });
    const res = await postWebhook(svc.app, body, { secret: APP_SECRET });
    expect(res.statusCode, res.body).toBe(200);
    await runOutbox(svc);
  }
  const write = (from: string, text: string) => deliver(textMessage({ from, text }));
  async function tap(from: string, title: string): Promise<void> {
    const message = [...sentTo(from)].reverse().find((sent) => buttonsOf(sent).some((button) => button.title === title));
    const button = buttonsOf(message).find((candidate) => candidate.title === title);
    if (!message || !button) throw new Error(`no button "${title}" was sent to ${from}: ${sentTo(from).map(textOf).join(' | ')}`);
    await deliver(buttonReply({ from, buttonId: button.id, title: button.title, contextId: message.wamid }));
  }
  const sendPhoto = (from: string, photo: Buffer) => deliver(imageMessage({ from, mediaId: graph.addMedia(photo, 'image/png') }));

  async function signer(org: TestOrganization, number: string, extra: Record<string, unknown> = {}) {
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: org.privateKey,
      body: {
        email: org.email,
        name: 'Contrato de arrendamiento',
        file: PDF_BASE64,
        signProfile: [
          {
            name: 'Ana Gómez',
            email: `ana${number}@people.test`,
            phone: `+${number}`,
            identification: '1001001010',
            identificationType: 'CC',
            country: 'CO',
            ...extra,
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await runOutbox(svc);
    return res.json().code as string;
  }

  describe('a signer with a code, the ID front and back and the face signs in the chat and receives the signed PDF', () => {
    it('Empezar, the document, the code, three photos, "Acepto y firmo", then the sealed PDF, uploaded and sent by id', async () => {
      const number = newNumber();
      const code = await signer(svc.orgA, number, {
        otpCode: true,
        camera: true,
        options: { otpCode: 'phone', camera: 'identification', whatsapp: true, identificationCardBack: true },
      });
      expect(textOf(last(number))).toContain('Contrato de arrendamiento');
      await tap(number, es.start);
      // The document in the chat, uploaded first: never a link.
      const documentSent = sentTo(number).find((sent) => dig(sent.body, 'type') === 'document');
      const documentId = text(dig(documentSent?.body, 'document', 'id'));
      expect(documentId).not.toBe('');
      expect(dig(documentSent?.body, 'document', 'link')).toBeUndefined();
      expect(
        graph.uploads
          .find((upload) => upload.id === documentId)
          ?.bytes.subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
      // The code arrives in the chat and is typed back.
      const digits = sentTo(number)
        .map((sent) => /Tu código es (\d{6})/.exec(textOf(sent))?.[1])
        .find((found) => found !== undefined);
      expect(digits).toMatch(/^\d{6}$/);
      await write(number, digits ?? '');
      expect(textOf(last(number))).toBe(es.photoFront);
      await sendPhoto(number, photos.card);
      expect(textOf(last(number))).toBe(es.photoBack);
      await sendPhoto(number, photos.back);
      expect(textOf(last(number))).toBe(es.photoFace);
      await sendPhoto(number, photos.face);
      expect(buttonsOf(last(number)).map((button) => button.title)).toEqual([es.acceptAndSign, es.reject]);
      await tap(number, es.acceptAndSign);

      const { process, participants } = await stored(svc, svc.orgA, code);
      expect(process.status).toBe('FINISH');
      expect(participants[0]?.status).toBe('FINISH');
      // Sealed by the outbox's job, then sent to the signer: the very file the API hands out.
      const keys = await finalFileKeys(svc.deps.db, process.id);
      const sealed = await readBlobBytes(svc.deps.blobs, keys?.documents[0] ?? '');
      const signedSent = last(number);
      expect(textOf(signedSent)).toContain('quedó firmado por todos');
      const upload = graph.uploads.find((candidate) => candidate.id === dig(signedSent?.body, 'document', 'id'));
      expect(upload?.bytes.equals(sealed ?? Buffer.alloc(0))).toBe(true);
      // The other organization never reads this signer's conversation.
      const fromB = await call(svc.app, 'GET', '/whatsapp/records', { key: svc.orgB.privateKey, query: { userId: participants[0]?.participant_id ?? '' } });
      expect(fromB.statusCode).toBe(404);
    });
  });

  describe('a face validation on the WhatsApp platform reaches APPROVED, told in words without the similarity', () => {
    it('Empezar, the ID front, the face: approved', async () => {
      const number = newNumber();
      const res = await call(svc.app, 'POST', '/veriface', {
        key: svc.orgB.privateKey,
        body: { email: svc.orgB.email, platform: 'whatsapp', name: 'Juan Pérez', phone: `+${number}`, country: 'CO', type: 'CC', identification: '1001001010' },
      });
      expect(res.statusCode, res.body).toBe(200);
      await runOutbox(svc);
      await tap(number, es.start);
      await sendPhoto(number, photos.card);
      await sendPhoto(number, photos.face);
      expect(textOf(last(number))).toBe(es.verifaceApproved);
      expect(sentTo(number).map(textOf).join(' ')).not.toMatch(/0[.,]\d|%/);
      const read = await call(svc.app, 'GET', '/veriface', { key: svc.orgB.privateKey, query: { code: res.json().code } });
      expect(read.json().status).toBe('APPROVED');
      const fromA = await call(svc.app, 'GET', '/veriface', { key: svc.orgA.privateKey, query: { code: res.json().code } });
      expect(fromA.statusCode).not.toBe(200);
    });
  });

  describe('a printed-photo selfie sent in WhatsApp goes to review, told only that it is under review', () => {
    it('a face validation ends BLOCKED (LIVENESS_SUSPECT) and a signer with identification is blocked for review; neither is told why', async () => {
      const printed = await printedPhoto(await selfie('authorWebcam'), 2);
      const number = newNumber();
      const res = await call(svc.app, 'POST', '/veriface', {
        key: svc.orgA.privateKey,
        body: { email: svc.orgA.email, platform: 'whatsapp', name: 'Juan Pérez', phone: `+${number}`, country: 'CO', type: 'CC', identification: '1001001010' },
      });
      expect(res.statusCode, res.body).toBe(200);
      await runOutbox(svc);
      await tap(number, es.start);
      await sendPhoto(number, photos.card);
      await sendPhoto(number, printed);
      expect(textOf(last(number))).toContain(es.verifaceUnderReview.split('{')[0]);
      const read = await call(svc.app, 'GET', '/veriface', { key: svc.orgA.privateKey, query: { code: res.json().code } });
      expect(read.json()).toMatchObject({ status: 'BLOCKED', reason: 'LIVENESS_SUSPECT' });
      expect((await call(svc.app, 'GET', '/veriface', { key: svc.orgB.privateKey, query: { code: res.json().code } })).statusCode).not.toBe(200);

      const signerNumber = newNumber();
      const code = await signer(svc.orgB, signerNumber, { camera: true, options: { camera: 'identification', whatsapp: true } });
      await tap(signerNumber, es.start);
      await sendPhoto(signerNumber, photos.card);
      await sendPhoto(signerNumber, printed);
      expect(textOf(last(signerNumber))).toContain(es.underReview.split('{')[0]);
      expect((await stored(svc, svc.orgB, code)).participants[0]).toMatchObject({ status: 'BLOCK', block_reason: 'LIVENESS_SUSPECT' });
      for (const told of [...sentTo(number), ...sentTo(signerNumber)].map(textOf)) expect(told.toLowerCase()).not.toMatch(/liveness|vivacidad/);
    });
  });

  describe('a WhatsApp face validation whose ID number is not the declared one', () => {
    it("is a mismatch told in words, with the ID asked again; the person's own ID then approves, and GET /veriface shows both attempts", async () => {
      const number = newNumber();
      const res = await call(svc.app, 'POST', '/veriface', {
        key: svc.orgA.privateKey,
        body: { email: svc.orgA.email, platform: 'whatsapp', name: 'Juan Pérez', phone: `+${number}`, country: 'CO', type: 'CC', identification: '52345678' },
      });
      expect(res.statusCode, res.body).toBe(200);
      await runOutbox(svc);
      await tap(number, es.start);
      await sendPhoto(number, photos.card);
      await sendPhoto(number, photos.face);
      const told = sentTo(number).map(textOf);
      expect(told.at(-2)).toBe(es.photoNumberMismatch);
      expect(told.at(-1)).toBe(es.photoFront);
      await sendPhoto(number, await numberedCard({ number: '52.345.678', person: 'authorSelected' }));
      expect(textOf(last(number))).toBe(es.verifaceApproved);
      const read = (await call(svc.app, 'GET', '/veriface', { key: svc.orgA.privateKey, query: { code: res.json().code } })).json();
      expect(read.attempts.map((a: { successful: boolean; numberCheck: { result: string } }) => [a.successful, a.numberCheck.result])).toEqual([
        [false, 'MISMATCH'],
        [true, 'MATCH'],
      ]);
      expect(read.ocrData).toEqual({ documentNumber: '52345678' });
      const fromB = await call(svc.app, 'GET', '/veriface', { key: svc.orgB.privateKey, query: { code: res.json().code } });
      expect(fromB.statusCode).not.toBe(200);
    });
  });

  describe('a face that does not match the ID three times blocks the signer', () => {
    it('each mismatch is asked again in words; the third blocks, and the person is told whom to write to', async () => {
      const number = newNumber();
      const code = await signer(svc.orgA, number, { camera: true, options: { camera: 'identification', whatsapp: true } });
      await tap(number, es.start);
      await sendPhoto(number, photos.card);
      for (const attempt of [1, 2]) {
        await sendPhoto(number, photos.stranger);
        expect(textOf(last(number)), `attempt ${attempt}`).toBe(es.photoFaceAgain);
      }
      await sendPhoto(number, photos.stranger);
      expect(textOf(last(number))).toContain('bloqueada');
      expect((await stored(svc, svc.orgA, code)).participants[0]?.status).toBe('BLOCK');
    });
  });

  describe('options.both: the e-mail with the web link as well, and one state for both', () => {
    it('the document received in the chat counts as opened on the web; signed on the web, the chat says so and asks nothing more', async () => {
      const number = newNumber();
      const code = await signer(svc.orgA, number, { options: { whatsapp: true, both: true } });
      const { participants } = await stored(svc, svc.orgA, code);
      const participant = participants[0];
      if (!participant) throw new Error('no participant');
      const mails = await outbox(svc, 'email');
      expect(mails.some((mail) => mail.body.to === participant.email && String(mail.body.text).includes(`/s/${participant.link_token}`))).toBe(true);
      expect(textOf(last(number))).toContain('Contrato de arrendamiento');
      await tap(number, es.start);
      expect((await openSigning(svc.deps, { token: participant.link_token })).openedDocuments).toEqual([0]);
      // Signed on the web page: nothing left to do in the chat.
      await signDocument(svc.deps, { token: participant.link_token });
      const since = sentTo(number).length;
      await write(number, 'hola');
      expect(sentTo(number).slice(since).map(textOf)).toContain(es.alreadySigned.replace('{process}', 'Contrato de arrendamiento'));
    });
  });

  describe('a wrong signature and a replayed message change nothing', () => {
    it('a delivery signed with another secret is 401 and answered by nobody; the same message id twice is answered once', async () => {
      const number = newNumber();
      await signer(svc.orgA, number, { options: { whatsapp: true } });
      const before = sentTo(number).length;
      const forged = await postWebhook(svc.app, webhookBody({ messages: [textMessage({ from: number, text: es.start })] }), { secret: 'not-the-app-secret' });
      expect(forged.statusCode).toBe(401);
      await runOutbox(svc);
      expect(sentTo(number)).toHaveLength(before);
      const message = textMessage({ from: number, text: 'AYUDA' });
      await deliver(message);
      const answered = sentTo(number).length;
      expect(answered).toBe(before + 1);
      await deliver(message);
      expect(sentTo(number)).toHaveLength(answered);
    });
  });

  describe('a captured WhatsApp webhook replayed later changes nothing, whatever its age', () => {
    it("a signer's whole signed conversation replayed at once and 40 days on: answered 200, stored once, no answer sent, the number's next process untouched", async () => {
      const number = newNumber();
      const first = await signer(svc.orgA, number, { options: { whatsapp: true } });
      const from = captured.length;
      await tap(number, es.start);
      await tap(number, es.acceptAndSign);
      expect((await stored(svc, svc.orgA, first)).process.status).toBe('FINISH');
      const conversation = captured.slice(from).filter((delivery) => delivery.from === number);
      expect(conversation.length).toBe(2);
      // The same number is then asked to sign again, by the other organization.
      const second = await signer(svc.orgB, number, { options: { whatsapp: true } });
      const received = () => svc.deps.db.selectFrom('whatsapp_messages').select('id').where('phone', '=', number).where('direction', '=', 'in').execute();
      const [storedBefore, sentBefore] = [(await received()).length, sentTo(number).length];

      for (const days of [0, 40]) {
        svc.clock.advance(days * 86_400_000);
        for (const { body } of conversation) {
          const res = await postWebhook(svc.app, body, { secret: APP_SECRET });
          expect(res.statusCode, res.body).toBe(200);
        }
        await runOutbox(svc);
        expect((await received()).length).toBe(storedBefore);
        expect(sentTo(number)).toHaveLength(sentBefore);
        const { process, participants } = await stored(svc, svc.orgB, second);
        expect([process.status, participants[0]?.status]).not.toContain('FINISH');
        expect((await stored(svc, svc.orgA, first)).process.status).toBe('FINISH');
      }
    });
  });
});
