import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailHandler, smsHandler, whatsAppHandler } from '../../src/messages/handlers.js';
import { renderMessage } from '../../src/messages/message-templates.js';
import { SmtpMailer } from '../../src/messages/smtp-mailer.js';
import { TwilioSmsSender } from '../../src/messages/twilio-sms.js';
import { WhatsAppCloudSender } from '../../src/messages/whatsapp-cloud.js';
import type { DeliveryOutcome, EmailPayload } from '../../src/outbox/types.js';
import { type HttpReceiver, startHttpReceiver } from '../support/http-receiver.js';
import { outboxMessage } from '../support/outbox-message.js';
import { type LocalSmtp, partsOf, startLocalSmtp } from '../support/smtp.js';

/*
 * Providers that quote what they got, in their refusals and in their acceptances: the attempt log
 * must still never hold the one-time code, the signing link's token or the message's text.
 */

const CODE = '482913';
const LINK_TOKEN = 'q7Vt2Jm9Lx0RbK3s';
const otp = renderMessage('otp-code', { code: CODE, minutes: 10 }, 'es');
const otpEmail: EmailPayload = { to: 'ana@example.test', ...otp };
const invitationEmail: EmailPayload = {
  to: 'ana@example.test',
  ...renderMessage(
    'signing-invitation',
    {
      subject: 'Please sign',
      signerName: 'Ana',
      processName: 'Lease',
      message: 'Thanks',
      link: `https://firma.test/sign/${LINK_TOKEN}`,
    },
    'es',
  ),
};

function expectNothingOfTheMessage(outcome: DeliveryOutcome): void {
  const logged = `${outcome.response ?? ''} ${outcome.error ?? ''}`;
  expect(logged).not.toContain(CODE);
  expect(logged).not.toContain(LINK_TOKEN);
  expect(logged).not.toContain(otp.text);
  expect(outcome.response?.length ?? 0).toBeLessThanOrEqual(200);
  expect(outcome.error?.length ?? 0).toBeLessThanOrEqual(200);
}

const textPartOf = (raw: string) =>
  partsOf(raw)
    .find((part) => part.contentType.startsWith('text/plain'))
    ?.body.replace(/\r\n/g, ' ') ?? raw;

describe('No attempt record carries the message, its one-time code or its link', () => {
  let quotingSmtp: LocalSmtp;
  let refusingSmtp: LocalSmtp;
  let api: HttpReceiver;
  const mailers: SmtpMailer[] = [];

  beforeAll(async () => {
    quotingSmtp = await startLocalSmtp({ acceptReply: (raw) => `Ok: queued "${textPartOf(raw)}"` });
    refusingSmtp = await startLocalSmtp({ refuseData: (raw) => ({ code: 554, message: `5.7.1 Content rejected: "${textPartOf(raw)}"` }) });
    api = await startHttpReceiver();
  });

  afterAll(async () => {
    for (const mailer of mailers) mailer.close();
    await quotingSmtp.close();
    await refusingSmtp.close();
    await api.close();
  });

  const mailer = (url: string) => {
    const created = new SmtpMailer({ url, from: 'no-reply@firma.test' });
    mailers.push(created);
    return created;
  };

  it('an SMTP server that quotes the message when it accepts it', async () => {
    for (const mail of [otpEmail, invitationEmail]) {
      const outcome = await emailHandler(mailer(quotingSmtp.url)).deliver(outboxMessage('email', mail));
      expect(outcome.ok).toBe(true);
      expect(outcome.response).toContain('[redacted]');
      expectNothingOfTheMessage(outcome);
    }
  });

  it('an SMTP server that quotes the message when it refuses it', async () => {
    for (const mail of [otpEmail, invitationEmail]) {
      const outcome = await emailHandler(mailer(refusingSmtp.url)).deliver(outboxMessage('email', mail));
      expect(outcome).toMatchObject({ ok: false, retryable: false, statusCode: 554 });
      expect(outcome.error).toContain('Content rejected');
      expectNothingOfTheMessage(outcome);
    }
  });

  it('a WhatsApp API that quotes the text and the template parameters it refuses', async () => {
    api.answer((request) => {
      const quoted = /"(?:body|text)":"([^"]*)"/.exec(request.body)?.[1] ?? '';
      return { status: 400, json: { error: { message: `(#100) Invalid parameter: "${quoted}"`, code: 100 } } };
    });
    const sender = new WhatsAppCloudSender({ token: 't', phoneNumberId: '1', baseUrl: api.url });
    const template = await whatsAppHandler(sender).deliver(
      outboxMessage('whatsapp', { to: '573001234567', template: { name: 'otp', language: 'es', parameters: [CODE] } }),
    );
    const text = await whatsAppHandler(sender).deliver(outboxMessage('whatsapp', { to: '573001234567', text: otp.text }));
    for (const outcome of [template, text]) {
      expect(outcome).toMatchObject({ ok: false, retryable: false, statusCode: 400 });
      expect(outcome.error).toContain('Invalid parameter');
      expectNothingOfTheMessage(outcome);
    }
  });

  it('an SMS API that quotes the text it refuses', async () => {
    api.answer((request) => ({ status: 400, json: { code: 21617, message: `Body too long: ${new URLSearchParams(request.body).get('Body') ?? ''}` } }));
    const sender = new TwilioSmsSender({ accountSid: 'AC1', authToken: 't', from: '+1', baseUrl: api.url });
    const outcome = await smsHandler(sender).deliver(outboxMessage('sms', { to: '+573001234567', text: otp.text }));
    expect(outcome).toMatchObject({ ok: false, statusCode: 400 });
    expectNothingOfTheMessage(outcome);
  });

  it('any other failure whose message quotes the text', async () => {
    const outcome = await smsHandler({ send: () => Promise.reject(new Error(`could not queue "${otp.text}"`)) }).deliver(
      outboxMessage('sms', { to: '+1', text: otp.text }),
    );
    expect(outcome.ok).toBe(false);
    expectNothingOfTheMessage(outcome);
  });
});
