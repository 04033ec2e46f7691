import type { ChatFlowRow } from '../../db/schema.js';
import { findProcessById } from '../../documents/queries.js';
import { awaitsReview } from '../../identity-attempts/check-identity.js';
import { say, type WordKey } from '../../people/words-chat.js';
import type { ChatContext, HandleChatMessage } from '../chat-context.js';
import { type InboundChatMessage, MAX_BUTTON_TITLE, MAX_BUTTONS } from '../message/chat-message.js';
import { phoneDigits } from '../message/phone.js';
import { findMessageByWamid } from '../records/queries.js';
import { type Flow, flowTitle, numberOf, openFlowsOf } from './chat-flows.js';
import { buttonId, type ChatInput, normalized, readInput } from './chat-input.js';
import { findChatFlowOfNumber, findChatNumber, findParticipantRow, findVerifaceRow, latestChatFlow, saveChatNumber } from './chat-queries.js';
import { commitOutcome, Outcome } from './chat-replies.js';
import { voiceOf } from './flow-voice.js';
import { languageOfNumber } from './number-language.js';
import { SignerConversation } from './signer-conversation.js';
import { VerifaceConversation } from './veriface-conversation.js';

/**
 * What the service answers a person who writes to the business number. The number's flows
 * (signatures and face validations run through WhatsApp, in any organization) are found by the
 * number alone; a button names its flow, and a flow answers only the number it was created with,
 * so no reply can act on someone else's flow. One flow: it goes on. Several: the one chosen, or
 * the person is asked which. None: one polite answer a day, never an error to Meta.
 */
export const handleChatMessage: HandleChatMessage = async (ctx, message, settle) => {
  const phone = numberOf(message.from);
  if (phone === undefined) return;
  const input = readInput(message);
  const outcome = new Outcome();
  const flows = await openFlowsOf(ctx, phone);
  const number = await findChatNumber(ctx.db, phone);
  const today = ctx.clock.now().toISOString().slice(0, 10);
  let current = number?.current_flow_id ?? null;
  let answeredOn = number?.answered_on ?? null;

  const flowId = input.kind === 'action' ? input.flowId : undefined;
  const named = flowId === undefined ? await quotedFlow(ctx, flows, message) : flows.find((flow) => flow.chat.id === flowId);
  // A button of a flow no longer open never acts on another: it is told where its own flow ended.
  const stale = flowId !== undefined && !named ? await findChatFlowOfNumber(ctx.db, flowId, phone) : undefined;
  const chosen = named ? { flow: named, input } : stale ? undefined : chooseFlow(flows, current, flowId === undefined ? input : { kind: 'help' });
  if (stale) {
    await answerEnded(ctx, stale, outcome, phone);
  } else if (chosen) {
    current = chosen.flow.chat.id;
    await converse(ctx, chosen.flow, chosen.input, outcome);
  } else if (flows.length > 1) {
    askWhich(flows, outcome);
  } else if (answeredOn !== today) {
    // Nothing open: where the number's last flow ended, or the general answer, once a day.
    await answerEnded(ctx, await latestChatFlow(ctx.db, phone), outcome, phone);
    answeredOn = today;
  }
  await commitOutcome(ctx, phone, outcome, async (trx) => {
    await settle?.(trx);
    if (current === (number?.current_flow_id ?? null) && answeredOn === (number?.answered_on ?? null)) return;
    await saveChatNumber(trx, { phone, current_flow_id: current, answered_on: answeredOn, updated_at: ctx.clock.now().toISOString() });
  });
};

/**
 * The flow of the service's message a typed reply quotes (`context.id`), when it is one of the
 * number's open flows: the person answered that message, whichever flow was chosen before. Only
 * a message sent to this same number counts.
 */
async function quotedFlow(ctx: ChatContext, flows: Flow[], message: InboundChatMessage): Promise<Flow | undefined> {
  if (message.contextId === undefined || flows.length < 2) return undefined;
  const quoted = await findMessageByWamid(ctx.db, message.contextId);
  if (quoted?.direction !== 'out' || quoted.phone !== phoneDigits(message.from)) return undefined;
  return flows.find((flow) => (flow.kind === 'signing' ? flow.participant.id === quoted.participant_id : flow.veriface.id === quoted.veriface_id));
}

