import Joi from 'joi';
import type { WebhookFormat } from '../db/schema.js';
import { instantAnswer } from '../fields/instant.js';
import { webUrl } from '../fields/web-url.js';
import { templateId } from '../templates/schemas.js';
import { WEBHOOK_SECRET_PATTERN } from './secret.js';
import { MASKED_HEADER_VALUE, type StaticHeader, staticHeaderSchema } from './static-header.js';

export const webhookName = Joi.string()
  .pattern(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/)
  .max(100)
  .example('default');
export const webhookUrl = webUrl(['http', 'https']).max(2000).example('https://hooks.example.com/auco');
const url = webhookUrl;
const secret = Joi.string()
  .pattern(WEBHOOK_SECRET_PATTERN)
  .messages({ 'string.pattern.base': '{{#label}} must be "whsec_" followed by 24 to 64 bytes in base64' })
  .example('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
export const webhookDescription = Joi.string().max(500).example('Our CRM');

/** `typed`: {type, timestamp, data}; `flat`: the real service's bodies (docs/api.md, "Two body formats"). */
export const webhookFormat = Joi.string().valid('typed', 'flat').example('typed');

export interface CreateWebhookInput {
  name: string;
  url: string;
  secret?: string;
  description?: string;
  enabled: boolean;
  format: WebhookFormat;
  header?: StaticHeader;
}

export const createWebhookSchema = Joi.object<CreateWebhookInput, true>({
  name: webhookName.required(),
  url: url.required(),
  secret,
  description: webhookDescription,
  enabled: Joi.boolean().default(true),
  format: webhookFormat.default('typed'),
  header: staticHeaderSchema,
});

export interface UpdateWebhookInput {
  name: string;
  url?: string;
  description?: string;
  enabled?: boolean;
  format?: WebhookFormat;
  /** null removes the static header. */
  header?: StaticHeader | null;
}

export const updateWebhookSchema = Joi.object<UpdateWebhookInput, true>({
  name: webhookName.required(),
  url,
  description: webhookDescription,
  enabled: Joi.boolean().example(false),
  format: webhookFormat,
  header: staticHeaderSchema.allow(null),
}).or('url', 'description', 'enabled', 'format', 'header');

export const webhookNameBody = Joi.object<{ name: string }, true>({ name: webhookName.required() });
export const webhookNameQuery = webhookNameBody;

export interface ListDeliveriesQuery {
  id?: string;
  webhook?: string;
  status?: 'pending' | 'delivered' | 'failed';
  limit: number;
  cursor?: string;
}

export const listDeliveriesQuery = Joi.object<ListDeliveriesQuery, true>({
  id: templateId,
  webhook: webhookName,
  status: Joi.string().valid('pending', 'delivered', 'failed'),
  limit: Joi.number().integer().min(1).max(200).default(50),
  cursor: Joi.string().max(200),
});

export const resendDeliverySchema = Joi.object<{ id: string }, true>({ id: templateId.required() });

/** A static header as answers show it: the value is a secret, written and never read back. */
export const maskedHeaderAnswer = Joi.object({
  key: Joi.string().required().example('Authorization'),
  value: Joi.string().valid(MASKED_HEADER_VALUE).required(),
}).description('the static header added to every delivery: its value is never shown');

export const webhookResponse = Joi.object({
  name: webhookName.required(),
  url: Joi.string().required().example('https://hooks.example.com/auco'),
  description: Joi.string().example('Our CRM'),
  enabled: Joi.boolean().required().example(true),
  format: webhookFormat.required(),
  header: maskedHeaderAnswer,
  created_at: instantAnswer.required(),
  updated_at: instantAnswer.required(),
});

export const createdWebhookResponse = webhookResponse.keys({ secret: secret.required().description('shown this once: keep it to check signatures') });

export const webhookListResponse = Joi.object({ data: Joi.array().items(webhookResponse).required() });

export const rotatedSecretResponse = Joi.object({ name: webhookName.required(), secret: secret.required() });

export const deletedWebhookResponse = Joi.object({ name: webhookName.required(), deleted: Joi.boolean().valid(true).required() });

const deliveryId = templateId.description('the delivery id');

export const testEventResponse = Joi.object({ id: deliveryId.required() });

export const resentDeliveryResponse = Joi.object({ id: deliveryId.required(), status: Joi.string().valid('pending').required() });

const attempt = Joi.object({
  started_at: instantAnswer.required(),
  duration_ms: Joi.number().integer().min(0).required().example(84),
  ok: Joi.boolean().required().example(true),
  status_code: Joi.number().integer().example(200),
  response: Joi.string().description("the start of the receiver's answer").example('ok'),
  error: Joi.string().description('why the attempt failed, when it did'),
  instance: Joi.string().description('the instance that made it (host:pid:random)').example('api-1:4211:9f2c'),
});

const delivery = Joi.object({
  id: deliveryId.required(),
  message_id: Joi.string().required().description('the webhook-id header receivers see, the same on every retry').example('msg_65f1c0e2a4b5c6d7e8f90123'),
  webhook: webhookName.description('absent once the webhook is deleted'),
  event: Joi.object({
    type: Joi.string().required().example('webhook.test'),
    timestamp: instantAnswer.required(),
    data: Joi.object().unknown(true).required().example({ webhook: 'default' }),
  })
    .required()
    .description('the event that caused the delivery'),
  format: webhookFormat.required().description("the webhook's format when the event happened"),
  body: Joi.object()
    .unknown(true)
    .required()
    .description('the JSON body as sent: the event itself when typed, its flat body when flat')
    .example({ type: 'webhook.test', timestamp: '2026-11-21T19:40:00.000Z', data: { webhook: 'default' } }),
  status: Joi.string().valid('pending', 'delivered', 'failed').required().example('delivered'),
  attempts: Joi.array().items(attempt).required(),
  next_attempt_at: instantAnswer.description('while pending'),
  created_at: instantAnswer.required(),
});

export const deliveryListResponse = Joi.object({
  data: Joi.array().items(delivery).required(),
  next: Joi.string().allow(null).required().description('cursor of the next page, null on the last').example(null),
});
