import Joi from 'joi';
import type { ProcessStatus } from '../db/schema.js';
import { instantJoi } from '../http/instant.js';
import { DEFAULT_PAGE_SIZE, templateId } from '../templates/schemas.js';
import { phoneJoi } from '../veriface/phone.js';
import { webhookName } from '../webhooks/schemas.js';
import type { ValidationFieldsInput, ValidationOptionsInput } from './identity-validations.js';

export const PROCESS_CODE_LENGTH = 10;
/**
 * A participant's id follows the process code in the SDK's `document` and in unlock codes: 16
 * random characters (82 bits), so knowing a process code opens nobody's flow. Processes created
 * before have ids of two characters, which keep working.
 */
export const PARTICIPANT_ID_LENGTH = 16;
export const LEGACY_PARTICIPANT_ID_LENGTH = 2;
export const MAX_PARTICIPANTS = 50;
export const MAX_PACKAGE_DOCUMENTS = 20;

/** One answer of `data`: `key` names a question of the template. */
export interface Answer {
  key: string;
  value: string;
}

export interface SignerInput extends ValidationFieldsInput {
  name: string;
  email: string;
  phone?: string;
  identification?: string;
  identificationType?: string;
  country?: string;
  role: 'SIGNER' | 'APPROVER';
  order: number;
  /** The template signer type whose signature place this participant takes. */
  type?: string;
  notification?: boolean;
}

/** Fields every creation shares: the creator, the e-mail to the signers, expiry, reminders, and what webhooks echo. */
export interface ProcessFieldsInput extends ValidationFieldsInput {
  email: string;
  name: string;
  subject?: string;
  message?: string;
  expiredDate?: Date;
  remember?: number;
  custom?: Record<string, unknown>;
  targetWebhooks?: string[];
  tags?: string[];
  notification: boolean;
}

export interface SaveFromTemplateInput extends ProcessFieldsInput {
  document: string;
  data: Answer[];
  sign: boolean;
  signProfile?: SignerInput[];
}

export interface UploadPdfInput extends ProcessFieldsInput {
  file?: string;
  compress?: boolean;
  signProfile: SignerInput[];
}

export interface PackageDocumentInput {
  name?: string;
  document?: string;
  data?: Answer[];
  file?: string;
  signProfile?: SignerInput[];
}

export interface PackageInput extends ProcessFieldsInput {
  document?: string;
  data?: Answer[];
  compress?: boolean;
  signProfile?: SignerInput[];
  documents: PackageDocumentInput[];
}

const email = Joi.string()
  .email({ tlds: { allow: false } })
  .max(320);

const validationOptions = Joi.object<ValidationOptionsInput, true>({
  camera: Joi.string().valid('identification', 'photo'),
  otpCode: Joi.string().valid('phone', 'email'),
  whatsapp: Joi.boolean(),
  both: Joi.boolean(),
  identificationCardBack: Joi.boolean(),
});

/** `both` passes the schema so the validation rules can refuse it with the message that says where it belongs. */
const validationFields = {
  camera: Joi.boolean(),
  otpCode: Joi.boolean(),
  options: validationOptions,
  both: Joi.boolean(),
};

const signer = Joi.object<SignerInput, true>({
  name: Joi.string().trim().min(1).max(200).required(),
  email: email.required(),
  phone: phoneJoi,
  identification: Joi.string().trim().min(1).max(50),
  identificationType: Joi.string().uppercase().min(1).max(16),
  country: Joi.string().uppercase().length(2),
  role: Joi.string().valid('SIGNER', 'APPROVER').default('SIGNER'),
  order: Joi.number().integer().min(0).max(MAX_PARTICIPANTS).default(0),
  type: Joi.string().max(100),
  notification: Joi.boolean(),
  ...validationFields,
});

const signProfile = Joi.array()
  .items(signer)
  .min(1)
  .max(MAX_PARTICIPANTS)
  .unique('email', { ignoreUndefined: true })
  .unique('phone', { ignoreUndefined: true });

const answers = Joi.array()
  .items(Joi.object<Answer, true>({ key: Joi.string().min(1).max(100).required(), value: Joi.string().allow('').max(12_000_000).required() }))
  .max(1000);

/** Base64 of a PDF sent inline; larger files go through the upload URL (`compress`). */
const base64File = Joi.string().base64().min(8);

const processFields = {
  email: email.required(),
  name: Joi.string().trim().min(1).max(200).required(),
  subject: Joi.string().trim().min(1).max(200),
  message: Joi.string().max(5000),
  expiredDate: instantJoi,
  remember: Joi.number().integer().min(3).max(720).multiple(3).description('hours between reminders to who has not acted yet'),
  custom: Joi.object().unknown(true),
  targetWebhooks: Joi.array().items(webhookName).min(1).unique(),
  tags: Joi.array().items(Joi.string().min(1).max(100)).unique(),
  notification: Joi.boolean().default(true),
  ...validationFields,
};

export const saveFromTemplateSchema = Joi.object<SaveFromTemplateInput, true>({
  ...processFields,
  document: templateId.required().description('the template the document is filled from'),
  data: answers.default([]).description("answers to the template's questions, {key: question name, value}"),
  sign: Joi.boolean().valid(true).default(true).description('the electronic signing flow (the only one this service runs)'),
  signProfile: signProfile.description("the participants; when absent they come from the template's signatureProfile and the answers"),
});

