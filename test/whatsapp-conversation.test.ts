import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParticipantRow } from '../src/db/schema.js';
import { listProcessEvents } from '../src/documents/queries.js';
import { listFinalFiles } from '../src/documents/sealing/final-file-queries.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { updateSettings } from '../src/organizations/settings.js';
import { CHAT_WORDS } from '../src/people/words-chat.js';
import { findVerifaceByCode } from '../src/veriface/queries.js';
import type { ChatContext } from '../src/whatsapp/chat-context.js';
import { handleChatMessage } from '../src/whatsapp/conversation/handle-message.js';
import { type ChatMedia, ChatMediaError, type InboundChatMessage, MAX_BUTTON_TITLE, type OutgoingChatContent } from '../src/whatsapp/message/chat-message.js';
import { identityCard, selfie } from './support/face-photos.js';
import { verifaceBody } from './support/fixtures.js';
import { matcher } from './support/images.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { PDF_BASE64, stored } from './support/signing.js';

/** A stand-in for the provider's media: what the person sent, by media id, refused over the size asked. */
function mediaStore(): ChatMedia & { put(id: string, bytes: Buffer): void } {
  const media = new Map<string, Buffer>();
  return {
    put: (id, bytes) => media.set(id, bytes),
    async download(id, { maxBytes }) {
      const bytes = media.get(id);
      if (!bytes) throw new ChatMediaError(`media ${id} not found`);
      if (bytes.length > maxBytes) throw new ChatMediaError(`media ${id} is over ${maxBytes} bytes`);
      return { bytes, mimeType: 'image/jpeg' };
    },
  };
}

const photos: { card: Buffer; face: Buffer; back: Buffer } = { card: Buffer.alloc(0), face: Buffer.alloc(0), back: Buffer.alloc(0) };
beforeAll(async () => {
  photos.card = await identityCard('authorSelected');
  photos.back = await identityCard('womanBlonde');
  photos.face = await selfie('authorPhoto');
});

interface Sent {
  to: string;
  purpose: string;
  content: OutgoingChatContent;
  participantId?: string;
  verifaceId?: string;
}

const identified = { identification: '1001001010', identificationType: 'CC', country: 'CO' };
const FULL = { otpCode: true, camera: true, options: { otpCode: 'phone', camera: 'identification', whatsapp: true, identificationCardBack: true } };

let unique = 0;

