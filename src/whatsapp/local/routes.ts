import path from 'node:path';
import Joi from 'joi';
import type { Config } from '../../config.js';
import type { ServiceContext } from '../../context.js';
import { fail } from '../../domain-error.js';
import { instantAnswer } from '../../fields/instant.js';
import { type ApiRoute, defineRoute, noInput, type RouteInput } from '../../http/route.js';
import { mailboxDir } from '../../messages/local-mailbox.js';
import type { PageAssets } from '../../people/assets.js';
import { pageLanguage } from '../../people/page-language.js';
import { pageHeaders } from '../../people/pages.js';
import { WHATSAPP_WEBHOOK_PATH } from '../inbound/routes.js';
import { answerAsPerson, type PersonAnswer } from './answer-as-person.js';
import {
  type LocalChatStores,
  MAX_CONVERSATIONS,
  MAX_MESSAGES,
  readConversation,
  readConversations,
  readSentDocument,
  type Viewer,
} from './conversation-view.js';
import { localChatShell } from './page.js';
import { PageMessageLog } from './page-log.js';
import { findSentMessage } from './queries.js';

const tag = 'local WhatsApp chat';

/** WhatsApp's own limit on a photo sent as an image. */
const MAX_PHOTO_BYTES = 5 * 1024 * 1024;

const access =
  "On the operator's own port (LOCAL_CHAT_PORT, bound to 127.0.0.1; a loopback connection, with no proxy header, to a loopback host name) " +
  "no key is needed and every organization's conversations are seen; on the service's port and from anywhere else, an organization's private key, which sees and " +
  'writes as the numbers of its own conversations only. Only on an instance without a WhatsApp provider.';

const phone = Joi.string()
  .pattern(/^\d{8,15}$/)
  .required()
  .description("the person's number as WhatsApp writes it: digits only, with the country code")
  .example('573001234567');
const wamid = Joi.string().max(256).description("a message's id, as the conversation lists it").example('whatsapp/20261126T101500123Z-000042-9f8e7d6c');

const sentContent = Joi.object({
  kind: Joi.string().valid('text', 'buttons', 'template', 'document', 'button', 'photo').required().example('buttons'),
  text: Joi.string().description('text, buttons: the words').example('Hola José, Acme te invita a firmar «Lease agreement».'),
  buttons: Joi.array()
    .items(Joi.object({ id: Joi.string().required().example('k3v9q2x8m1c7b4n6.start'), title: Joi.string().required().example('Empezar') }))
    .description('buttons: the reply buttons, each answered with its id'),
  name: Joi.string().description("template: the approved template's name"),
  parameters: Joi.array().items(Joi.string()).description("template: its body's parameters, in order"),
  quickReplies: Joi.array().items(Joi.string()).description('template: the payloads of its quick-reply buttons'),
  filename: Joi.string().description('document, photo: the file name').example('Lease agreement.pdf'),
  caption: Joi.string().description('document: the words under it'),
  title: Joi.string().description('button: the title of the button tapped'),
  asDocument: Joi.boolean().description('photo: sent uncompressed, as a document'),
});

const conversationsResponse = Joi.object({
  everyOrganization: Joi.boolean().required().description("true for the operator at the service's machine, false for an organization's key").example(true),
  conversations: Joi.array()
    .items(
      Joi.object({
        phone: Joi.string().required().example('573001234567'),
        name: Joi.string().description('the name the person was given in a process or face validation').example('José Pérez'),
        lastAt: Joi.string().required().description("the last message's time").example('2026-11-26T10:15:00.123Z'),
      }),
    )
    .max(MAX_CONVERSATIONS)
    .required(),
});

const conversationResponse = Joi.object({
  phone: Joi.string().required().example('573001234567'),
  name: Joi.string().example('José Pérez'),
  messages: Joi.array()
    .items(
      Joi.object({
        id: Joi.string().required().example('whatsapp/20261126T101500123Z-000042-9f8e7d6c'),
        direction: Joi.string().valid('in', 'out').required().description('out: the service wrote; in: written on this page as the person'),
        at: instantAnswer.required(),
        status: Joi.string().required().example('sent'),
        content: sentContent.required(),
      }),
    )
    .max(MAX_MESSAGES)
    .required(),
});

interface AnswerBody {
  phone: string;
  contextId?: string;
  text?: string;
  reply?: { id: string; title: string; quickReply: boolean };
  photo?: { data: string; filename: string; asDocument: boolean };
}

const answerBody = Joi.object<AnswerBody, true>({
  phone,
  contextId: wamid.description('the message a button belongs to (its id in the conversation)'),
  text: Joi.string().min(1).max(4096).description('words typed as the person').example('Hola'),
  reply: Joi.object({
    id: Joi.string().max(256).required().description("the button's id, or a template's quick-reply payload").example('k3v9q2x8m1c7b4n6.start'),
    title: Joi.string().max(256).allow('').required().example('Empezar'),
    quickReply: Joi.boolean().default(false).description("true for a template's quick-reply button"),
  }).description('a tap on a button'),
  photo: Joi.object({
    data: Joi.string()
      .base64()
      .max(Math.ceil(MAX_PHOTO_BYTES / 3) * 4)
      .required()
      .description('the JPEG or PNG photo, in base64'),
    filename: Joi.string().max(200).default('photo.jpg').example('cedula.jpg'),
    asDocument: Joi.boolean().default(false).description('sent uncompressed, as a document, as people do to keep a photo sharp'),
  }).description('a photo chosen'),
})
  .xor('text', 'reply', 'photo')
  .example({ phone: '573001234567', text: 'Hola' });

const documentQuery = Joi.object<{ phone: string; id: string }, true>({ phone, id: wamid.required() });

