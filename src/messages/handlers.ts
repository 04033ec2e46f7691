import { readBlobBytes } from '../files/blob-bytes.js';
import type { BlobStore } from '../files/blob-store.js';
import { MAX_ATTEMPTS } from '../outbox/retry-schedule.js';
import type { DeliveryOutcome, EmailPayload, OutboxHandler, OutboxMessage, SmsPayload, WhatsAppPayload } from '../outbox/types.js';
import { phoneDigits } from '../whatsapp/message/phone.js';
import type { Mailer, MailFile } from './mailer.js';
import { isEmailPayload, isSmsPayload, isWhatsAppPayload } from './payloads.js';
import { safeExcerpt } from './redact.js';
import { SendError, type SendResult } from './send-result.js';
import type { SmsSender } from './sms.js';
import type { WhatsAppSender } from './whatsapp.js';

/** Where a WhatsApp delivery is recorded: by the outbox message's id, which is its record's. */
export interface WhatsAppDeliveryRecords {
  /** `wamid`: the provider's id for the message, when it gave one. */
  sent(id: string, wamid: string | undefined): Promise<void>;
  givenUp(id: string, reason: string): Promise<void>;
}

interface ChannelDelivery<P> {
  isPayload(value: unknown): value is P;
  send(payload: P): Promise<SendResult>;
  /** The texts of the message, kept out of the attempt log. */
  contentOf(payload: P): string[];
  /** Told once the provider took the message, with its answer (the provider's id for it). */
  sent?(message: OutboxMessage, result: SendResult): Promise<void>;
  /** Told when the message will not be tried again: refused for good, malformed, or out of attempts. */
  givenUp?(message: OutboxMessage, reason: string): Promise<void>;
}

/**
 * What a hook could not write, said in the attempt's record: the delivery itself stands (the
 * message went out, or failed, whatever the hook's store did), so retrying it would be wrong.
 */
async function told(hook: (() => Promise<void>) | undefined, outcome: DeliveryOutcome): Promise<DeliveryOutcome> {
  try {
    await hook?.();
    return outcome;
  } catch (error) {
    const problem = `record not updated: ${error instanceof Error ? error.message : String(error)}`;
    return outcome.ok ? { ...outcome, response: `${outcome.response ?? ''} (${problem})` } : { ...outcome, error: `${outcome.error ?? ''} (${problem})` };
  }
}

/** Whether the worker gives the message up after this outcome (src/outbox/worker.ts). */
function isLastAttempt(message: OutboxMessage, outcome: DeliveryOutcome): boolean {
  return outcome.retryable === false || message.attempts + 1 >= MAX_ATTEMPTS;
}

/**
 * One attempt, timed, as the outbox records it. A SendError says whether trying again can help; any
 * other failure (a disk, a bug) is taken as passing. The excerpts never carry the message's content.
 */
function handler<P>(channel: ChannelDelivery<P>): OutboxHandler<P> {
  return {
    async deliver(message): Promise<DeliveryOutcome> {
      const payload: unknown = message.payload;
      if (!channel.isPayload(payload)) {
        const error = `Malformed ${message.kind} payload`;
        return told(() => channel.givenUp?.(message, error) ?? Promise.resolve(), { ok: false, retryable: false, durationMs: 0, error });
      }
      const content = channel.contentOf(payload);
      const started = performance.now();
      let result: SendResult;
      try {
        result = await channel.send(payload);
      } catch (error) {
        const failure = error instanceof SendError ? error : new SendError(error instanceof Error ? error.message : String(error), { retryable: true });
        const outcome: DeliveryOutcome = {
          ok: false,
          retryable: failure.retryable,
          statusCode: failure.statusCode,
          durationMs: performance.now() - started,
          error: safeExcerpt(failure.message, content),
        };
        const reason = outcome.error ?? '';
        return isLastAttempt(message, outcome) ? told(() => channel.givenUp?.(message, reason) ?? Promise.resolve(), outcome) : outcome;
      }
      const answer = [result.id, result.response].filter((part) => part !== undefined && part !== '').join(' ');
      const outcome: DeliveryOutcome = {
        ok: true,
        statusCode: result.statusCode,
        durationMs: performance.now() - started,
        response: safeExcerpt(answer, content),
      };
      return told(() => channel.sent?.(message, result) ?? Promise.resolve(), outcome);
    },
  };
}

