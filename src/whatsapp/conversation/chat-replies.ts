import type { ChatFlowRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import type { ChatContext } from '../chat-context.js';
import type { ChatPurpose, OutgoingChatContent } from '../message/chat-message.js';
import { queueChatMessage } from '../queue-chat.js';
import type { Flow } from './chat-flows.js';
import { updateChatFlow } from './chat-queries.js';

/** One answer of the conversation, with the flow it belongs to (none for a number with nothing open). */
export interface Reply {
  flow?: Flow;
  purpose: ChatPurpose;
  content: OutgoingChatContent;
}

/**
 * What handling one message decided: the answers, and where the flow's conversation now stands.
 * Both are written in one transaction at the end, so a step is never recorded without its answer
 * (the documents sent, for one) nor answered without being recorded.
 */
export class Outcome {
  readonly replies: Reply[] = [];
  readonly flowPatches = new Map<string, Partial<Pick<ChatFlowRow, 'step' | 'retake'>>>();

  say(flow: Flow | undefined, purpose: ChatPurpose, content: OutgoingChatContent): void {
    this.replies.push({ ...(flow ? { flow } : {}), purpose, content });
  }

  text(flow: Flow | undefined, text: string, purpose: ChatPurpose = 'step'): void {
    this.say(flow, purpose, { kind: 'text', text });
  }

  /** The flow's conversation moves on; read back by the same handling through `flow.chat`. */
  move(flow: Flow, patch: Partial<Pick<ChatFlowRow, 'step' | 'retake'>>): void {
    this.flowPatches.set(flow.chat.id, { ...this.flowPatches.get(flow.chat.id), ...patch });
    flow.chat = { ...flow.chat, ...patch };
  }
}

/** The flow ids a reply names, as the transport records them beside the message (participant row id or face validation id). */
function ownerOf(flow: Flow | undefined): { processId?: string; participantId?: string; verifaceId?: string } {
  if (!flow) return {};
  return flow.kind === 'signing' ? { processId: flow.process.id, participantId: flow.participant.id } : { verifaceId: flow.veriface.id };
}

function organizationOf(flow: Flow | undefined): string | null {
  if (!flow) return null;
  return flow.kind === 'signing' ? flow.process.organization_id : flow.veriface.organization_id;
}

export async function commitOutcome(ctx: ChatContext, to: string, outcome: Outcome, also?: (trx: ChatContext['db']) => Promise<void>): Promise<void> {
  const now = ctx.clock.now().toISOString();
  await withTransaction(ctx, async (trx) => {
    for (const [id, patch] of outcome.flowPatches) await updateChatFlow(trx, id, { ...patch, updated_at: now });
    if (also) await also(trx);
    for (const reply of outcome.replies) {
      await queueChatMessage(trx, ctx.clock, {
        organizationId: organizationOf(reply.flow),
        to,
        purpose: reply.purpose,
        content: reply.content,
        ...ownerOf(reply.flow),
      });
    }
  });
}
