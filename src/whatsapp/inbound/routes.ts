import type { FastifyRequest } from 'fastify';
import Joi from 'joi';
import type { ServiceContext } from '../../context.js';
import { fail } from '../../domain-error.js';
import { type ApiRoute, defineRoute, noInput } from '../../http/route.js';
import { readWebhook } from './meta-payload.js';
import { receiveWebhook } from './receive.js';
import { isSignedByMeta, sameSecret } from './signature.js';

/** Where Meta's app is told to deliver: PUBLIC_URL/whatsapp/webhook. */
export const WHATSAPP_WEBHOOK_PATH = '/whatsapp/webhook';

/** Meta's deliveries are batches of a few kilobytes; this leaves room for the largest it documents. */
const MAX_BODY_BYTES = 3 * 1024 * 1024;

export interface WhatsAppWebhookSecrets {
  /** The token the subscription handshake repeats (WHATSAPP_VERIFY_TOKEN); no handshake without it. */
  verifyToken: string | undefined;
  /** What deliveries are signed with; no delivery is taken without it (see deps.ts for its source). */
  appSecret: string | undefined;
}

interface HandshakeQuery {
  'hub.mode': string;
  'hub.verify_token': string;
  'hub.challenge': string;
}

const handshakeQuery = Joi.object<HandshakeQuery, true>({
  'hub.mode': Joi.string().max(32).required().example('subscribe'),
  'hub.verify_token': Joi.string().max(256).required().example('the-token-typed-into-meta'),
  // Meta's challenge is a number; it is echoed as plain text, so nothing else is taken.
  'hub.challenge': Joi.string()
    .max(128)
    .pattern(/^[A-Za-z0-9_.-]+$/)
    .required()
    .example('1158201444'),
});

const receivedResponse = Joi.object({
  messages: Joi.number().integer().min(0).required().description('messages stored for the first time').example(1),
  statuses: Joi.number().integer().min(0).required().description('statuses stored for the first time').example(0),
});

/** The body's exact bytes: the signature is over them, not over any re-serialisation of the JSON. */
async function rawBody(request: FastifyRequest): Promise<Buffer> {
  if (Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES) throw fail('BODY_TOO_LARGE', `at most ${MAX_BODY_BYTES} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size > MAX_BODY_BYTES) throw fail('BODY_TOO_LARGE', `at most ${MAX_BODY_BYTES} bytes`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

function parsed(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw fail('BODY_NOT_JSON', 'the body is not valid JSON');
  }
}

/**
 * Meta's webhook of the WhatsApp Business Cloud API, outside /v1.5/ext and without an API key: the
 * handshake proves the operator's verify token, and each delivery carries Meta's signature.
 */
export function whatsAppWebhookRoutes(ctx: ServiceContext, secrets: WhatsAppWebhookSecrets): ApiRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: WHATSAPP_WEBHOOK_PATH,
      access: 'public',
      tag: 'whatsapp',
      summary: "Meta's verification handshake of the WhatsApp webhook",
      description:
        'Meta calls it when the webhook is subscribed in its app dashboard: with `hub.mode=subscribe` and the verify token set there ' +
        '(WHATSAPP_VERIFY_TOKEN), the answer is `hub.challenge` as plain text. Without WHATSAPP_VERIFY_TOKEN the instance takes no ' +
        'handshake (404: nothing here to subscribe to); with a wrong token or mode, 403.',
      body: noInput,
      query: handshakeQuery,
      response: { raw: { mediaTypes: ['text/plain'], description: 'the challenge, as sent' } },
      errors: ['WHATSAPP_WEBHOOK_NOT_CONFIGURED', 'WHATSAPP_VERIFY_TOKEN_INVALID'],
      handler: ({ query, reply }) => {
        if (secrets.verifyToken === undefined) throw fail('WHATSAPP_WEBHOOK_NOT_CONFIGURED', 'set WHATSAPP_VERIFY_TOKEN');
        const tokenMatches = sameSecret(query['hub.verify_token'], secrets.verifyToken);
        if (query['hub.mode'] !== 'subscribe' || !tokenMatches) throw fail('WHATSAPP_VERIFY_TOKEN_INVALID');
        return reply.type('text/plain; charset=utf-8').header('x-content-type-options', 'nosniff').send(query['hub.challenge']);
      },
    }),
    defineRoute({
      method: 'POST',
      url: WHATSAPP_WEBHOOK_PATH,
      access: 'public',
      tag: 'whatsapp',
      summary: "Meta's deliveries: messages people send to the business number, and statuses of those sent",
      description:
        'Taken only with `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with WHATSAPP_APP_SECRET>`. Each message and ' +
        'status is stored before the answer, and handled afterwards from the store, one message of a number at a time, in order; ' +
        'a message Meta delivers twice is handled once. Parts of other shapes are ignored, not refused, as Meta retries refusals for days.',
      body: noInput,
      query: noInput,
      rawBody: ['application/json'],
      bodyLimit: MAX_BODY_BYTES,
      response: { json: receivedResponse },
      errors: ['WHATSAPP_WEBHOOK_NOT_CONFIGURED', 'WHATSAPP_SIGNATURE_INVALID', 'BODY_NOT_JSON', 'BODY_TOO_LARGE'],
      handler: async ({ request }) => {
        if (secrets.appSecret === undefined) throw fail('WHATSAPP_WEBHOOK_NOT_CONFIGURED', 'set WHATSAPP_APP_SECRET');
        const body = await rawBody(request);
        if (!isSignedByMeta(body, request.headers['x-hub-signature-256'], secrets.appSecret)) throw fail('WHATSAPP_SIGNATURE_INVALID');
        return receiveWebhook(ctx, readWebhook(parsed(body), ctx.clock.now()));
      },
    }),
  ];
}