function viewerOf(input: Pick<RouteInput<unknown, unknown>, 'organizationId' | 'keyKind'>): Viewer {
  // The access hook let the request in with the private key, or at the machine with none.
  return { organizationId: input.keyKind === 'private' ? input.organizationId : null };
}

function answerOf(body: AnswerBody): PersonAnswer {
  if (body.text !== undefined) return { kind: 'text', text: body.text };
  if (body.reply !== undefined) return { kind: 'reply', ...body.reply };
  if (body.photo !== undefined) {
    return { kind: 'photo', bytes: Buffer.from(body.photo.data, 'base64'), filename: body.photo.filename, asDocument: body.photo.asDocument };
  }
  throw new Error('the body schema takes exactly one of text, reply and photo');
}

/**
 * The local WhatsApp chat (GET /whatsapp/local): with no WhatsApp provider, the operator reads each
 * conversation from the local mailbox and answers as the person, through Meta's signed webhook path.
 * Declared only on such an instance: with a provider, the real WhatsApp is the chat.
 */
export function localChatRoutes(ctx: ServiceContext, options: { config: Config; assets: PageAssets; appSecret: string }): ApiRoute[] {
  const mailbox = mailboxDir(options.config.dataDir);
  const stores: LocalChatStores = {
    db: ctx.db,
    blobs: ctx.blobs,
    clock: ctx.clock,
    sentFolder: path.join(mailbox, 'whatsapp'),
    pageLog: new PageMessageLog(mailbox, ctx.clock),
  };
  return [
    defineRoute({
      method: 'GET',
      url: '/whatsapp/local',
      access: 'public',
      tag,
      summary: 'The local WhatsApp chat page (HTML): answer as the person, without Meta',
      description: `The page holds nothing: its script reads the routes below. ${access}`,
      body: noInput,
      query: noInput,
      response: { raw: { mediaTypes: ['text/html'], description: "the page's HTML shell" } },
      errors: [],
      handler: ({ request, reply }) =>
        reply.headers(pageHeaders(options.config, [])).send(localChatShell(options.assets, pageLanguage(request.headers['accept-language']))),
    }),
    defineRoute({
      method: 'GET',
      url: '/whatsapp/local/conversations',
      access: 'operator',
      tag,
      summary: 'The local chat: the conversations, the most recently active first',
      description: access,
      body: noInput,
      query: noInput,
      response: { json: conversationsResponse },
      errors: [],
      handler: (input) => readConversations(stores, viewerOf(input)),
    }),
    defineRoute({
      method: 'GET',
      url: '/whatsapp/local/messages',
      access: 'operator',
      tag,
      summary: "The local chat: one conversation's latest messages, oldest first",
      description: `The service's messages as the local mailbox wrote them, and those written on the page. ${access}`,
      body: noInput,
      query: Joi.object<{ phone: string }, true>({ phone }),
      response: { json: conversationResponse },
      errors: ['LOCAL_CHAT_NUMBER_NOT_FOUND'],
      handler: (input) => readConversation(stores, viewerOf(input), input.query.phone),
    }),
    defineRoute({
      method: 'POST',
      url: '/whatsapp/local/messages',
      access: 'operator',
      tag,
      summary: 'The local chat: a message as the person (text, a button tapped, a photo), through the signed webhook',
      description:
        "Put in Meta's envelope, signed with the instance's app secret and delivered to POST /whatsapp/webhook, as Meta would. " +
        `An organization writes only as the numbers of its conversations, and not while another organization has a flow open with one. ${access}`,
      body: answerBody,
      query: noInput,
      bodyLimit: Math.ceil(MAX_PHOTO_BYTES / 3) * 4 + 64 * 1024,
      response: { json: Joi.object({ id: wamid.required() }) },
      errors: ['LOCAL_CHAT_NUMBER_NOT_FOUND', 'LOCAL_CHAT_MESSAGE_NOT_FOUND', 'LOCAL_CHAT_FILE_INVALID'],
      handler: ({ body, request, ...input }) =>
        answerAsPerson(
          stores,
          {
            appSecret: options.appSecret,
            post: async (raw, signature) => {
              const res = await request.server.inject({
                method: 'POST',
                url: WHATSAPP_WEBHOOK_PATH,
                headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
                payload: raw,
              });
              return { statusCode: res.statusCode, body: res.body };
            },
          },
          {
            viewer: viewerOf(input),
            phone: body.phone,
            ...(body.contextId === undefined ? {} : { contextId: body.contextId }),
            answer: answerOf(body),
          },
        ),
    }),
    defineRoute({
      method: 'GET',
      url: '/whatsapp/local/document',
      access: 'operator',
      tag,
      summary: 'The local chat: a PDF the service sent in a conversation',
      description: `Served only here, never by a public URL, as the Cloud API sends documents by media id. ${access}`,
      body: noInput,
      query: documentQuery,
      response: { raw: { mediaTypes: ['application/pdf'], description: 'the PDF' } },
      errors: ['LOCAL_CHAT_MESSAGE_NOT_FOUND'],
      handler: async ({ query, reply, ...input }) => {
        const sent = await findSentMessage(ctx.db, { phone: query.phone, wamid: query.id, organizationId: viewerOf(input).organizationId });
        if (!sent) throw fail('LOCAL_CHAT_MESSAGE_NOT_FOUND');
        const { blobKey, filename } = await readSentDocument(stores, sent);
        const blob = await ctx.blobs.read(blobKey);
        if (!blob) throw fail('LOCAL_CHAT_MESSAGE_NOT_FOUND');
        return reply
          .headers({
            'content-type': 'application/pdf',
            'content-length': String(blob.size),
            'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(filename)}`,
            'cache-control': 'no-store',
            'x-content-type-options': 'nosniff',
          })
          .send(blob.body);
      },
    }),
  ];
}