/** The flow a message goes to without asking: the only one, the one chosen before, or the one the person picks from the list now. */
function chooseFlow(flows: Flow[], current: string | null, input: ChatInput): { flow: Flow; input: ChatInput } | undefined {
  const only = flows.length === 1 ? flows[0] : undefined;
  if (only) return { flow: only, input };
  const kept = flows.find((flow) => flow.chat.id === current);
  if (kept) return { flow: kept, input };
  if (input.kind !== 'text') return undefined;
  const typed = normalized(input.text);
  const picked = flows.find((flow, i) => typed === String(i + 1) || typed === normalized(choiceTitle(flow, i)));
  return picked ? { flow: picked, input: { kind: 'action', action: 'choose' } } : undefined;
}

function choiceTitle(flow: Flow, index: number): string {
  const title = `${index + 1}. ${flow.kind === 'signing' ? flow.process.name : say(flow.voice.language, 'flowVeriface')}`;
  return title.length <= MAX_BUTTON_TITLE ? title : `${title.slice(0, MAX_BUTTON_TITLE - 1)}…`;
}

/** The person has several flows open: a numbered list, with a button each when Meta's three buttons are enough. */
function askWhich(flows: Flow[], outcome: Outcome): void {
  const first = flows[0];
  if (!first) return;
  const language = first.voice.language;
  const list = flows.map((flow, i) => `${i + 1}. ${flowTitle(flow, say(flow.voice.language, 'flowVeriface'))}`).join('\n');
  const text = `${say(language, 'chooseFlow')}\n${list}`;
  if (flows.length > MAX_BUTTONS) {
    outcome.text(undefined, text);
    return;
  }
  outcome.say(undefined, 'step', {
    kind: 'buttons',
    text,
    buttons: flows.map((flow, i) => ({ id: buttonId(flow.chat.id, 'choose'), title: choiceTitle(flow, i) })),
  });
}

async function converse(ctx: ChatContext, flow: Flow, input: ChatInput, outcome: Outcome): Promise<void> {
  const conversation = flow.kind === 'signing' ? new SignerConversation(ctx, flow, outcome) : new VerifaceConversation(ctx, flow, outcome);
  if (input.kind === 'help') return conversation.prompt();
  return conversation.handle(input);
}

/** Where a flow that is no longer open ended, in its organization's words; the general answer for a number none knows. */
async function answerEnded(ctx: ChatContext, chat: ChatFlowRow | undefined, outcome: Outcome, phone: string): Promise<void> {
  const answer = chat ? await endedAnswer(ctx, chat) : undefined;
  outcome.text(undefined, answer ?? say(languageOfNumber(phone), 'nothingPending'), 'help');
}

async function endedAnswer(ctx: ChatContext, chat: ChatFlowRow): Promise<string | undefined> {
  if (chat.participant_row_id !== null) {
    const participant = await findParticipantRow(ctx.db, chat.participant_row_id);
    const process = participant && (await findProcessById(ctx.db, participant.process_id));
    if (!participant || !process) return undefined;
    const voice = await voiceOf(ctx, process.organization_id, process.creator_email, participant.language);
    const key: WordKey =
      participant.status === 'FINISH'
        ? 'alreadySigned'
        : participant.status === 'BLOCK'
          ? awaitsReview(participant.block_reason)
            ? 'underReview'
            : 'blocked'
          : process.status === 'CREATED'
            ? 'nothingPending'
            : 'notInSignature';
    return say(voice.language, key, { process: process.name, organization: voice.organization, contact: voice.contact });
  }
  if (chat.veriface_id !== null) {
    const veriface = await findVerifaceRow(ctx.db, chat.veriface_id);
    if (!veriface) return undefined;
    const voice = await voiceOf(ctx, veriface.organization_id, veriface.creator_email, veriface.language);
    const key: WordKey =
      veriface.status === 'APPROVED'
        ? 'verifaceApproved'
        : veriface.status === 'BLOCKED'
          ? awaitsReview(veriface.result_reason)
            ? 'verifaceUnderReview'
            : 'verifaceNotApproved'
          : 'verifaceClosed';
    return say(voice.language, key, { organization: voice.organization, contact: voice.contact });
  }
  return undefined;
}
