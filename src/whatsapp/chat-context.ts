import type { ServiceContext } from '../context.js';
import type { PdfRenderer } from '../rendering/renderer.js';
import type { DocumentReader } from '../veriface/document/document-reader.js';
import type { FaceMatcher } from '../veriface/face-matcher.js';
import type { ChatMedia, InboundChatMessage } from './message/chat-message.js';

/**
 * What the conversation may touch: the service, the face matcher and the document readers, the provider's media, and the
 * renderer that makes a template document the PDF the person reads, as the signing page does.
 */
export type ChatContext = ServiceContext & { faceMatcher: FaceMatcher; documentReader: DocumentReader; chatMedia: ChatMedia; renderer: PdfRenderer };

/**
 * What the transport writes about the message itself (that it was handled), given to the
 * conversation so that it lands in the transaction that records the answer: a message is then never
 * answered without being marked, so a crash between the two cannot answer it twice. A conversation
 * that answers nothing may leave it uncalled; the transport then marks the message on its own.
 */
export type SettleMessage = (db: ServiceContext['db']) => Promise<void>;

/** The conversation's entry point, called once per inbound message (in the order Meta sent them per person). */
export type HandleChatMessage = (ctx: ChatContext, message: InboundChatMessage, settle?: SettleMessage) => Promise<void>;