describe.each(dialects)('the WhatsApp conversation (%s)', (dialect) => {
  let svc: TestService;
  const media = mediaStore();
  let similarity = 95;
  const ctx = (): ChatContext => ({ ...svc.deps, faceMatcher: matcher(similarity), chatMedia: media });

  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc?.close());

  const newPhone = () => `+5730012${String(10000 + ++unique).slice(-5)}`;
  const digits = (phone: string) => phone.slice(1);

  /** Every conversation message queued for `to`, oldest first. */
  const sentTo = async (to: string): Promise<Sent[]> => {
    const rows = await svc.deps.db.selectFrom('outbox').select('payload').where('kind', '=', 'whatsapp').orderBy('created_at').orderBy('id').execute();
    return rows.map((row) => JSON.parse(row.payload)).flatMap((payload) => (payload.to === to && payload.chat ? [{ to, ...payload.chat }] : []));
  };
  const textOf = (sent: Sent | undefined): string => {
    const content = sent?.content;
    if (!content) return '';
    return content.kind === 'text' || content.kind === 'buttons' ? content.text : content.kind === 'document' ? (content.caption ?? '') : '';
  };
  const buttonsOf = (sent: Sent | undefined) => (sent?.content.kind === 'buttons' ? sent.content.buttons : []);
  const last = async (to: string) => (await sentTo(to)).at(-1);

  const send = async (phone: string, content: InboundChatMessage['content'], context?: Partial<ChatContext>) => {
    await handleChatMessage({ ...ctx(), ...context }, { id: `wamid.${++unique}`, from: digits(phone), sentAt: svc.clock.now().toISOString(), content });
  };
  const text = (phone: string, value: string) => send(phone, { kind: 'text', text: value });
  /** Taps the button titled `title` of the latest message that has one (an older message's button can be tapped again). */
  const tap = async (phone: string, title: string) => {
    const button = (await sentTo(phone))
      .map((sent) => buttonsOf(sent).find((b) => b.title === title))
      .filter((b) => b !== undefined)
      .at(-1);
    if (!button) throw new Error(`no button "${title}" sent to ${phone}`);
    await send(phone, { kind: 'button', id: button.id, title: button.title });
  };
  const photo = async (phone: string, bytes: Buffer) => {
    const id = `media-${++unique}`;
    media.put(id, bytes);
    await send(phone, { kind: 'image', mediaId: id, mimeType: 'image/jpeg' });
  };
  const lastCode = async (phone: string): Promise<string> => {
    const code = (await sentTo(phone)).filter((sent) => sent.purpose === 'code').at(-1);
    const found = /\b(\d{6})\b/.exec(textOf(code))?.[1];
    if (!found) throw new Error(`no code sent to ${phone}`);
    return found;
  };

  const createSigning = async (org: TestOrganization, signers: Record<string, unknown>[]) => {
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: org.privateKey,
      body: {
        email: org.email,
        name: 'Lease agreement',
        file: PDF_BASE64,
        signProfile: signers.map((s, i) => ({ name: `Signer ${i}`, email: `s${++unique}@people.test`, ...s })),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    return stored(svc, org, res.json().code);
  };
  const participant = async (org: TestOrganization, code: string, index = 0): Promise<ParticipantRow> => {
    const row = (await stored(svc, org, code)).participants[index];
    if (!row) throw new Error('no participant');
    return row;
  };
  const es = CHAT_WORDS.es;

  describe('a signer with code, ID front and back and face signs in the chat and receives the signed PDF', () => {
    it('runs every step through the signing page’s operations, and sends the sealed document once sealed', async () => {
      similarity = 95;
      const phone = newPhone();
      const { process } = await createSigning(svc.orgA, [{ name: 'José Pérez', phone, ...identified, ...FULL }]);
      const invitation = await last(phone);
      expect(invitation?.purpose).toBe('invitation');
      expect(textOf(invitation)).toContain('Lease agreement');
      expect(buttonsOf(invitation).map((b) => b.title)).toEqual([es.start]);

      await tap(phone, es.start);
      const afterStart = await sentTo(phone);
      const document = afterStart.find((sent) => sent.content.kind === 'document');
      expect(document?.content).toMatchObject({ kind: 'document', mimeType: 'application/pdf', filename: 'Lease agreement.pdf' });
      expect(textOf(afterStart.at(-1))).toBe(es.codeAskPhone);

      await text(phone, await lastCode(phone));
      expect(textOf(await last(phone))).toBe(es.photoFront);
      await photo(phone, photos.card);
      expect(textOf(await last(phone))).toBe(es.photoBack);
      await photo(phone, photos.back);
      expect(textOf(await last(phone))).toBe(es.photoFace);
      await photo(phone, photos.face);
      expect(buttonsOf(await last(phone)).map((b) => b.title)).toEqual([es.acceptAndSign, es.reject]);
      await tap(phone, es.acceptAndSign);
      expect(textOf(await last(phone))).toContain('firmaste «Lease agreement»');

      const signed = await stored(svc, svc.orgA, process.code);
      expect(signed.process.status).toBe('FINISH');
      expect(signed.participants[0]?.signature_key).not.toBeNull();
      const events = await listProcessEvents(svc.deps.db, process.id);
      expect(events.map((e) => e.action)).toEqual(
        expect.arrayContaining(['PARTICIPANT_READ', 'DOCUMENT_OPENED', 'OTP_VERIFIED', 'IDENTITY_VERIFIED', 'PARTICIPANT_SIGN', 'FINISH']),
      );
      const sign = events.find((e) => e.action === 'PARTICIPANT_SIGN');
      expect(sign?.platform).toBe('WHATSAPP');
      expect(JSON.parse(sign?.detail ?? '{}')).toEqual({ signatureKind: 'font', whatsapp: `••••${phone.slice(-4)}` });

      expect(await sealProcess(svc.deps, { processId: process.id })).toBe(true);
      const [finalDocument] = (await listFinalFiles(svc.deps.db, process.id)).filter((file) => file.document_position === 0);
      const delivered = await last(phone);
      expect(delivered).toMatchObject({ purpose: 'document', content: { kind: 'document', blobKey: finalDocument?.file_key, mimeType: 'application/pdf' } });
      expect(delivered?.participantId).toBe(signed.participants[0]?.id);
    });
  });

  describe('a face validation on the WhatsApp platform reaches APPROVED, and the similarity is never told', () => {
    it('asks for the document and the face, then says it is approved', async () => {
      similarity = 91.31;
      const phone = newPhone();
      const res = await call(svc.app, 'POST', '/veriface', { key: svc.orgA.privateKey, body: verifaceBody(svc.orgA.email, { phone }) });
      expect(res.statusCode, res.body).toBe(200);
      expect(buttonsOf(await last(phone)).map((b) => b.title)).toEqual([es.start]);
      await tap(phone, es.start);
      expect(textOf(await last(phone))).toBe(es.photoFront);
      await photo(phone, photos.card);
      expect(textOf(await last(phone))).toBe(es.photoFace);
      await photo(phone, photos.face);
      expect(textOf(await last(phone))).toBe(es.verifaceApproved);
      expect((await findVerifaceByCode(svc.deps.db, svc.orgA.id, res.json().code))?.status).toBe('APPROVED');
      for (const sent of await sentTo(phone)) expect(textOf(sent)).not.toContain('91');
    });
  });

  describe('a face that does not match the document three times blocks the signer, who is told whom to contact', () => {
    it('asks for the face again twice, then blocks', async () => {
      similarity = 10;
      const phone = newPhone();
      const { process } = await createSigning(svc.orgA, [{ phone, ...identified, camera: true, options: { camera: 'identification', whatsapp: true } }]);
      await tap(phone, es.start);
      await photo(phone, photos.card);
      for (let i = 0; i < 2; i++) {
        await photo(phone, photos.face);
        expect(textOf(await last(phone))).toBe(es.photoFaceAgain);
      }
      await photo(phone, photos.face);
      expect(textOf(await last(phone))).toContain(svc.orgA.email);
      expect((await participant(svc.orgA, process.code)).status).toBe('BLOCK');
    });
  });

  describe('a repeated button or message changes nothing', () => {
    it('a second "Empezar" sends no documents again, a second "Acepto y firmo" signs nothing again', async () => {
      similarity = 95;
      const phone = newPhone();
      const { process } = await createSigning(svc.orgA, [{ phone, options: { whatsapp: true } }, { email: 'other@people.test' }]);
      await tap(phone, es.start);
      await tap(phone, es.start);
      expect((await sentTo(phone)).filter((sent) => sent.content.kind === 'document')).toHaveLength(1);
      await tap(phone, es.acceptAndSign);
      const before = await listProcessEvents(svc.deps.db, process.id);
      await tap(phone, es.acceptAndSign);
      expect(await listProcessEvents(svc.deps.db, process.id)).toEqual(before);
      expect(textOf(await last(phone))).toContain('Ya firmaste');
    });
  });

  describe('a signer whose template allows only a drawn signature is sent to their page to draw it', () => {
    it('no "Acepto y firmo" in the chat: the link to their own page instead, and nothing is signed', async () => {
      const phone = newPhone();
      const { process, participants } = await createSigning(svc.orgA, [{ phone, options: { whatsapp: true } }]);
      const [row] = participants;
      if (!row) throw new Error('no participant');
      // As a process of a template whose signature question says allow: ['draw'] keeps it.
      await svc.deps.db.updateTable('participants').set({ signature_kinds: '["draw"]' }).where('id', '=', row.id).execute();
      await tap(phone, es.start);
      const prompt = await last(phone);
      expect(textOf(prompt)).toContain(`debe ser dibujada`);
      expect(textOf(prompt)).toContain(`/s/${row.link_token}`);
      expect(buttonsOf(prompt)).toEqual([]);
      expect((await sentTo(phone)).some((sent) => buttonsOf(sent).some((b) => b.title === es.acceptAndSign))).toBe(false);
      expect((await participant(svc.orgA, process.code)).status).toBe('NOTIFICATION');
    });
  });

  describe("another number cannot act on someone else's flow, and orgB's flows are never answered to orgA's number", () => {
    it('a button id of another number’s flow finds nothing there', async () => {
      const owner = newPhone();
      const stranger = newPhone();
      const { process } = await createSigning(svc.orgB, [{ name: 'Globex signer', phone: owner, options: { whatsapp: true } }]);
      const start = buttonsOf(await last(owner))[0];
      if (!start) throw new Error('no start button');
      await send(stranger, { kind: 'button', id: start.id, title: start.title });
      expect((await participant(svc.orgB, process.code)).opened_at).toBeNull();
      const answers = await sentTo(stranger);
      expect(answers.map(textOf)).toEqual([es.nothingPending]);
      expect(answers.every((sent) => sent.participantId === undefined)).toBe(true);
      // Once a day: a second message of a number with nothing open gets no second answer.
      await text(stranger, 'hola?');
      expect(await sentTo(stranger)).toHaveLength(1);
    });
  });

  describe('a number no organization has a flow for is answered in the language read in its country', () => {
    it('Brazil in Portuguese, France in French, the United States in English, Colombia and an unknown code in Spanish', async () => {
      const cases = [
        ['+5511987650001', 'pt'],
        ['+33612345601', 'fr'],
        ['+12025550101', 'en'],
        ['+573001239901', 'es'],
        ['+97150123401', 'es'],
      ] as const;
      for (const [phone, language] of cases) {
        await text(phone, 'hola?');
        expect((await sentTo(phone)).map(textOf)).toEqual([CHAT_WORDS[language].nothingPending]);
      }
    });
  });

  describe('turns: a participant whose turn has not come is told so, and called when it comes', () => {
    it('the second signer waits, then is invited once the first signs', async () => {
      const first = newPhone();
      const second = newPhone();
      await createSigning(svc.orgA, [
        { phone: first, order: 0, options: { whatsapp: true } },
        { phone: second, order: 1, options: { whatsapp: true } },
      ]);
      expect(await sentTo(second)).toEqual([]);
      await text(second, 'Hola');
      expect(textOf(await last(second))).toBe(CHAT_WORDS.es.notYourTurn.replace('{process}', 'Lease agreement'));
      await tap(first, es.start);
      await tap(first, es.acceptAndSign);
      const call = await last(second);
      expect(call?.purpose).toBe('invitation');
      expect(buttonsOf(call).map((b) => b.title)).toEqual([es.start]);
    });
  });

  describe('two flows on one number: the person is asked which one, and the button chosen decides', () => {
    it('lists both with a button each; the chosen one starts', async () => {
      similarity = 95;
      const phone = newPhone();
      await createSigning(svc.orgA, [{ phone, options: { whatsapp: true } }]);
      svc.clock.advance(1000);
      const res = await call(svc.app, 'POST', '/veriface', { key: svc.orgB.privateKey, body: verifaceBody(svc.orgB.email, { phone }) });
      expect(res.statusCode, res.body).toBe(200);
      await text(phone, 'hola');
      const question = await last(phone);
      expect(textOf(question)).toContain(es.chooseFlow);
      expect(textOf(question)).toContain(`2. ${es.flowVeriface} (Globex)`);
      // Titles fit Meta's 20 characters.
      expect(buttonsOf(question).map((b) => b.title)).toEqual(['1. Lease agreement', '2. Validación de id…']);
      await tap(phone, '2. Validación de id…');
      expect(textOf(await last(phone))).toBe(es.photoFront);
      // The choice is kept: a photo now goes to the face validation.
      await photo(phone, photos.card);
      expect(textOf(await last(phone))).toBe(es.photoFace);
    });

    it("a typed reply quoting a message of the other flow goes to that flow; a quote of another number's message does not", async () => {
      const phone = newPhone();
      const other = newPhone();
      await createSigning(svc.orgA, [{ phone, options: { whatsapp: true } }]);
      await createSigning(svc.orgA, [{ phone: other, options: { whatsapp: true } }]);
      svc.clock.advance(1000);
      const res = await call(svc.app, 'POST', '/veriface', { key: svc.orgB.privateKey, body: verifaceBody(svc.orgB.email, { phone }) });
      expect(res.statusCode, res.body).toBe(200);
      await text(phone, 'hola');
      await tap(phone, '2. Validación de id…');
      // Meta's ids of the two invitations, as the sender records them once Meta accepts each.
      const invitation = (to: string) =>
        svc.deps.db
          .selectFrom('whatsapp_messages')
          .select('id')
          .where('phone', '=', digits(to))
          .where('participant_id', 'is not', null)
          .where('purpose', '=', 'invitation');
      const mine = await invitation(phone).executeTakeFirstOrThrow();
      const theirs = await invitation(other).executeTakeFirstOrThrow();
      const [quoted, quotedOfOther] = [`wamid.quoted.${unique}`, `wamid.theirs.${unique}`];
      await svc.deps.db.updateTable('whatsapp_messages').set({ wamid: quoted }).where('id', '=', mine.id).execute();
      await svc.deps.db.updateTable('whatsapp_messages').set({ wamid: quotedOfOther }).where('id', '=', theirs.id).execute();
      const quoting = (contextId: string) =>
        handleChatMessage(ctx(), {
          id: `wamid.${++unique}`,
          from: digits(phone),
          sentAt: svc.clock.now().toISOString(),
          contextId,
          content: { kind: 'text', text: 'AYUDA' },
        });

      await quoting(quotedOfOther);
      expect((await last(phone))?.verifaceId).toBeDefined();
      await quoting(quoted);
      const answer = await last(phone);
      expect(answer?.participantId).toBeDefined();
      expect(answer?.verifaceId).toBeUndefined();
    });
  });

  describe('AYUDA repeats the current step, and so does anything the conversation cannot read', () => {
    it('AYUDA, help in English and a sticker each get the step again', async () => {
      const phone = newPhone();
      await createSigning(svc.orgA, [{ phone, options: { whatsapp: true } }]);
      await tap(phone, es.start);
      const step = await last(phone);
      for (const content of [
        { kind: 'text', text: 'AYUDA' },
        { kind: 'text', text: 'help' },
        { kind: 'unsupported', type: 'sticker' },
      ] as const) {
        await send(phone, content);
        expect((await last(phone))?.content).toEqual(step?.content);
      }
      // Typing a button's title works as the button does, whatever its accents and case.
      await text(phone, 'ACEPTO Y FIRMO');
      expect(textOf(await last(phone))).toContain('firmaste');
    });
  });

  describe("every message is in the organization's language", () => {
    it('an organization in English talks in English', async () => {
      const phone = newPhone();
      await updateSettings(svc.deps.db, { organizationId: svc.orgB.id, changes: { language: 'en' } });
      try {
        await createSigning(svc.orgB, [{ phone, options: { whatsapp: true } }]);
        expect(buttonsOf(await last(phone)).map((b) => b.title)).toEqual([CHAT_WORDS.en.start]);
        await tap(phone, CHAT_WORDS.en.start);
        expect(buttonsOf(await last(phone)).map((b) => b.title)).toEqual([CHAT_WORDS.en.acceptAndSign, CHAT_WORDS.en.reject]);
      } finally {
        await updateSettings(svc.deps.db, { organizationId: svc.orgB.id, changes: { language: 'es' } });
      }
    });
  });
});

describe('the words of the conversation: every language has every key, with the same marks, and button titles fit Meta', () => {
  const marks = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  const titles = ['start', 'codeResend', 'acceptAndSign', 'approve', 'reject', 'back'] as const;
  for (const [language, words] of Object.entries(CHAT_WORDS)) {
    it(`${language}: the same keys and marks as Spanish, no text empty, every button title at most ${MAX_BUTTON_TITLE} characters`, () => {
      expect(Object.keys(words).sort()).toEqual(Object.keys(CHAT_WORDS.es).sort());
      for (const [key, text] of Object.entries(words)) {
        expect(text.trim(), key).not.toBe('');
        expect(marks(text), key).toEqual(marks(CHAT_WORDS.es[key as keyof typeof words]));
      }
      for (const key of titles) expect(words[key].length, key).toBeLessThanOrEqual(MAX_BUTTON_TITLE);
    });
  }
});
