import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { smsHandler } from '../../src/messages/handlers.js';
import { type TwilioSmsOptions, TwilioSmsSender } from '../../src/messages/twilio-sms.js';
import type { SmsPayload } from '../../src/outbox/types.js';
import { type HttpReceiver, startHttpReceiver } from '../support/http-receiver.js';
import { outboxMessage } from '../support/outbox-message.js';
import { closedPort } from '../support/ports.js';

/* Against a local HTTP server standing in for Twilio's Messages API. */

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-auth-token';

let twilio: HttpReceiver;

beforeAll(async () => {
  twilio = await startHttpReceiver();
});

afterAll(async () => {
  await twilio.close();
});

beforeEach(() => {
  twilio.received.length = 0;
  twilio.answer(() => ({ status: 201, json: { sid: 'SM0123456789abcdef0123456789abcdef', status: 'queued' } }));
});

const deliver = (payload: SmsPayload, options: Partial<TwilioSmsOptions> = {}) =>
  smsHandler(new TwilioSmsSender({ accountSid: SID, authToken: TOKEN, from: '+15005550006', baseUrl: twilio.url, ...options })).deliver(
    outboxMessage('sms', payload),
  );

describe("An SMS is posted to Twilio's Messages API", () => {
  it('POST /2010-04-01/Accounts/{sid}/Messages.json, basic auth sid:token, form-encoded To, From and Body', async () => {
    await deliver({ to: '+573001234567', text: 'Hello & welcome' });
    const [request] = twilio.received;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({ To: '+573001234567', From: '+15005550006', Body: 'Hello & welcome' });
  });

  it('is delivered with the sid Twilio returned', async () => {
    expect(await deliver({ to: '+573001234567', text: 'Hello' })).toMatchObject({ ok: true, statusCode: 201, response: 'SM0123456789abcdef0123456789abcdef' });
  });
});

describe("Twilio's refusals are retried only when later may work", () => {
  it("400 is permanent, with Twilio's message", async () => {
    twilio.answer(() => ({ status: 400, json: { code: 21211, message: "The 'To' number 12 is not a valid phone number.", status: 400 } }));
    expect(await deliver({ to: '12', text: 'Hello' })).toMatchObject({
      ok: false,
      retryable: false,
      statusCode: 400,
      error: "HTTP 400: The 'To' number 12 is not a valid phone number.",
    });
  });

  it('429 and 503 are retryable', async () => {
    twilio.answer(() => ({ status: 429, json: { code: 20429, message: 'Too Many Requests', status: 429 } }));
    expect(await deliver({ to: '+573001234567', text: 'Hello' })).toMatchObject({ ok: false, retryable: true, statusCode: 429 });
    twilio.answer(() => ({ status: 503, text: 'unavailable' }));
    expect(await deliver({ to: '+573001234567', text: 'Hello' })).toMatchObject({ ok: false, retryable: true, statusCode: 503 });
  });

  it('no answer within the timeout, or no connection, is retryable', async () => {
    twilio.answer(() => 'no answer');
    expect(await deliver({ to: '+573001234567', text: 'Hello' }, { timeoutMs: 200 })).toMatchObject({ ok: false, retryable: true });
    const down = await deliver({ to: '+573001234567', text: 'Hello' }, { baseUrl: `http://127.0.0.1:${await closedPort()}` });
    expect(down).toMatchObject({ ok: false, retryable: true });
  });
});