export const uploadPdfSchema = Joi.object<UploadPdfInput, true>({
  ...processFields,
  file: base64File.description('the PDF in base64, for small files'),
  compress: Joi.boolean().valid(true).description('answer an upload URL for the PDF instead (PUT application/pdf, 5 minutes)'),
  signProfile: signProfile.required(),
}).xor('file', 'compress');

/** Everyone in a package is invited at once: no turns (the real service's code for it). */
const packageSigner = signer.keys({
  order: Joi.number().valid(0).default(0).messages({ 'any.only': 'SIGNER_SEQUENCE_NOT_SUPPORTED' }),
});

const packageDocument = Joi.object<PackageDocumentInput, true>({
  name: Joi.string().trim().min(1).max(200),
  document: templateId,
  data: answers,
  file: base64File,
  signProfile: Joi.array().items(packageSigner).min(1).max(MAX_PARTICIPANTS).unique('email'),
}).oxor('document', 'file');

export const packageSchema = Joi.object<PackageInput, true>({
  ...processFields,
  document: templateId.description('template of every document that names none and sends no file'),
  data: answers.description('answers for every template document that sends none'),
  compress: Joi.boolean().valid(true).description('answer an upload URL for each document that has no template and no file'),
  signProfile: Joi.array().items(packageSigner).min(1).max(MAX_PARTICIPANTS).unique('email'),
  documents: Joi.array().items(packageDocument).min(2).max(MAX_PACKAGE_DOCUMENTS).required().messages({ 'array.min': 'DOCUMENTS_MIN_TWO' }),
});

export const processCode = Joi.string()
  .length(PROCESS_CODE_LENGTH)
  .pattern(/^[A-Z0-9]+$/)
  .messages({ 'string.pattern.base': '{{#label}} must only contain uppercase letters and digits' });

export const PROCESS_STATUSES: ProcessStatus[] = ['CREATED', 'FINISH', 'REJECTED', 'EXPIRED', 'CANCELLED'];

export interface ReadProcessQuery {
  code?: string;
  status?: ProcessStatus;
  template?: string;
  limit: number;
  cursor?: string;
  /** With code: each participant's identity photos as short-lived URLs. */
  image?: boolean;
}

export const readProcessQuery = Joi.object<ReadProcessQuery, true>({
  code: processCode,
  status: Joi.string().valid(...PROCESS_STATUSES),
  template: templateId,
  limit: Joi.number().integer().min(1).max(500).default(DEFAULT_PAGE_SIZE),
  cursor: Joi.string().max(200),
  image: Joi.boolean(),
})
  .with('image', 'code')
  .oxor('code', 'status')
  .oxor('code', 'template')
  .oxor('code', 'cursor');

export const roadmapQuery = Joi.object<{ code: string }, true>({ code: processCode.required() });

export interface CancelInput {
  codes: string[];
  message: string;
  email: string;
}

export const cancelSchema = Joi.object<CancelInput, true>({
  codes: Joi.array().items(processCode).min(1).max(100).unique().required(),
  message: Joi.string().trim().min(1).max(1000).required(),
  email: email.required(),
});

const createdParticipant = Joi.object({
  id: Joi.string().length(2).required().description('the participant id, unique within the process'),
  name: Joi.string().required(),
  email: Joi.string().required(),
  phone: Joi.string(),
  role: Joi.string().valid('SIGNER', 'APPROVER').required(),
  url: Joi.string().uri().description('the personal link, only for participants the service does not notify'),
});

export const createdProcessResponse = Joi.object({
  code: processCode.required(),
  document: processCode.required().description("the same code, under the real service's name for it"),
  signProfile: Joi.array().items(createdParticipant).required(),
  documents: Joi.array()
    .items(Joi.object({ name: Joi.string().required(), url: Joi.string().uri().description('PUT the PDF here (compress), 5 minutes') }))
    .required(),
  url: Joi.string().uri().description('POST /document/upload with compress: the upload URL of the PDF'),
  package: processCode.description('POST /document/many: the package code (the process code)'),
});

export const cancelResponse = Joi.object({
  success: Joi.number().integer().min(0).required().description('processes cancelled'),
  errors: Joi.object({
    cant: Joi.number().integer().min(0).required(),
    documents: Joi.array().items(Joi.string()).description('codes unknown to the organization or no longer in signature'),
  }).required(),
});

export interface UnlockInput {
  code: string;
  email: string;
  status: 'approve' | 'reject' | 'reset' | 'cancel';
  message?: string;
}

/** REFERENCE §3.9: `code` is the process code followed by the participant's id (16 characters, or 2 for processes created before). */
export const unlockSchema = Joi.object<UnlockInput, true>({
  code: Joi.string()
    .min(PROCESS_CODE_LENGTH)
    .max(PROCESS_CODE_LENGTH + PARTICIPANT_ID_LENGTH)
    .pattern(/^[A-Z0-9]+$/)
    .required()
    .messages({ 'string.pattern.base': '{{#label}} must only contain uppercase letters and digits' })
    .description('<process code><participant id>, e.g. TR99AQMY31G8RK2D7QX0PLM4WZ'),
  email: Joi.string()
    .email({ tlds: { allow: false } })
    .max(320)
    .required()
    .description('the registered user of the organization who decides'),
  status: Joi.string().valid('approve', 'reject', 'reset', 'cancel').required(),
  message: Joi.string()
    .trim()
    .min(1)
    .max(5000)
    .when('status', { is: Joi.valid('approve', 'cancel'), then: Joi.required(), otherwise: Joi.forbidden() }),
});
