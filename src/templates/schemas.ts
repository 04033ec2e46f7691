import Joi from 'joi';
import { instantAnswer } from '../fields/instant.js';
import { webUrl } from '../fields/web-url.js';
import { compileAnswerPattern, MAX_PATTERN_PROGRAM_SIZE, type PatternProblem } from './answer-pattern.js';
import { type TemplateLayout, templateLayoutSchema } from './page-layout.js';
import { QUESTION_TYPES, type QuestionType } from './question-types.js';

export { QUESTION_TYPES, type QuestionType } from './question-types.js';

export const LIMITS = {
  descriptionLength: 500,
  nameLength: 200,
  questions: 500,
  signers: 50,
  optionsPerQuestion: 500,
} as const;

export interface QuestionOption {
  name: string;
  value: string;
  label?: string;
}

export interface Question {
  name: string;
  type: QuestionType;
  description: string;
  value?: string;
  options?: QuestionOption[];
  prereq?: { k: string; v: string }[];
  prereqOptionals?: string[];
  help?: string;
  values?: string[];
  endpoint?: string;
  removeText?: boolean;
  addText?: boolean;
  min?: number | string;
  max?: number | string;
  subDays?: number;
  subYears?: number;
  afterSubYears?: number;
  maxlength?: number;
  regex?: string;
  country?: string;
  allow?: ('draw' | 'font')[];
  groupQuestion?: { id: string; max: number; errorMessage?: string };
}

export interface SignerProfile {
  type: string;
  name?: string;
  identification?: string;
  email?: string;
  phone?: string;
  role?: 'SIGNER' | 'APPROVER';
  order?: number;
  package?: boolean;
  country?: string;
  identificationType?: string;
  signature?: string;
  notification?: boolean;
}

/** Everything of a template except its identity, name and description: stored as one JSON document. */
export interface TemplateBody {
  config: Question[];
  sign: string[];
  signatureProfile: SignerProfile[];
  preBuild: boolean;
  preBuildData?: string[];
  preFill?: { name: string; value: string }[];
  help?: Record<string, string>;
  /** The document's page layout; a template stored before it was checked may hold any object. */
  custom?: TemplateLayout;
  files?: { name: string; approve?: string; optional?: boolean }[];
}

export interface CreateTemplateInput extends TemplateBody {
  name: string;
  description?: string;
}

export type UpdateTemplateInput = Partial<CreateTemplateInput> & { id: string };

const identifier = Joi.string()
  .pattern(/^[A-Za-z0-9][A-Za-z0-9_-]*$/)
  .max(100);

export const templateId = Joi.string().length(24).hex().lowercase().example('65f1c0e2a4b5c6d7e8f90123');

const PATTERN_ERRORS: Record<PatternProblem, string> = {
  syntax: 'string.regex',
  unsupported: 'string.regexUnsupported',
  'too-large': 'string.regexTooLarge',
};

const validRegex = (value: string, helpers: Joi.CustomHelpers) => {
  const compiled = compileAnswerPattern(value);
  return compiled.ok ? value : helpers.error(PATTERN_ERRORS[compiled.problem]);
};

const option = Joi.object<QuestionOption, true>({
  name: Joi.string().min(1).max(500).required(),
  value: Joi.string().min(1).max(200).required(),
  label: Joi.string().max(500),
});

const limit = Joi.alternatives().try(Joi.number(), Joi.string().max(50));

const question = Joi.object<Question, true>({
  name: identifier.required(),
  type: Joi.string()
    .valid(...QUESTION_TYPES)
    .required(),
  description: Joi.string().min(1).max(2000).required(),
  value: Joi.string().max(200),
  options: Joi.array()
    .items(option)
    .min(1)
    .max(LIMITS.optionsPerQuestion)
    .unique('value')
    .when('type', { is: Joi.valid('clausula', 'select', 'searchlist'), then: Joi.required() }),
  prereq: Joi.array()
    .items(Joi.object({ k: Joi.string().required(), v: Joi.string().required() }))
    .min(1),
  prereqOptionals: Joi.array().items(Joi.string()),
  help: Joi.string(),
  values: Joi.array().items(Joi.string().min(1)).min(1).unique().when('type', { is: 'check', then: Joi.required() }),
  endpoint: webUrl(['https']).when('type', { is: 'request', then: Joi.required() }),
  removeText: Joi.boolean(),
  addText: Joi.boolean(),
  min: limit,
  max: limit,
  subDays: Joi.number().integer(),
  subYears: Joi.number().integer(),
  afterSubYears: Joi.number().integer(),
  maxlength: Joi.number().integer().min(1),
  regex: Joi.string().max(500).custom(validRegex),
  country: Joi.string().min(2).max(3),
  allow: Joi.array().items(Joi.string().valid('draw', 'font')).min(1).unique(),
  groupQuestion: Joi.object({ id: Joi.string().required(), max: Joi.number().required(), errorMessage: Joi.string() }),
}).messages({
  'string.regex': '{{#label}} must be a valid regular expression',
  'string.regexUnsupported': '{{#label}} must be a valid regular expression without look-around or back-references',
  'string.regexTooLarge': `{{#label}} must be a smaller regular expression: its repeats expand it beyond ${MAX_PATTERN_PROGRAM_SIZE} steps`,
});

