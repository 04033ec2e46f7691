import Joi from 'joi';
import { webUrl } from '../http/web-url.js';
import { templateId } from '../templates/schemas.js';
import { WEBHOOK_SECRET_PATTERN } from './secret.js';

export const webhookName = Joi.string()
  .pattern(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/)
  .max(100);
const url = webUrl(['http', 'https']).max(2000);
const secret = Joi.string()
  .pattern(WEBHOOK_SECRET_PATTERN)
  .messages({ 'string.pattern.base': '{{#label}} must be "whsec_" followed by 24 to 64 bytes in base64' });

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
  description: Joi.string().max(500),
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
  description: Joi.string().max(500),
  enabled: Joi.boolean(),
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
