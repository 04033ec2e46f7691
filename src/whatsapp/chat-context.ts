import type { ServiceContext } from '../context.js';
import type { FaceMatcher } from '../veriface/face-matcher.js';
import type { ChatMedia, InboundChatMessage } from './chat-message.js';

/** What the conversation may touch: the service, the face matcher and the provider's media. */
export type ChatContext = ServiceContext & { faceMatcher: FaceMatcher; chatMedia: ChatMedia };

/** The conversation's entry point, called once per inbound message (in the order Meta sent them per person). */
export type HandleChatMessage = (ctx: ChatContext, message: InboundChatMessage) => Promise<void>;
