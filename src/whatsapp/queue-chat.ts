import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { enqueue } from '../outbox/enqueue.js';
import type { ChatPurpose, OutgoingChatContent } from './message/chat-message.js';

/**
 * Queues one message of the conversation in the caller's transaction: it goes out exactly when the
 * step that caused it commits, through the outbox's WhatsApp handler.
 */
export async function queueChatMessage(
  trx: Db,
  clock: Clock,
  options: {
    organizationId: string | null;
    to: string;
    purpose: ChatPurpose;
    content: OutgoingChatContent;
    processId?: string;
    participantId?: string;
    verifaceId?: string;
  },
): Promise<void> {
  const { organizationId, to, purpose, content, processId, participantId, verifaceId } = options;
  await enqueue(trx, clock, [
    {
      kind: 'whatsapp',
      organizationId,
      payload: {
        to,
        chat: {
          content,
          purpose,
          ...(processId === undefined ? {} : { processId }),
          ...(participantId === undefined ? {} : { participantId }),
          ...(verifaceId === undefined ? {} : { verifaceId }),
        },
      },
    },
  ]);
}
