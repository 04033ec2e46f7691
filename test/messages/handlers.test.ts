import { describe, expect, it } from 'vitest';
import { emailHandler, smsHandler, whatsAppHandler } from '../../src/messages/handlers.js';
import { SendError } from '../../src/messages/send-result.js';
import type { EmailPayload, OutboxHandler, OutboxMessage } from '../../src/outbox/types.js';
import { outboxMessage } from '../support/outbox-message.js';

const mail: EmailPayload = { to: 'ana@example.test', subject: 'Hi', text: 'Hello' };

/** What the worker hands over: the payload as parsed from the database, unchecked. */
function fromDatabase(kind: 'email' | 'whatsapp' | 'sms', payload: unknown): OutboxMessage {
  return outboxMessage(kind, payload);
}

describe('A payload that is not what its kind needs fails at once, without sending', () => {
  const nothingSent = () => Promise.reject(new Error('must not be called'));
  const cases: [string, OutboxHandler, OutboxMessage][] = [
    ['e-mail without subject', emailHandler({ send: nothingSent }), fromDatabase('email', { to: 'a@b.test', text: 'x' })],
    ['e-mail with a numeric html', emailHandler({ send: nothingSent }), fromDatabase('email', { ...mail, html: 1 })],
    [
      'WhatsApp with parameters that are not text',
      whatsAppHandler({ send: nothingSent }),
      fromDatabase('whatsapp', { to: '1', template: { name: 'n', language: 'es', parameters: [1] } }),
    ],
    ['SMS that is not an object', smsHandler({ send: nothingSent }), fromDatabase('sms', 'hello')],
  ];
  for (const [name, handler, message] of cases) {
    it(name, async () => {
      expect(await handler.deliver(message)).toEqual({ ok: false, retryable: false, durationMs: 0, error: `Malformed ${message.kind} payload` });
    });
  }
});

describe("A sender's SendError decides the outcome: retryable or not, with its status", () => {
  it('a permanent refusal', async () => {
    const handler = emailHandler({ send: () => Promise.reject(new SendError('550 Unknown mailbox', { retryable: false, statusCode: 550 })) });
    expect(await handler.deliver(outboxMessage('email', mail))).toMatchObject({ ok: false, retryable: false, statusCode: 550, error: '550 Unknown mailbox' });
  });

  it('a passing one', async () => {
    const handler = smsHandler({ send: () => Promise.reject(new SendError('HTTP 503', { retryable: true, statusCode: 503 })) });
    expect(await handler.deliver(outboxMessage('sms', { to: '+1', text: 'x' }))).toMatchObject({ ok: false, retryable: true, statusCode: 503 });
  });
});

describe('Any other failure (a full disk, a bug) is taken as passing and retried', () => {
  it('an Error', async () => {
    const handler = emailHandler({ send: () => Promise.reject(new Error('ENOSPC: no space left on device')) });
    expect(await handler.deliver(outboxMessage('email', mail))).toMatchObject({ ok: false, retryable: true, error: 'ENOSPC: no space left on device' });
  });

  it('something thrown that is not an Error', async () => {
    const handler = emailHandler({ send: () => Promise.reject('boom') });
    expect(await handler.deliver(outboxMessage('email', mail))).toMatchObject({ ok: false, retryable: true, error: 'boom' });
  });
});

describe('Every attempt is timed, and its excerpts are at most 200 characters', () => {
  it('a slow acceptance with a long answer', async () => {
    const handler = emailHandler({
      send: () => new Promise((resolve) => setTimeout(() => resolve({ id: 'id-1', statusCode: 250, response: `250 ${'ok '.repeat(200)}` }), 50)),
    });
    const outcome = await handler.deliver(outboxMessage('email', mail));
    expect(outcome).toMatchObject({ ok: true, statusCode: 250 });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(45);
    expect(outcome.response).toHaveLength(200);
    expect(outcome.response).toMatch(/^id-1 250 ok ok .*…$/);
  });

  it('a long error', async () => {
    const handler = smsHandler({ send: () => Promise.reject(new SendError('x'.repeat(1_000), { retryable: false })) });
    expect((await handler.deliver(outboxMessage('sms', { to: '+1', text: 'hi' }))).error).toHaveLength(200);
  });
});

describe("One person's WhatsApp messages of a round go out one after another, in the order they were queued; different people's side by side", () => {
  it('a slow first message to a number still goes before the second; another number does not wait for it', async () => {
    const events: string[] = [];
    const handler = whatsAppHandler({
      async send(message) {
        events.push(`start ${message.text}`);
        // The first message to +571 is slow: the one queued after it must wait, +572's must not.
        await new Promise((resolve) => setTimeout(resolve, message.text === 'a1' ? 60 : 5));
        events.push(`end ${message.text}`);
        return { id: `wamid.${message.text}` };
      },
    });
    const at = '2026-11-26T10:00:00.000Z';
    // Handed over out of queued order, as a claim's rows may come back.
    const messages = [
      outboxMessage('whatsapp', { to: '+571', text: 'a2' }, { id: '000000000000000000000002', createdAt: at }),
      outboxMessage('whatsapp', { to: '+572', text: 'b1' }, { id: '000000000000000000000003', createdAt: at }),
      outboxMessage('whatsapp', { to: '+571', text: 'a1' }, { id: '000000000000000000000001', createdAt: at }),
    ];
    const outcomes = await Promise.all(handler.deliverAll?.(messages) ?? []);
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true, true]);
    expect(events.indexOf('end a1')).toBeLessThan(events.indexOf('start a2'));
    expect(events.indexOf('end b1')).toBeLessThan(events.indexOf('end a1'));
  });
});
