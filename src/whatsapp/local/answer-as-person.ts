import crypto from 'node:crypto';
import { validationsOf } from '../../documents/notify-participants.js';
import { fail } from '../../domain-error.js';
import { participantsOfNumber, verifacesOfNumber } from '../conversation/chat-queries.js';
import { storeLocalChatMedia } from '../media/local-media.js';
import type { LocalChatStores, Viewer } from './conversation-view.js';
import { metaEnvelope, type PersonMessage } from './meta-envelope.js';
import type { PageMessageContent } from './page-log.js';
import { findSentMessage, namesOfNumbers, organizationKnowsNumber } from './queries.js';

/** What the operator answers as the person: exactly one of a text, a button's tap, or a photo. */
export type PersonAnswer =
  | { kind: 'text'; text: string }
  /** `quickReply`: a template's quick-reply button (its payload as `id`); otherwise an interactive reply button. */
  | { kind: 'reply'; id: string; title: string; quickReply: boolean }
  /** `asDocument`: sent uncompressed, as a document, as people do to keep a photo sharp. */
  | { kind: 'photo'; bytes: Buffer; filename: string; asDocument: boolean };

/** Delivers a signed body to the webhook, as Meta would (src/whatsapp/inbound/routes.ts), and answers its status. */
export type PostToWebhook = (raw: string, signature: string) => Promise<{ statusCode: number; body: string }>;

export interface AnswerOptions {
  viewer: Viewer;
  /** Digits only, with the country code, as Meta writes numbers. */
  phone: string;
  /** The wamid of the message the answer belongs to (a button's message). */
  contextId?: string;
  answer: PersonAnswer;
}

/** What a photo is, by its first bytes: the conversation takes JPEG and PNG only, whatever the file says. */
function photoType(bytes: Buffer): 'image/jpeg' | 'image/png' | undefined {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  return undefined;
}

/**
 * The organizations whose open flows a message from this number (+digits) may act in: the
 * conversation finds flows by the number alone, in any organization (src/whatsapp/conversation).
 */
async function openFlowOrganizations(stores: LocalChatStores, plus: string): Promise<string[]> {
  const [signings, verifaces] = await Promise.all([participantsOfNumber(stores.db, plus), verifacesOfNumber(stores.db, plus)]);
  return [
    ...signings.filter(({ participant }) => validationsOf(participant).options.whatsapp).map(({ process }) => process.organization_id),
    ...verifaces.map((veriface) => veriface.organization_id),
  ];
}

/**
 * Whether the viewer may write as the number: the operator as any; an organization as a number it
 * wrote to or runs a flow of, and only while no other organization has a flow open with it, since
 * the message could act there (sign another organization's document, for one).
 */
async function mayWriteAs(stores: LocalChatStores, viewer: Viewer, phone: string): Promise<boolean> {
  const { organizationId } = viewer;
  if (organizationId === null) return true;
  const plus = `+${phone}`;
  if (!(await organizationKnowsNumber(stores.db, { organizationId, phone, plus }))) return false;
  return (await openFlowOrganizations(stores, plus)).every((owner) => owner === organizationId);
}

async function personMessage(stores: LocalChatStores, answer: PersonAnswer): Promise<{ message: PersonMessage; shown: PageMessageContent }> {
  switch (answer.kind) {
    case 'text':
      return { message: { type: 'text', text: answer.text }, shown: { kind: 'text', text: answer.text } };
    case 'reply':
      return {
        message: answer.quickReply
          ? { type: 'quick_reply', payload: answer.id, text: answer.title }
          : { type: 'button_reply', id: answer.id, title: answer.title },
        shown: { kind: 'button', title: answer.title },
      };
    case 'photo': {
      const mimeType = photoType(answer.bytes);
      if (mimeType === undefined) throw fail('LOCAL_CHAT_FILE_INVALID');
      const mediaId = await storeLocalChatMedia(stores.blobs, { bytes: answer.bytes, mimeType });
      const shown: PageMessageContent = { kind: 'photo', filename: answer.filename, asDocument: answer.asDocument };
      return answer.asDocument
        ? { message: { type: 'document', mediaId, mimeType, filename: answer.filename }, shown }
        : { message: { type: 'image', mediaId, mimeType }, shown };
    }
  }
}

/**
 * Sends what the operator wrote as the person through Meta's path: kept on the page's log, put in
 * Meta's envelope, signed with the app secret and delivered to the webhook, whose inbox and
 * conversation do the rest. Answers the message's wamid.
 */
export async function answerAsPerson(
  stores: LocalChatStores,
  webhook: { appSecret: string; post: PostToWebhook },
  options: AnswerOptions,
): Promise<{ id: string }> {
  const { viewer, phone, contextId } = options;
  if (!(await mayWriteAs(stores, viewer, phone))) throw fail('LOCAL_CHAT_NUMBER_NOT_FOUND');
  if (contextId !== undefined && !(await findSentMessage(stores.db, { phone, wamid: contextId, organizationId: viewer.organizationId }))) {
    throw fail('LOCAL_CHAT_MESSAGE_NOT_FOUND');
  }
  const { message, shown } = await personMessage(stores, options.answer);
  const [known] = await namesOfNumbers(stores.db, { phones: [`+${phone}`], organizationId: viewer.organizationId });
  const wamid = await stores.pageLog.write({ from: phone, content: shown });
  const raw = JSON.stringify(
    metaEnvelope({
      wamid,
      from: phone,
      ...(known === undefined ? {} : { profileName: known.name }),
      sentAt: stores.clock.now(),
      ...(contextId === undefined ? {} : { contextId }),
      message,
    }),
  );
  const signature = `sha256=${crypto.createHmac('sha256', webhook.appSecret).update(raw).digest('hex')}`;
  const delivered = await webhook.post(raw, signature);
  if (delivered.statusCode !== 200) throw new Error(`the webhook refused the local chat's message: ${delivered.statusCode} ${delivered.body.slice(0, 200)}`);
  return { id: wamid };
}
