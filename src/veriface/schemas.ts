import Joi from 'joi';
import { instantAnswer, instantJoi } from '../fields/instant.js';
import { attemptsSchema, documentDataSchema, identityHashSchema, numberCheckSchema, ocrDataSchema } from '../identity-attempts/schemas.js';
import { languageJoi } from '../organizations/language-joi.js';
import type { Language } from '../organizations/languages.js';
import { webhookName } from '../webhooks/schemas.js';
import { UNUSABLE_PHOTO_REASONS } from './face-matcher.js';
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
  /** What the person reads: their messages and their page. Absent: the organization's. */
  language?: Language;
}

/** The contract's table: seven required fields, then the optional ones, each with its format. */
const country = Joi.string().uppercase().length(2).example('CO');
const documentType = Joi.string().uppercase().min(1).max(16).example('CC');
const identification = Joi.string().trim().min(1).max(50).example('1001001010');

export const createVerifaceSchema = Joi.object<CreateVerifaceInput, true>({
  email: Joi.string()
    .email({ tlds: { allow: false } })
    .max(320)
    .required()
    .example('ana@company.example'),
  platform: Joi.string().valid('whatsapp', 'web').required().example('web'),
  name: Joi.string().trim().min(1).max(200).required().example('Juan Pérez'),
  phone: phoneJoi.required().example('+573001234567'),
  country: country.required(),
  type: documentType.required(),
  identification: identification.required(),
  userEmail: Joi.string()
    .email({ tlds: { allow: false } })
    .max(320)
    .example('juan@people.example'),
  custom: Joi.object().unknown(true),
  expiredDate: instantJoi,
  targetWebhooks: Joi.array().items(webhookName).min(1).unique(),
  tags: Joi.array().items(Joi.string().min(1).max(100)).unique(),
  language: languageJoi.description("es, en, pt or fr: the person's messages and validation page; absent, the organization's"),
});

const verifaceCode = Joi.string()
  .length(VERIFACE_CODE_LENGTH)
  .pattern(/^[A-Z0-9]+$/)
  .messages({ 'string.pattern.base': '{{#label}} must only contain uppercase letters and digits' })
  .example('K7Q2M9X4T1B8R3ZD');

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
    .description('a registered user of the organization, shown as emailValidated')
    .example('ana@company.example'),
  reason: Joi.string().trim().min(1).max(1000).example('Checked against the original document'),
});

export interface ValidateFacesInput {
  country: string;
  type: string;
  identification: string;
  documentImage: string;
  photo: string;
}

const base64Image = Joi.string().base64().min(8).example('/9j/4AAQSkZJRgABAQAAAQAB');

/** POST /veriface/validate: the document and the face, both as base64 JPEG or PNG. */
export const validateFacesSchema = Joi.object<ValidateFacesInput, true>({
  country: country.required(),
  type: documentType.required(),
  identification: identification.required(),
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
  country: country.required(),
  type: documentType.required(),
  identification: identification.required(),
  image: base64Image.required().description('the photo of one side of the identity document, JPEG or PNG in base64'),
});

export const verifaceStatus = Joi.string().valid('INPROGRESS', 'APPROVED', 'VALIDATED', 'INVALIDATED', 'BLOCKED', 'EXPIRED').example('APPROVED');
const similarity = Joi.number().min(0).max(100).description('0 to 100, once the face was compared with the document').example(87.5);
const photoUrl = Joi.string().uri().example('https://sign.example.com/photos/verifaces/65f1c0e2a4b5c6d7e8f90123/face.jpg?expires=1795000000&signature=abc');

export const createdVerifaceResponse = Joi.object({
  code: verifaceCode.required(),
  url: Joi.string()
    .uri()
    .description('the link to deliver, only when the service did not notify the person')
    .example('https://sign.example.com/v/2u0cJ1sC9z1bQe3m0rX8Y2k4Lq7HfT5a'),
});

const publicVerifaceFields = {
  code: verifaceCode.required(),
  platform: Joi.string().valid('whatsapp', 'web').required().example('web'),
  status: verifaceStatus.required(),
  name: Joi.string().required().example('Juan Pérez'),
  expiredDate: instantAnswer,
  similarity,
  reason: Joi.string().description(
    "why it did not end APPROVED: FACE_MISMATCH, DOCUMENT_NUMBER_MISMATCH, MANUAL_REVIEW_REQUIRED, LIVENESS_SUSPECT, DOCUMENT_FAKE (the front's printed number and the number the back holds differ)",
  ),
  createdAt: instantAnswer.required(),
  updatedAt: instantAnswer.required(),
};

const stage = Joi.string().example('created');

