import type { ServiceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { WhatsAppMessageRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { newObjectId } from '../../ids.js';
import { enqueue } from '../../outbox/enqueue.js';
import type { InboundChatMessage } from '../message/chat-message.js';
import { findMessageByWamid, insertReceivedMessage, insertStatuses, latestFlowMessage } from '../records/queries.js';
import type { WebhookContents } from './meta-payload.js';

/** The job that handles a number's received messages, in order, and applies its statuses (drain.ts). */
export const CONVERSATION_JOB = 'whatsapp-conversation';

/**
 * Whose flow a received message belongs to, as far as the transport can tell: the one of the
 * message it answers (a button reply names it), or else the one the business last wrote to this
 * number about. Its record is listed with that participant's conversation.
 */
async function flowOf(db: Db, message: InboundChatMessage): Promise<WhatsAppMessageRow | undefined> {
  const answered = message.contextId === undefined ? undefined : await findMessageByWamid(db, message.contextId);
  if (answered?.direction === 'out' && answered.organization_id !== null) return answered;
  return latestFlowMessage(db, message.from);
}

/**
 * Stores a webhook's messages and statuses, and one job per number they concern, in one
 * transaction: once it has committed (before Meta is answered) a crash loses none of them. A message
 * Meta delivers again (the same wamid) is stored once, and its number gets no new job for it.
 * Answers how many messages and statuses were new.
 */
export async function receiveWebhook(ctx: ServiceContext, contents: WebhookContents): Promise<{ messages: number; statuses: number }> {
  if (contents.messages.length === 0 && contents.statuses.length === 0) return { messages: 0, statuses: 0 };
  return withTransaction(ctx, async (trx) => {
    const now = ctx.clock.now();
    const at = now.toISOString();
    const phones = new Set<string>();
    let messages = 0;
    for (const message of contents.messages) {
      const flow = await flowOf(trx, message);
      const stored = await insertReceivedMessage(trx, {
        id: newObjectId(now),
        organization_id: flow?.organization_id ?? null,
        process_id: flow?.process_id ?? null,
        participant_id: flow?.participant_id ?? null,
        veriface_id: flow?.veriface_id ?? null,
        phone: message.from,
        direction: 'in',
        kind: message.content.kind,
        purpose: null,
        wamid: message.id,
        status: 'received',
        status_at: at,
        error: null,
        content: JSON.stringify(message),
        attempts: 0,
        retry_after: null,
        created_at: at,
      });
      if (!stored) continue;
      messages++;
      phones.add(message.from);
    }
    const statuses = await insertStatuses(
      trx,
      contents.statuses.map((status) => ({
        id: newObjectId(now),
        wamid: status.wamid,
        phone: status.phone,
        status: status.status,
        at: status.at,
        error: status.error ?? null,
        applied_at: null,
      })),
    );
    if (statuses > 0) for (const status of contents.statuses) phones.add(status.phone);
    await enqueue(
      trx,
      ctx.clock,
      [...phones].map((phone) => ({ kind: 'job' as const, organizationId: null, payload: { name: CONVERSATION_JOB, data: { phone } } })),
    );
    return { messages, statuses };
  });
}
