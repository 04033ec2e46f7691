import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';

describe('Messaging providers are configured from the environment; none means the local mailbox', () => {
  it('nothing set: every channel local, 10 s per delivery', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ smtp: undefined, whatsapp: undefined, sms: undefined, messageTimeoutMs: 10_000 });
  });

  it('SMTP_URL and MAIL_FROM', () => {
    expect(loadConfig({ SMTP_URL: 'smtps://u:p%40ss@smtp.example.com:465', MAIL_FROM: 'Firma <no-reply@example.com>' }).smtp).toEqual({
      url: 'smtps://u:p%40ss@smtp.example.com:465',
      from: 'Firma <no-reply@example.com>',
    });
  });

  it('WhatsApp token and phone number id, Meta by default', () => {
    expect(loadConfig({ WHATSAPP_TOKEN: 'EAAG', WHATSAPP_PHONE_NUMBER_ID: '1065' }).whatsapp).toEqual({
      token: 'EAAG',
      phoneNumberId: '1065',
      baseUrl: 'https://graph.facebook.com/v21.0',
    });
  });

  it('SMS provider sid, token and from, Twilio by default', () => {
    expect(loadConfig({ SMS_PROVIDER_SID: 'AC1', SMS_PROVIDER_TOKEN: 't', SMS_PROVIDER_FROM: '+1' }).sms).toEqual({
      baseUrl: 'https://api.twilio.com',
      accountSid: 'AC1',
      authToken: 't',
      from: '+1',
    });
  });

  for (const [env, message] of [
    [{ SMTP_URL: 'http://smtp.example.com' }, '"SMTP_URL" must be a valid uri with a scheme matching the smtp|smtps pattern'],
    [{ SMTP_URL: 'smtp://smtp.example.com' }, '"MAIL_FROM" is required'],
    [{ WHATSAPP_TOKEN: 'x' }, '"value" contains [WHATSAPP_TOKEN] without its required peers [WHATSAPP_PHONE_NUMBER_ID]'],
    [{ WHATSAPP_TOKEN: 'x', WHATSAPP_PHONE_NUMBER_ID: '+57' }, '"WHATSAPP_PHONE_NUMBER_ID" with value "+57" fails to match the required pattern: /^\\d+$/'],
    [{ SMS_PROVIDER_SID: 'AC1' }, '"value" contains [SMS_PROVIDER_SID] without its required peers [SMS_PROVIDER_TOKEN, SMS_PROVIDER_FROM]'],
    [{ MESSAGE_TIMEOUT_MS: '60000' }, '"MESSAGE_TIMEOUT_MS" must be shorter than OUTBOX_LEASE_MS'],
  ] as const) {
    it(`refuses ${JSON.stringify(env)}`, () => {
      expect(() => loadConfig(env)).toThrow(message);
    });
  }
});
