import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { whatsAppHandler } from '../../src/messages/handlers.js';
import { type WhatsAppCloudOptions, WhatsAppCloudSender } from '../../src/messages/whatsapp-cloud.js';
import type { WhatsAppPayload } from '../../src/outbox/types.js';
import { type HttpReceiver, type ReceivedRequest, type Reply, startHttpReceiver } from '../support/http-receiver.js';
import { outboxMessage } from '../support/outbox-message.js';
import { closedPort } from '../support/ports.js';

/* Against a local HTTP server standing in for Meta's WhatsApp Business Cloud API. */

const TOKEN = 'EAAG-test-token';
const PHONE_NUMBER_ID = '106540352242922';

let meta: HttpReceiver;

beforeAll(async () => {
  meta = await startHttpReceiver();
});

afterAll(async () => {
  await meta.close();
});

/** Meta's answer to a well-formed send: the contact and the message id. */
function acceptLikeMeta(request: ReceivedRequest): Reply {
  const body: unknown = JSON.parse(request.body);
  const to = typeof body === 'object' && body !== null && 'to' in body && typeof body.to === 'string' ? body.to : '';
  return {
    status: 200,
    json: {
      messaging_product: 'whatsapp',
      contacts: [{ input: to, wa_id: to }],
      messages: [{ id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA' }],
    },
  };
}

function metaError(status: number, message: string, code: number): Reply {
  return { status, json: { error: { message, type: 'OAuthException', code, fbtrace_id: 'AbCdEf123' } } };
}

function sender(options: Partial<WhatsAppCloudOptions> = {}): WhatsAppCloudSender {
  return new WhatsAppCloudSender({ token: TOKEN, phoneNumberId: PHONE_NUMBER_ID, baseUrl: `${meta.url}/v21.0`, ...options });
}

const deliver = (payload: WhatsAppPayload, options: Partial<WhatsAppCloudOptions> = {}) =>
  whatsAppHandler(sender(options)).deliver(outboxMessage('whatsapp', payload));

beforeEach(() => {
  meta.received.length = 0;
  meta.answer(acceptLikeMeta);
});

describe('A WhatsApp message is posted to the Cloud API exactly as Meta documents it', () => {
  it('goes to POST {base}/{phone-number-id}/messages with the Bearer token, as JSON', async () => {
    await deliver({ to: '+57 300 123 4567', text: 'Hello' });
    expect(meta.received).toHaveLength(1);
    const [request] = meta.received;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe(`/v21.0/${PHONE_NUMBER_ID}/messages`);
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request?.headers['content-type']).toBe('application/json');
  });

  it('free text: type text, no link preview, the number in digits without +', async () => {
    await deliver({ to: '+57 300 123 4567', text: 'Your document is ready.' });
    expect(JSON.parse(meta.received[0]?.body ?? '')).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '573001234567',
      type: 'text',
      text: { preview_url: false, body: 'Your document is ready.' },
    });
  });

  it('an approved template: its name, language code and body parameters in order', async () => {
    await deliver({ to: '573001234567', template: { name: 'signing_invitation', language: 'es_CO', parameters: ['Ana', 'Purchase agreement'] } });
    expect(JSON.parse(meta.received[0]?.body ?? '')).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '573001234567',
      type: 'template',
      template: {
        name: 'signing_invitation',
        language: { code: 'es_CO' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ana' },
              { type: 'text', text: 'Purchase agreement' },
            ],
          },
        ],
      },
    });
  });

  it('a template without parameters is sent without components', async () => {
    await deliver({ to: '573001234567', template: { name: 'hello_world', language: 'en_US', parameters: [] } });
    const body: unknown = JSON.parse(meta.received[0]?.body ?? '');
    expect(body).toMatchObject({ type: 'template', template: { name: 'hello_world', language: { code: 'en_US' } } });
    expect(body).not.toHaveProperty('template.components');
  });

  it('is delivered with the message id Meta returned (messages[0].id), timed', async () => {
    const outcome = await deliver({ to: '573001234567', text: 'Hello' });
    expect(outcome).toMatchObject({ ok: true, statusCode: 200, response: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA' });
    expect(outcome.durationMs).toBeGreaterThan(0);
  });
});

describe("Meta's refusals are retried only when later may work", () => {
  it("400 is permanent: not retryable, with Meta's error.message", async () => {
    meta.answer(() => metaError(400, '(#131030) Recipient phone number not in allowed list', 131030));
    const outcome = await deliver({ to: '573001234567', text: 'Hello' });
    expect(outcome).toMatchObject({ ok: false, retryable: false, statusCode: 400 });
    expect(outcome.error).toBe('HTTP 400: (#131030) Recipient phone number not in allowed list');
  });

  it('500 is retryable', async () => {
    meta.answer(() => metaError(500, '(#131000) Something went wrong', 131000));
    expect(await deliver({ to: '573001234567', text: 'Hello' })).toMatchObject({ ok: false, retryable: true, statusCode: 500 });
  });

  it('a 5xx answer that is not JSON is retryable too', async () => {
    meta.answer(() => ({ status: 502, text: '<html>Bad Gateway</html>' }));
    expect(await deliver({ to: '573001234567', text: 'Hello' })).toMatchObject({ ok: false, retryable: true, statusCode: 502, error: 'HTTP 502' });
  });

  it('429 (too many requests) is retryable', async () => {
    meta.answer(() => metaError(429, '(#130429) Rate limit hit', 130429));
    expect(await deliver({ to: '573001234567', text: 'Hello' })).toMatchObject({ ok: false, retryable: true, statusCode: 429 });
  });

  it('no answer within the timeout is retryable', async () => {
    meta.answer(() => 'no answer');
    const outcome = await deliver({ to: '573001234567', text: 'Hello' }, { timeoutMs: 200 });
    expect(outcome).toMatchObject({ ok: false, retryable: true, error: 'no answer within 200 ms' });
    expect(outcome.statusCode).toBeUndefined();
    expect(outcome.durationMs).toBeLessThan(5_000);
  });

  it('the API unreachable is retryable', async () => {
    const outcome = await deliver({ to: '573001234567', text: 'Hello' }, { baseUrl: `http://127.0.0.1:${await closedPort()}/v21.0` });
    expect(outcome).toMatchObject({ ok: false, retryable: true });
    expect(outcome.error).toMatch(/ECONNREFUSED/);
  });
});

describe('A message with nothing to send fails at once, without calling Meta', () => {
  it('neither text nor template', async () => {
    expect(await deliver({ to: '573001234567' })).toMatchObject({ ok: false, retryable: false });
    expect(meta.received).toHaveLength(0);
  });

  it('no digits in the number', async () => {
    expect(await deliver({ to: 'ana', text: 'Hello' })).toMatchObject({ ok: false, retryable: false });
    expect(meta.received).toHaveLength(0);
  });
});