/** GET /veriface with the private key. */
const verifaceResponse = Joi.object({
  ...publicVerifaceFields,
  email: Joi.string().required().example('ana@company.example'),
  userEmail: Joi.string().example('juan@people.example'),
  phone: Joi.string().required().example('+573001234567'),
  country: Joi.string().required().example('CO'),
  identificationType: Joi.string().required().example('CC'),
  identificationNumber: Joi.string().required().example('1001001010'),
  custom: Joi.object().unknown(true).example({ crmId: 'deal-4711' }),
  targetWebhooks: Joi.array().items(webhookName),
  tags: Joi.array().items(Joi.string()).example(['onboarding']),
  emailValidated: Joi.string().description('the user who decided a BLOCKED validation by hand'),
  reviewReason: Joi.string(),
  photos: Joi.object({ documentFront: photoUrl, documentBack: photoUrl, face: photoUrl }).required().description('5-minute URLs of the photos captured so far'),
  photosDeletedAt: instantAnswer,
  stages: Joi.array()
    .items(Joi.object({ stage: stage.required(), at: instantAnswer.required(), detail: Joi.object().unknown(true) }))
    .required(),
  ocrData: ocrDataSchema,
  attempts: attemptsSchema.required(),
  hash: identityHashSchema,
});

/** GET /veriface with the public key: no identity data, contact data, photos, `custom` or stage details. */
const publicVerifaceResponse = Joi.object({
  ...publicVerifaceFields,
  stages: Joi.array()
    .items(Joi.object({ stage: stage.required(), at: instantAnswer.required() }))
    .required(),
});

export const readVerifaceResponse = Joi.alternatives().try(verifaceResponse, publicVerifaceResponse);

export const reviewedVerifaceResponse = Joi.object({
  code: verifaceCode.required(),
  status: Joi.string().valid('VALIDATED', 'INVALIDATED').required().example('VALIDATED'),
  emailValidated: Joi.string().required().example('ana@company.example'),
});

const unusablePhoto = Joi.string().valid(...UNUSABLE_PHOTO_REASONS);

export const validateFacesResponse = Joi.object({
  error: Joi.boolean().required().example(false),
  message: Joi.alternatives()
    .try(Joi.string().valid('FACE_MISMATCH', 'DOCUMENT_NUMBER_MISMATCH', 'LIVENESS_SUSPECT'), unusablePhoto)
    .description('why it failed; LIVENESS_SUSPECT: the faces match but the face photo may be of a printed or on-screen picture, for a person to look at'),
  similarity,
  liveness: Joi.number()
    .min(0)
    .max(1)
    .description("the face photo's liveness score, 0 to 1, when the faces were compared; below LIVENESS_THRESHOLD a match answers LIVENESS_SUSPECT")
    .example(0.98),
  code: verifaceCode.required().description("names this answer in the service's logs"),
  identificationCard: Joi.object({
    error: Joi.boolean().required().example(false),
    message: Joi.alternatives().try(Joi.string().valid('DOCUMENT_NUMBER_MISMATCH'), unusablePhoto),
    isFront: Joi.boolean().required().example(true).description('a portrait was found on the document'),
    data: documentDataSchema.required().description('what was read on the document'),
    numberCheck: numberCheckSchema.required(),
  }).required(),
});

export const checkDocumentResponse = Joi.object({
  code: verifaceCode.required(),
  error: Joi.boolean().required().example(false),
  message: Joi.alternatives().try(
    Joi.string().valid('IMAGE_TOO_SMALL', 'IMAGE_BLURRY', 'DOCUMENT_NUMBER_UNREADABLE', 'DOCUMENT_NUMBER_MISMATCH'),
    unusablePhoto,
  ),
  isFront: Joi.boolean().required().example(true),
  data: documentDataSchema.required().description('what was read'),
  checks: Joi.object({
    imageQuality: Joi.object({
      passed: Joi.boolean().required().example(true),
      problem: Joi.string().valid('IMAGE_TOO_SMALL', 'IMAGE_BLURRY'),
      width: Joi.number().integer().required().example(1280),
      height: Joi.number().integer().required().example(800),
      sharpness: Joi.number().required().example(312.4),
    }).required(),
    portrait: Joi.alternatives()
      .try(
        Joi.object({ made: Joi.boolean().valid(true).required(), found: Joi.boolean().required(), problem: unusablePhoto }),
        Joi.object({ made: Joi.boolean().valid(false).required() }),
      )
      .required()
      .example({ made: true, found: true }),
    documentNumber: Joi.object({
      readFrom: Joi.string().valid('PDF417', 'MRZ', 'OCR').example('PDF417'),
      number: Joi.string().example('1001001010'),
      matches: Joi.boolean().required().example(true),
      machineZoneValid: Joi.boolean(),
    }).required(),
  }).required(),
  notChecked: Joi.array().items(Joi.string().valid('forgery', 'liveness')).required().example(['forgery', 'liveness']),
});
