import Joi from 'joi';
import type { WebhookFormat } from '../db/schema.js';
import { webUrl } from '../fields/web-url.js';
import { maskedHeaderAnswer, webhookDescription, webhookFormat, webhookName, webhookUrl } from '../webhooks/schemas.js';
import { type StaticHeader, staticHeaderSchema } from '../webhooks/static-header.js';
import { DEFAULT_WEBHOOK } from '../webhooks/webhooks.js';
import { HEX_COLOUR, isWhite, type UxOptions } from './ux-options.js';

/** The real service's message when the list has no `default` webhook (REFERENCE §10.2), word for word. */
export const DEFAULT_WEBHOOK_MISSING = 'Falta el webhook default';

const MAX_WEBHOOKS = 50;

const colour = Joi.string().pattern(HEX_COLOUR).messages({ 'string.pattern.base': '{{#label}} must be a hex colour, #RGB or #RRGGBB' });

const uxOptions = Joi.object<UxOptions, true>({
  primaryColor: colour
    .custom((value: string, helpers) => (isWhite(value) ? helpers.error('string.white') : value))
    .messages({ 'string.white': '{{#label}} cannot be white' })
    .example('#021C30'),
  alternateColor: colour.example('#A557F2'),
});

export interface CompanyWebhookInput {
  /** The webhook's name in /webhooks. */
  id: string;
  description?: string;
  url: string;
  header?: StaticHeader;
  /** Ours: `flat` (the real service's bodies) for a new webhook unless sent; an existing one keeps its own. */
  format?: WebhookFormat;
}

const companyWebhook = Joi.object<CompanyWebhookInput, true>({
  id: webhookName.required(),
  description: webhookDescription.example('Webhook principal'),
  url: webhookUrl.required(),
  header: staticHeaderSchema,
  format: webhookFormat.example('flat'),
});

export interface UpdateCompanyInput {
  name?: string;
  /** The logo's https URL; "" removes it. */
  image?: string;
  uxOptions?: UxOptions;
  webhooks?: CompanyWebhookInput[];
}

export const updateCompanySchema = Joi.object<UpdateCompanyInput, true>({
  name: Joi.string().trim().min(1).max(200).example('Inmobiliaria Sur'),
  image: webUrl(['https']).max(2000).allow('').example('https://static.example.com/logo.png'),
  uxOptions,
  webhooks: Joi.array()
    .items(companyWebhook)
    .max(MAX_WEBHOOKS)
    .unique('id')
    .custom((list: CompanyWebhookInput[], helpers) => (list.some((w) => w.id === DEFAULT_WEBHOOK) ? list : helpers.error('array.defaultMissing')))
    .messages({ 'array.defaultMissing': DEFAULT_WEBHOOK_MISSING })
    .example([{ id: 'default', description: 'Webhook principal', url: 'https://hooks.example.com/auco' }]),
});

export const updatedCompanyResponse = Joi.object({ response: Joi.string().valid('OK').required() });

export const companyResponse = Joi.object({
  id: Joi.string().required().example('61ba073970df523d9d232a27'),
  name: Joi.string().required().example('Inmobiliaria Sur'),
  webhooks: Joi.array()
    .items(
      Joi.object({
        id: webhookName.required(),
        description: Joi.string().example('Webhook principal'),
        url: Joi.string().description('with the public key, its origin only: https://hooks.example.com/********').example('https://hooks.example.com/auco'),
        header: maskedHeaderAnswer,
        format: webhookFormat.description('private key only'),
      }),
    )
    .required(),
  uxOptions: Joi.object({ primaryColor: Joi.string().required().example('#021C30'), alternateColor: Joi.string().required().example('#A557F2') }).required(),
  image: Joi.string().allow('').required().example('https://static.example.com/logo.png'),
  webhook: Joi.string()
    .allow('')
    .description("legacy: the default webhook's URL (its origin only with the public key)")
    .example('https://hooks.example.com/auco'),
  webhookHeader: Joi.object({ key: Joi.string(), value: Joi.string() }).description("legacy: the default webhook's header, its value masked"),
});
