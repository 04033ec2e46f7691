import Joi from 'joi';
import { instantJoi } from '../http/instant.js';
import { webhookName } from '../webhooks/schemas.js';
import { phoneJoi } from './phone.js';

export const VERIFACE_CODE_LENGTH = 16;

export interface CreateVerifaceInput {
  email: string;
  platform: 'whatsapp' | 'web';
  name: string;
  phone: string;
  country: string;
  type: string;
  identification: string;
  userEmail?: string;
  custom?: Record<string, unknown>;
  expiredDate?: Date;
  targetWebhooks?: string[];
  tags?: string[];
}

/** The contract's table: seven required fields, then the optional ones, each with its format. */
export const createVerifaceSchema = Joi.object<CreateVerifaceInput, true>({
  email: Joi.string()
    .email({ tlds: { allow: false } })
    .max(320)
    .required(),
  platform: Joi.string().valid('whatsapp', 'web').required(),
  name: Joi.string().trim().min(1).max(200).required(),
  phone: phoneJoi.required(),
  country: Joi.string().uppercase().length(2).required(),
  type: Joi.string().uppercase().min(1).max(16).required(),
  identification: Joi.string().trim().min(1).max(50).required(),
  userEmail: Joi.string()
    .email({ tlds: { allow: false } })
    .max(320),
  custom: Joi.object().unknown(true),
  expiredDate: instantJoi,
  targetWebhooks: Joi.array().items(webhookName).min(1).unique(),
  tags: Joi.array().items(Joi.string().min(1).max(100)).unique(),
});

const verifaceCode = Joi.string()
  .length(VERIFACE_CODE_LENGTH)
  .pattern(/^[A-Z0-9]+$/)
  .messages({ 'string.pattern.base': '{{#label}} must only contain uppercase letters and digits' });

export const verifaceCodeQuery = Joi.object<{ code: string }, true>({ code: verifaceCode.required() });

export interface ReviewVerifaceInput {
  code: string;
  decision: 'approve' | 'reject';
  email: string;
  reason?: string;
}

/** A person's decision on a BLOCKED face validation. */
export const reviewVerifaceSchema = Joi.object<ReviewVerifaceInput, true>({
  code: verifaceCode.required(),
  decision: Joi.string().valid('approve', 'reject').required(),
  email: Joi.string()
    .email({ tlds: { allow: false } })
    .max(320)
    .required()
    .description('a registered user of the organization, shown as emailValidated'),
  reason: Joi.string().trim().min(1).max(1000),
});

export interface ValidateFacesInput {
  country: string;
  type: string;
  identification: string;
  documentImage: string;
  photo: string;
}

const base64Image = Joi.string().base64().min(8);

/** POST /veriface/validate: the document and the face, both as base64 JPEG or PNG. */
export const validateFacesSchema = Joi.object<ValidateFacesInput, true>({
  country: Joi.string().uppercase().length(2).required(),
  type: Joi.string().uppercase().min(1).max(16).required(),
  identification: Joi.string().trim().min(1).max(50).required(),
  documentImage: base64Image.required().description('the photo of the identity document, JPEG or PNG in base64'),
  photo: base64Image.required().description("the photo of the person's face, JPEG or PNG in base64"),
});

export interface CheckDocumentInput {
  country: string;
  type: string;
  identification: string;
  image: string;
}

export const checkDocumentSchema = Joi.object<CheckDocumentInput, true>({
  country: Joi.string().uppercase().length(2).required(),
  type: Joi.string().uppercase().min(1).max(16).required(),
  identification: Joi.string().trim().min(1).max(50).required(),
  image: base64Image.required().description('the photo of one side of the identity document, JPEG or PNG in base64'),
});
