import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../src/webhooks/secret.js';
import { signWebhook } from '../src/webhooks/signature.js';

describe('a delivery is signed exactly as the standardwebhooks package signs it', () => {
  const bodies = [
    '{}',
    JSON.stringify({ type: 'document.created', data: { name: 'Şükrü Öztürk — 署名', emoji: '✍️' } }),
    JSON.stringify({ text: 'x'.repeat(10_000) }),
  ];

  it('gives the same header for fresh secrets, message ids, times and bodies, and the package verifies it', () => {
    for (const body of bodies) {
      const secret = newWebhookSecret();
      const at = new Date();
      const id = `msg_${Math.random().toString(16).slice(2)}`;
      const signature = signWebhook(secret, id, at, body);
      expect(signature).toBe(new Webhook(secret).sign(id, at, body));
      const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
      expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
    }
  });

  it('counts the timestamp in whole seconds, as the webhook-timestamp header does', () => {
    const secret = newWebhookSecret();
    expect(signWebhook(secret, 'msg_1', new Date(1_700_000_000_999), '{}')).toBe(signWebhook(secret, 'msg_1', new Date(1_700_000_000_000), '{}'));
    expect(signWebhook(secret, 'msg_1', new Date(1_700_000_001_000), '{}')).not.toBe(signWebhook(secret, 'msg_1', new Date(1_700_000_000_000), '{}'));
  });
});