/** The bytes of an e-mail's attachments; one gone from the store fails the message for good, as a retry would find it gone too. */
async function attachedFiles(blobs: BlobStore | undefined, mail: EmailPayload): Promise<MailFile[]> {
  const files: MailFile[] = [];
  for (const attachment of mail.attachments ?? []) {
    const content = blobs && (await readBlobBytes(blobs, attachment.key));
    if (!content) throw new SendError(`the attachment ${attachment.filename} is no longer stored`, { retryable: false });
    files.push({ filename: attachment.filename, contentType: attachment.contentType, content });
  }
  return files;
}

/** `blobs`: where attachments are read; a handler without one sends messages without attachments only. */
export function emailHandler(mailer: Mailer, blobs?: BlobStore): OutboxHandler<EmailPayload> {
  return handler({
    isPayload: isEmailPayload,
    send: async (mail) => mailer.send(mail, await attachedFiles(blobs, mail)),
    contentOf: (mail) => [mail.subject, mail.text, mail.html ?? ''],
  });
}

/** The texts a WhatsApp message carries: its text or template parameters, or the conversation's words. */
function whatsAppTexts(message: WhatsAppPayload): string[] {
  const texts = [message.text ?? '', ...(message.template?.parameters ?? [])];
  const content = message.chat?.content;
  if (!content) return texts;
  switch (content.kind) {
    case 'text':
      return [...texts, content.text];
    case 'buttons':
      return [...texts, content.text, ...content.buttons.flatMap((button) => [button.id, button.title])];
    case 'document':
      return [...texts, content.filename, content.caption ?? ''];
    case 'template':
      return [...texts, ...content.parameters, ...(content.quickReplies ?? [])];
  }
}

/** Each WhatsApp message's record (src/whatsapp/records) follows its delivery: Meta's wamid once sent, or failed. */
export function whatsAppHandler(sender: WhatsAppSender, records?: WhatsAppDeliveryRecords): OutboxHandler<WhatsAppPayload> {
  const one = handler({
    isPayload: isWhatsAppPayload,
    send: (message) => sender.send(message),
    contentOf: whatsAppTexts,
    ...(records ? { sent: (message, result) => records.sent(message.id, result.id), givenUp: (message, reason) => records.givenUp(message.id, reason) } : {}),
  });
  return { deliver: (message) => one.deliver(message), deliverAll: (messages) => inOrderPerRecipient(messages, one) };
}

/** What a message gets when an earlier one to its number failed in the same round: it waits for that one. */
const BEHIND_A_FAILURE: DeliveryOutcome = {
  ok: false,
  deferred: true,
  durationMs: 0,
  error: 'not sent yet: an earlier message to this number was not sent',
};

/**
 * A person reads a chat in the order it arrives: one recipient's messages of a round go one after
 * another, in the order they were queued ("Código correcto" before the next step's request), while
 * different people's go side by side. Queued order is the creation time, then the id (whose counter
 * grows within a process). Once one fails, the recipient's later messages of the round are not
 * sent: they wait for it (the claim holds them back while it waits for its retry).
 */
function inOrderPerRecipient(messages: OutboxMessage<WhatsAppPayload>[], one: OutboxHandler<WhatsAppPayload>): Promise<DeliveryOutcome>[] {
  const queued = [...messages.keys()].sort((a, b) => {
    const [first, second] = [messages[a], messages[b]];
    if (!first || !second) return 0;
    return first.createdAt === second.createdAt ? first.id.localeCompare(second.id) : first.createdAt.localeCompare(second.createdAt);
  });
  const outcomes: Promise<DeliveryOutcome>[] = [];
  const lastOf = new Map<string, Promise<boolean>>();
  for (const index of queued) {
    const message = messages[index];
    if (!message) continue;
    const payload: unknown = message.payload;
    const recipient = isWhatsAppPayload(payload) ? phoneDigits(payload.to) : message.id;
    const outcome = (lastOf.get(recipient) ?? Promise.resolve(true)).then((sent) => (sent ? one.deliver(message) : BEHIND_A_FAILURE));
    lastOf.set(
      recipient,
      outcome.then(
        (result) => result.ok,
        () => false,
      ),
    );
    outcomes[index] = outcome;
  }
  return messages.map((_, index) => outcomes[index] ?? Promise.resolve({ ok: false, retryable: false, durationMs: 0, error: 'not delivered' }));
}

export function smsHandler(sender: SmsSender): OutboxHandler<SmsPayload> {
  return handler({
    isPayload: isSmsPayload,
    send: (message) => sender.send(message),
    contentOf: (message) => [message.text],
  });
}
