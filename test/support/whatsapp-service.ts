import type { HandleChatMessage } from '../../src/whatsapp/chat-context.js';
import type { InboundChatMessage } from '../../src/whatsapp/message/chat-message.js';
import type { GraphApiStandIn } from './graph-api.js';
import { startTestService, type TestDialect, type TestService } from './service.js';

export const VERIFY_TOKEN = 'verify-token-typed-into-meta-1234';
export const APP_SECRET = 'a3f1c09b8e7d6c5b4a39281706f5e4d3';

/** A test service that sends WhatsApp through the Graph API stand-in and takes Meta's webhook. */
export function startWhatsAppService(dialect: TestDialect, graph: GraphApiStandIn, env: Record<string, string> = {}): Promise<TestService> {
  return startTestService(dialect, {
    WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_TOKEN: graph.token,
    WHATSAPP_PHONE_NUMBER_ID: graph.phoneNumberId,
    WHATSAPP_API_URL: graph.url,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    ...env,
  });
}

/** Runs the outbox's rounds (jobs, sends, webhooks) until nothing is due at the service's clock. */
export async function runOutbox(svc: TestService): Promise<void> {
  for (let round = 0; round < 100; round++) {
    if ((await svc.deps.worker.deliverDue()) === 0) return;
  }
  throw new Error('the outbox kept finding work for 100 rounds');
}

/** The conversation's test double: records each message it is handed, in the order it is. */
export function recordingConversation(): { handled: InboundChatMessage[]; handle: HandleChatMessage } {
  const handled: InboundChatMessage[] = [];
  return {
    handled,
    handle: async (_ctx, message) => {
      handled.push(message);
    },
  };
}
