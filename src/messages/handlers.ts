import type { DeliveryOutcome, EmailPayload, OutboxHandler, SmsPayload, WhatsAppPayload } from '../outbox/types.js';
import type { Mailer } from './mailer.js';
import { isEmailPayload, isSmsPayload, isWhatsAppPayload } from './payloads.js';
import { safeExcerpt } from './redact.js';
import { SendError, type SendResult } from './send-result.js';
import type { SmsSender } from './sms.js';
import type { WhatsAppSender } from './whatsapp.js';

interface ChannelDelivery<P> {
  isPayload(value: unknown): value is P;
  send(payload: P): Promise<SendResult>;
  /** The texts of the message, kept out of the attempt log. */
  contentOf(payload: P): string[];
}

/**
 * One attempt, timed, as the outbox records it. A SendError says whether trying again can help; any
 * other failure (a disk, a bug) is taken as passing. The excerpts never carry the message's content.
 */
function handler<P>(channel: ChannelDelivery<P>): OutboxHandler<P> {
  return {
    async deliver(message): Promise<DeliveryOutcome> {
      const payload: unknown = message.payload;
      if (!channel.isPayload(payload)) return { ok: false, retryable: false, durationMs: 0, error: `Malformed ${message.kind} payload` };
      const content = channel.contentOf(payload);
      const started = performance.now();
      try {
        const result = await channel.send(payload);
        const answer = [result.id, result.response].filter((part) => part !== undefined && part !== '').join(' ');
        return {
          ok: true,
          statusCode: result.statusCode,
          durationMs: performance.now() - started,
          response: safeExcerpt(answer, content),
        };
      } catch (error) {
        const failure = error instanceof SendError ? error : new SendError(error instanceof Error ? error.message : String(error), { retryable: true });
        return {
          ok: false,
          retryable: failure.retryable,
          statusCode: failure.statusCode,
          durationMs: performance.now() - started,
          error: safeExcerpt(failure.message, content),
        };
      }
    },
  };
}

export function emailHandler(mailer: Mailer): OutboxHandler<EmailPayload> {
  return handler({
    isPayload: isEmailPayload,
    send: (mail) => mailer.send(mail),
    contentOf: (mail) => [mail.subject, mail.text, mail.html ?? ''],
  });
}

export function whatsAppHandler(sender: WhatsAppSender): OutboxHandler<WhatsAppPayload> {
  return handler({
    isPayload: isWhatsAppPayload,
    send: (message) => sender.send(message),
    contentOf: (message) => [message.text ?? '', ...(message.template?.parameters ?? [])],
  });
}

export function smsHandler(sender: SmsSender): OutboxHandler<SmsPayload> {
  return handler({
    isPayload: isSmsPayload,
    send: (message) => sender.send(message),
    contentOf: (message) => [message.text],
  });
}