const signerProfile = Joi.object<SignerProfile, true>({
  type: identifier.required(),
  name: Joi.string(),
  identification: Joi.string(),
  email: Joi.string(),
  phone: Joi.string(),
  role: Joi.string().valid('SIGNER', 'APPROVER'),
  order: Joi.number().integer().min(0),
  package: Joi.boolean(),
  country: Joi.string().min(2).max(3),
  identificationType: Joi.string(),
  signature: Joi.string(),
  notification: Joi.boolean(),
});

const description = Joi.string().min(1).max(LIMITS.descriptionLength);

const bodyFields = {
  name: Joi.string().trim().min(1).max(LIMITS.nameLength),
  description,
  config: Joi.array().items(question).max(LIMITS.questions).unique('name'),
  signatureProfile: Joi.array().items(signerProfile).max(LIMITS.signers).unique('type'),
  sign: Joi.array().items(Joi.string()).unique(),
  preBuild: Joi.boolean(),
  preBuildData: Joi.array().items(Joi.string()).unique(),
  preFill: Joi.array()
    .items(Joi.object({ name: identifier.required(), value: Joi.string().allow('').max(2000).required() }))
    .unique('name'),
  help: Joi.object().pattern(Joi.string(), Joi.string().max(2000)),
  custom: templateLayoutSchema,
  files: Joi.array().items(Joi.object({ name: Joi.string().min(1).required(), approve: Joi.string(), optional: Joi.boolean() })),
};

export const createTemplateSchema = Joi.object<CreateTemplateInput, true>({
  ...bodyFields,
  name: bodyFields.name.required(),
  config: bodyFields.config.required(),
  signatureProfile: bodyFields.signatureProfile.required(),
  sign: bodyFields.sign.required(),
  preBuild: bodyFields.preBuild.default(false),
}).example({
  name: 'Lease',
  description: 'Residential lease between a landlord and a tenant',
  config: [
    { name: 'tenant_name', type: 'name', description: "Tenant's full name" },
    { name: 'tenant_email', type: 'email', description: "Tenant's e-mail" },
    { name: 'rent', type: 'currency', description: 'Monthly rent' },
  ],
  sign: ['tenant_name', 'rent'],
  signatureProfile: [{ type: 'tenant', name: 'tenant_name', email: 'tenant_email' }],
});

export const updateTemplateSchema = Joi.object<UpdateTemplateInput, true>({
  id: templateId.required(),
  ...bodyFields,
}).example({ id: '65f1c0e2a4b5c6d7e8f90123', name: 'Lease 2027' });

export const templateIdQuery = Joi.object<{ id: string }, true>({ id: templateId.required() });

export interface ListTemplatesQuery {
  id?: string;
  limit: number;
  cursor?: string;
}

export const DEFAULT_PAGE_SIZE = 100;

export const listTemplatesQuery = Joi.object<ListTemplatesQuery, true>({
  id: templateId,
  limit: Joi.number().integer().min(1).max(500).default(DEFAULT_PAGE_SIZE),
  cursor: Joi.string().max(200),
});

const urls = Joi.object({
  mask: Joi.string()
    .uri()
    .required()
    .description('URL of the Mask HTML (the fill preview)')
    .example('https://sign.example.com/files/templates/65f1c0e2a4b5c6d7e8f90123/mask.html?expires=1795000000&signature=abc'),
  complete: Joi.string()
    .uri()
    .required()
    .description('URL of the Complete HTML (rendered into the document)')
    .example('https://sign.example.com/files/templates/65f1c0e2a4b5c6d7e8f90123/complete.html?expires=1795000000&signature=abc'),
});

export const templateUrlsResponse = Joi.object({
  id: templateId.required(),
  urls: urls.description('PUT URLs for both HTML files, valid 5 minutes; send Content-Type: text/html and the raw bytes'),
});

const summaryFields = {
  id: templateId.required(),
  name: Joi.string().required().example('Lease'),
  description: Joi.string().description('absent when never set').example('Residential lease between a landlord and a tenant'),
  status: Joi.string().valid('active', 'inactive').required().example('active'),
  created_at: instantAnswer.required(),
  updated_at: instantAnswer.required(),
};

export const templateListResponse = Joi.object({
  data: Joi.array().items(Joi.object(summaryFields)).required(),
  next: Joi.string().allow(null).required().description('cursor of the next page, null on the last').example(null),
});

export const templateDetailResponse = Joi.object({
  ...summaryFields,
  build: Joi.number().integer().description('increased by every update'),
  ...bodyFields,
  urls: urls.description('GET URLs to download both HTML files, valid 5 minutes'),
});

export const deleteTemplateResponse = Joi.object({
  id: templateId.required(),
  deleted: Joi.boolean().required().example(true),
  references: Joi.number().integer().min(0).required().description('reference links deleted with it').example(0),
});
