import Joi from 'joi';
import { instantAnswer } from '../http/instant.js';
import { webUrl } from '../http/web-url.js';
import { templateId } from '../templates/schemas.js';
import { WEBHOOK_SECRET_PATTERN } from './secret.js';

export const webhookName = Joi.string()
  .pattern(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/)
  .max(100)
  .example('default');
const url = webUrl(['http', 'https']).max(2000).example('https://hooks.example.com/auco');
const secret = Joi.string()
  .pattern(WEBHOOK_SECRET_PATTERN)
  .messages({ 'string.pattern.base': '{{#label}} must be "whsec_" followed by 24 to 64 bytes in base64' })
  .example('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
const webhookDescription = Joi.string().max(500).example('Our CRM');

export interface CreateWebhookInput {
  name: string;
  url: string;
  secret?: string;
  description?: string;
  enabled: boolean;
}

export const createWebhookSchema = Joi.object<CreateWebhookInput, true>({
  name: webhookName.required(),
  url: url.required(),
  secret,
  description: webhookDescription,
  enabled: Joi.boolean().default(true),
});

export interface UpdateWebhookInput {
  name: string;
  url?: string;
  description?: string;
  enabled?: boolean;
}

export const updateWebhookSchema = Joi.object<UpdateWebhookInput, true>({
  name: webhookName.required(),
  url,
  description: webhookDescription,
  enabled: Joi.boolean().example(false),
}).or('url', 'description', 'enabled');

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

export const webhookResponse = Joi.object({
  name: webhookName.required(),
  url: Joi.string().required().example('https://hooks.example.com/auco'),
  description: Joi.string().example('Our CRM'),
  enabled: Joi.boolean().required().example(true),
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
  }).required(),
  status: Joi.string().valid('pending', 'delivered', 'failed').required().example('delivered'),
  attempts: Joi.array().items(attempt).required(),
  next_attempt_at: instantAnswer.description('while pending'),
  created_at: instantAnswer.required(),
});

export const deliveryListResponse = Joi.object({
  data: Joi.array().items(delivery).required(),
  next: Joi.string().allow(null).required().description('cursor of the next page, null on the last').example(null),
});
