import { LANGUAGES } from '../../organizations/languages.js';
import { CHAT_WORDS, HELP_WORDS, type WordKey } from '../../people/words-chat.js';
import type { InboundChatMessage } from '../message/chat-message.js';

/** What a person can ask for by button (or by typing the button's title). */
export type ChatAction = 'start' | 'sign' | 'approve' | 'reject' | 'back' | 'resend' | 'choose';

/** An inbound message as the conversation reads it. */
export type ChatInput =
  | { kind: 'action'; action: ChatAction; flowId?: string }
  | { kind: 'text'; text: string }
  | { kind: 'photo'; mediaId: string }
  /** "AYUDA", or content the conversation cannot read (audio, sticker): the current step again. */
  | { kind: 'help' };

const ACTIONS: readonly ChatAction[] = ['start', 'sign', 'approve', 'reject', 'back', 'resend', 'choose'];

/** The actions a person may also type, by the words of their buttons. */
const ACTION_TITLES: readonly [ChatAction, WordKey][] = [
  ['start', 'start'],
  ['sign', 'acceptAndSign'],
  ['approve', 'approve'],
  ['reject', 'reject'],
  ['back', 'back'],
  ['resend', 'codeResend'],
];

/** Case, accents, apostrophes' shapes and surrounding punctuation aside, as people type. */
export function normalized(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[’`´]/g, "'")
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^[\s.!¡¿?,;:"«»]+|[\s.!¡¿?,;:"«»]+$/g, '');
}

/** A button title typed in any of the four languages names its action. */
const TYPED_ACTIONS: ReadonlyMap<string, ChatAction> = new Map(
  LANGUAGES.flatMap((language) => ACTION_TITLES.map(([action, key]) => [normalized(CHAT_WORDS[language][key]), action] as const)),
);
const HELP = new Set(HELP_WORDS.map(normalized));

/** A reply button's id: the flow it belongs to and what it asks, so a reply finds its flow without any lookup of the message it answers. */
export function buttonId(flowId: string, action: ChatAction): string {
  return `${flowId}:${action}`;
}

function actionOf(value: string | undefined): ChatAction | undefined {
  return ACTIONS.find((action) => action === value);
}

function typed(text: string): ChatInput {
  const plain = normalized(text);
  if (HELP.has(plain)) return { kind: 'help' };
  const action = TYPED_ACTIONS.get(plain);
  return action ? { kind: 'action', action } : { kind: 'text', text };
}

export function readInput(message: InboundChatMessage): ChatInput {
  const { content } = message;
  switch (content.kind) {
    case 'text':
      return typed(content.text);
    case 'button': {
      const [flowId, name, ...rest] = content.id.split(':');
      const action = rest.length === 0 ? actionOf(name) : undefined;
      return flowId && action ? { kind: 'action', action, flowId } : typed(content.title);
    }
    case 'image':
    case 'document':
      return { kind: 'photo', mediaId: content.mediaId };
    case 'unsupported':
      return { kind: 'help' };
  }
}
