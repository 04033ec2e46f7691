import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remindDueParticipants } from '../../src/documents/lifecycle/process-sweeps.js';
import { requestOtp } from '../../src/documents/participant/signer-flow.js';
import { listMailbox, type MailboxEntry, mailboxDir } from '../../src/messages/local-mailbox.js';
import { renderMessage, type TemplateName } from '../../src/messages/message-templates.js';
import { LANGUAGES, type Language } from '../../src/organizations/languages.js';
import { setSdkIntegration } from '../../src/organizations/organizations.js';
import { pageAssets } from '../../src/people/assets.js';
import { emailSigningCopy, sendSigningLinkToPhone } from '../../src/people/send-link.js';
import { say } from '../../src/people/words-chat.js';
import { MESSAGE_WORDS, type MessageWords } from '../../src/people/words-messages.js';
import { verifaceBody } from '../support/fixtures.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from '../support/service.js';
import { createProcess, outbox, pdfProcess, stored } from '../support/signing.js';

const HOUR = 60 * 60 * 1000;
const PARTS: (keyof MessageWords)[] = ['subject', 'text', 'html'];
const NAMES = Object.keys(MESSAGE_WORDS.es) as TemplateName[];

const placeholders = (part: string) => [...part.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('Every language has every message, with the same {{variables}} in each part as Spanish', () => {
  for (const language of LANGUAGES) {
    it(`${language}: the ${NAMES.length} messages, each subject, text and html asking for what Spanish asks`, () => {
      expect(Object.keys(MESSAGE_WORDS[language]).sort()).toEqual([...NAMES].sort());
      for (const name of NAMES) {
        for (const part of PARTS) {
          expect(placeholders(MESSAGE_WORDS[language][name][part]), `${language} ${name} ${part}`).toEqual(placeholders(MESSAGE_WORDS.es[name][part]));
        }
      }
    });
  }
});

describe('The one-time code stays out of the subject, in every language', () => {
  for (const language of LANGUAGES) {
    it(`${language}: the code is in the text and the html, never in the subject`, () => {
      const message = renderMessage('otp-code', { code: '482913', minutes: 10 }, language);
      expect(message.text).toContain('482913');
      expect(message.html).toContain('<strong>482913</strong>');
      expect(message.subject).not.toContain('482913');
    });
  }
});

describe('An e-mail says its language in <html lang>', () => {
  for (const language of LANGUAGES) {
    it(`${language}: <html lang="${language}">`, () => {
      expect(renderMessage('process-finished', { processName: 'P', link: 'L' }, language).html).toMatch(
        new RegExp(`^<!doctype html>\\n<html lang="${language}">`),
      );
    });
  }
});

describe("The messages' words stay out of the pages' browser bundle", () => {
  it('the script the pages load carries none of the messages, in any language', async () => {
    const assets = await pageAssets();
    const script = assets.byPath.get(assets.script)?.body.toString('utf8') ?? '';
    expect(script.length).toBeGreaterThan(10_000);
    // Only the messages write a variable as {{name}} (the pages' words say {name}), and the bundle keeps strings as they are.
    const variables = new Set(
      LANGUAGES.flatMap((language) => NAMES.flatMap((name) => PARTS.flatMap((part) => placeholders(MESSAGE_WORDS[language][name][part])))),
    );
    expect(variables.size).toBeGreaterThan(5);
    for (const variable of variables) expect(script.includes(`{{${variable}}}`), `the bundle carries {{${variable}}}`).toBe(false);
  });
});

/** What a person reads first in each message, as each language says it. */
const EXPECTED: Record<
  Language,
  {
    invitation: string;
    reminderSubject: string;
    reminder: string;
    codeSubject: string;
    code: RegExp;
    verifaceSubject: string;
    veriface: string;
    cancelledSubject: string;
    copySubject: string;
    onPhone: string;
  }
> = {
  es: {
    invitation: 'Hola, Ana:\n\nTe invitaron a firmar «Lease».',
    reminderSubject: 'Recordatorio: «Lease» espera tu firma',
    reminder: '«Lease» todavía espera tu firma.',
    codeSubject: 'Tu código de verificación',
    code: /^Tu código de verificación es \d{6}\. Vence en 10 minutos\. No lo compartas con nadie\.$/,
    verifaceSubject: 'Valida tu identidad',
    veriface: 'Hola, Juan Pérez:\n\nValida tu identidad con una foto de tu documento y una de tu cara, aquí:',
    cancelledSubject: 'Documento cancelado: «Lease»',
    copySubject: 'Tu copia de «Lease»',
    onPhone: 'Sigue con «Lease» en tu teléfono aquí: http',
  },
  en: {
    invitation: 'Hello Ana,\n\nYou are invited to sign "Lease".',
    reminderSubject: 'Reminder: "Lease" is waiting for you',
    reminder: '"Lease" is still waiting for you.',
    codeSubject: 'Your verification code',
    code: /^Your verification code is \d{6}\. It is valid for 10 minutes\. Do not share it with anyone\.$/,
    verifaceSubject: 'Confirm your identity',
    veriface: 'Hello Juan Pérez,\n\nConfirm your identity with a photo of your ID and one of your face, here:',
    cancelledSubject: '"Lease" was cancelled',
    copySubject: 'Your copy of "Lease"',
    onPhone: 'Continue "Lease" on your phone here: http',
  },
  pt: {
    invitation: 'Olá, Ana,\n\nVocê tem um documento para assinar: “Lease”.',
    reminderSubject: 'Lembrete: “Lease” aguarda sua assinatura',
    reminder: '“Lease” ainda aguarda sua assinatura.',
    codeSubject: 'Seu código de verificação',
    code: /^Seu código de verificação é \d{6}\. Ele vale por 10 minutos\. Não o compartilhe com ninguém\.$/,
    verifaceSubject: 'Confirme sua identidade',
    veriface: 'Olá, Juan Pérez,\n\nConfirme sua identidade com uma foto do seu documento e uma do seu rosto, aqui:',
    cancelledSubject: 'Documento cancelado: “Lease”',
    copySubject: 'Sua cópia de “Lease”',
    onPhone: 'Continue “Lease” no seu telefone aqui: http',
  },
  fr: {
    invitation: 'Bonjour Ana,\n\nVous avez un document à signer : « Lease ».',
    reminderSubject: 'Rappel : « Lease » attend votre signature',
    reminder: '« Lease » attend toujours votre signature.',
    codeSubject: 'Votre code de vérification',
    code: /^Votre code de vérification est \d{6}\. Il est valable 10 minutes\. Ne le communiquez à personne\.$/,
    verifaceSubject: 'Confirmez votre identité',
    veriface: 'Bonjour Juan Pérez,\n\nConfirmez votre identité avec une photo de votre pièce d’identité et une de votre visage, ici :',
    cancelledSubject: 'Document annulé : « Lease »',
    copySubject: 'Votre copie de « Lease »',
    onPhone: 'Continuez « Lease » sur votre téléphone ici : http',
  },
};

let unique = 0;

/** Recipients no other test of the file writes to, so the mailbox tells whose message is whose. */
function people() {
  const n = ++unique;
  const phone = (i: number) => `+57300${String(n * 10 + i).padStart(7, '0')}`;
  return {
    ana: { name: 'Ana', email: `ana-${n}@people.test`, otpCode: true },
    luis: { name: 'Luis', email: `luis-${n}@people.test`, phone: phone(1), otpCode: true, options: { whatsapp: true, otpCode: 'phone' } },
    eva: { name: 'Eva', email: `eva-${n}@people.test`, phone: phone(2), otpCode: true, options: { otpCode: 'phone' } },
    juan: { email: `juan-${n}@people.test`, phone: phone(3) },
  };
}

type People = ReturnType<typeof people>;

describe.each(dialects)("Every message in the organization's language (%s)", (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
    // The face validation's e-mail goes out only with the SDK integration (create-veriface.ts).
    for (const org of [svc.orgA, svc.orgB]) await setSdkIntegration(svc.deps.db, { organizationId: org.id, enabled: true });
  });
  afterAll(async () => svc.close());

  const setLanguage = async (org: TestOrganization, language: Language) => {
    const res = await call(svc.app, 'PUT', '/organization', { key: org.privateKey, body: { language } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().language).toBe(language);
  };

  /**
   * For each organization at once: an invitation (e-mail, WhatsApp), a reminder, a code by e-mail,
   * WhatsApp and SMS, a copy, the link to a phone, both face-validation invitations and the
   * cancellation; then the worker delivers them together.
   */
  const causeEveryMessage = async (...batch: [TestOrganization, People][]) => {
    const codes: string[] = [];
    for (const [org, to] of batch) {
      codes.push(await createProcess(svc, org, '/document/upload', pdfProcess(org, { remember: 3, signProfile: [to.ana, to.luis, to.eva] })));
    }
    svc.clock.advance(3 * HOUR);
    await remindDueParticipants(svc.deps);
    for (const [i, [org, to]] of batch.entries()) {
      const code = codes[i] ?? '';
      const participants = (await stored(svc, org, code)).participants;
      const tokenOf = (email: string) => participants.find((p) => p.email === email)?.link_token ?? '';
      for (const { link_token: token } of participants) await requestOtp(svc.deps, { token });
      await emailSigningCopy(svc.deps, { token: tokenOf(to.ana.email) });
      await sendSigningLinkToPhone(svc.deps, { token: tokenOf(to.eva.email), channel: 'sms' });
      for (const platform of ['whatsapp', 'web']) {
        const res = await call(svc.app, 'POST', '/veriface', {
          key: org.privateKey,
          body: verifaceBody(org.email, { platform, phone: to.juan.phone, userEmail: to.juan.email }),
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      // Closed, so that a later test's reminders sweep leaves it alone.
      const cancelled = await call(svc.app, 'POST', '/document/cancel', { key: org.privateKey, body: { codes: [code], message: 'Done', email: org.email } });
      expect(cancelled.json()).toMatchObject({ success: 1 });
    }
    await svc.deps.worker.deliverDue();
  };

  const mailbox = async () => listMailbox(mailboxDir(svc.config.dataDir), { limit: 10_000 });
  const sent = (entries: MailboxEntry[], to: string, template?: TemplateName) =>
    entries.filter((e) => e.to === to && (template === undefined || e.message.template === template)).map((e) => e.message);
  const only = <T>(found: T[]): T => {
    expect(found).toHaveLength(1);
    return found[0] as T;
  };

  /** The texts of the WhatsApp conversation's messages to `phone` (src/whatsapp/conversation), oldest first. */
  const chatTexts = async (phone: string): Promise<string[]> =>
    (await outbox(svc, 'whatsapp'))
      .map((row) => row.body as { to: string; chat?: { content: { text?: string } } })
      .flatMap((body) => (body.to === phone && body.chat ? [body.chat.content.text ?? ''] : []));

  const expectAllIn = async (entries: MailboxEntry[], org: { name: string }, to: People, language: Language) => {
    const words = EXPECTED[language];
    const invitation = only(sent(entries, to.ana.email, 'signing-invitation'));
    expect(invitation.text).toContain(words.invitation);
    expect(invitation.html).toContain(`<html lang="${language}">`);
    expect(only(sent(entries, to.eva.email, 'signing-invitation')).text).toContain(words.invitation.replace('Ana', 'Eva'));
    // WhatsApp without an approved template: the conversation's own words, in the same language.
    const chats = await chatTexts(to.luis.phone);
    const invited = say(language, 'signingInvitation', { name: 'Luis', process: 'Lease', organization: org.name });
    expect(chats.filter((text) => text === invited)).toHaveLength(2); // the invitation, then the reminder
    const codeWords = say(language, 'codeMessage', { code: 'CODE', minutes: 10 });
    expect(chats.filter((text) => text.replace(/\b\d{6}\b/, 'CODE') === codeWords)).toHaveLength(1);

    const reminder = only(sent(entries, to.ana.email, 'signing-reminder'));
    expect(reminder.subject).toBe(words.reminderSubject);
    expect(reminder.text).toContain(words.reminder);

    const code = only(sent(entries, to.ana.email, 'otp-code'));
    expect(code.subject).toBe(words.codeSubject);
    expect(code.text).toMatch(words.code);
    expect(code.html).toContain(`<html lang="${language}">`);
    const texts = sent(entries, to.eva.phone).map((m) => String(m.text));
    expect(texts.filter((text) => words.code.test(text))).toHaveLength(1);
    expect(texts.filter((text) => text.startsWith(words.onPhone))).toHaveLength(1);
    expect(only(sent(entries, to.ana.email, 'document-copy')).subject).toBe(words.copySubject);
    expect(only(sent(entries, to.ana.email, 'process-cancelled')).subject).toBe(words.cancelledSubject);

    const veriface = only(sent(entries, to.juan.email, 'veriface-invitation'));
    expect(veriface.subject).toBe(words.verifaceSubject);
    expect(veriface.text).toContain(words.veriface);
    expect(await chatTexts(to.juan.phone)).toEqual([say(language, 'verifaceInvitation', { name: 'Juan Pérez', organization: org.name })]);
  };

  for (const language of LANGUAGES) {
    it(`${language}: an invitation, a reminder, a code and a face-validation invitation of an organization set to ${language} arrive in ${language}, by e-mail, WhatsApp and SMS; so do the copy, the link to the phone and the cancellation`, async () => {
      await setLanguage(svc.orgA, language);
      const to = people();
      await causeEveryMessage([svc.orgA, to]);
      await expectAllIn(await mailbox(), { name: 'Acme' }, to, language);
    });
  }

  it('orgA in pt and orgB in the default es at the same time: each organization’s people read its own language, never the other’s', async () => {
    await setLanguage(svc.orgA, 'pt');
    const toA = people();
    const toB = people();
    await causeEveryMessage([svc.orgA, toA], [svc.orgB, toB]);
    const entries = await mailbox();
    await expectAllIn(entries, { name: 'Acme' }, toA, 'pt');
    await expectAllIn(entries, { name: 'Globex' }, toB, 'es');
    expect((await call(svc.app, 'GET', '/organization', { key: svc.orgB.privateKey })).json().language).toBe('es');

    // Each message is queued as its organization's: none of one organization's reaches the other's people.
    const owners = new Map<string, Set<string | null>>();
    for (const kind of ['email', 'whatsapp', 'sms'] as const) {
      for (const row of await outbox(svc, kind)) owners.set(String(row.body.to), (owners.get(String(row.body.to)) ?? new Set()).add(row.organization_id));
    }
    for (const [to, org] of [
      [toA, svc.orgA],
      [toB, svc.orgB],
    ] as const) {
      for (const address of [to.ana.email, to.luis.phone, to.eva.phone, to.juan.email, to.juan.phone]) {
        expect([...(owners.get(address) ?? [])], address).toEqual([org.id]);
      }
    }
  });

  it("an approved WhatsApp template keeps WHATSAPP_TEMPLATE_LANGUAGE whatever the organization's language; the SMS beside it follows the organization", async () => {
    const templated = await startTestService(dialect, {
      WHATSAPP_SIGNING_TEMPLATE: 'firma',
      WHATSAPP_OTP_TEMPLATE: 'codigo',
      WHATSAPP_TEMPLATE_LANGUAGE: 'es_CO',
    });
    try {
      const res = await call(templated.app, 'PUT', '/organization', { key: templated.orgA.privateKey, body: { language: 'fr' } });
      expect(res.statusCode, res.body).toBe(200);
      const to = people();
      const code = await createProcess(templated, templated.orgA, '/document/upload', pdfProcess(templated.orgA, { signProfile: [to.luis, to.eva] }));
      for (const { link_token: token } of (await stored(templated, templated.orgA, code)).participants) await requestOtp(templated.deps, { token });
      const chats = (await outbox(templated, 'whatsapp')).filter((m) => m.body.to === to.luis.phone).map((m) => m.body);
      expect(chats).toMatchObject([
        {
          to: to.luis.phone,
          chat: { content: { kind: 'template', name: 'firma', language: 'es_CO', parameters: ['Luis', 'Lease', expect.stringContaining('/s/')] } },
        },
        { to: to.luis.phone, chat: { content: { kind: 'template', name: 'codigo', language: 'es_CO', parameters: [expect.stringMatching(/^\d{6}$/)] } } },
      ]);
      const sms = (await outbox(templated, 'sms')).filter((m) => m.body.to === to.eva.phone);
      expect(String(only(sms).body.text)).toMatch(EXPECTED.fr.code);
    } finally {
      await templated.close();
    }
  });
});
