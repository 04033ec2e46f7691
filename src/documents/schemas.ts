import Joi from 'joi';
import type { ProcessStatus } from '../db/schema.js';
import { instantAnswer, instantJoi } from '../fields/instant.js';
import { attemptsSchema, identityHashSchema, ocrDataSchema } from '../identity-attempts/schemas.js';
import { languageJoi } from '../organizations/language-joi.js';
import type { Language } from '../organizations/languages.js';
import { DEFAULT_PAGE_SIZE, templateId } from '../templates/schemas.js';
import { phoneJoi } from '../veriface/phone.js';
import { webhookName } from '../webhooks/schemas.js';
import { type FileAskedInput, filesAskedJoi } from './attachments/files-asked.js';
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
/** Readers and CC addresses of one process, each: enough for a board, few enough that a process is no mailing list. */
export const MAX_READERS = 20;
export const MAX_CC = 20;

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
  /** The template signer type whose signature place this participant takes (a PDF template's stored positions too). */
  type?: string;
  notification?: boolean;
  /** Boxes on the PDF's pages where the signature goes. */
  position?: PositionInput[];
  /** The signature goes where the PDF shows `{{signature:N}}`, N the signer's index. */
  label?: boolean;
  /** Attachments asked of the participant, given on their signing page. */
  files?: FileAskedInput[];
  /** What the participant reads: their messages, their page, and the final files when everyone shares it. Absent: the organization's. */
  language?: Language;
}

/** A box on an uploaded PDF's page: its bottom-right corner relative to the page (y from the top), its size in points. */
export interface PositionInput {
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Someone who follows the process without acting in it (docs/real-service.md §3 `readers`). */
export interface ReaderInput {
  name: string;
  email: string;
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
  readers?: ReaderInput[];
  /** Addresses sent a copy of the final files once they are sealed. */
  cc?: string[];
  /** A folder of the creator, `/` between levels; made the first time it is named. */
  folder?: string;
}

export interface SaveFromTemplateInput extends ProcessFieldsInput {
  /** A process in edit mode to overwrite, keeping its code (docs/real-service.md §3.10). */
  code?: string;
  document: string;
  data: Answer[];
  sign: boolean;
  signProfile?: SignerInput[];
}

export interface UploadPdfInput extends ProcessFieldsInput {
  /** A process in edit mode to overwrite, keeping its code. */
  code?: string;
  file?: string;
  /** A PDF template of the organization, instead of `file`. */
  document?: string;
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
  /** A package in edit mode to overwrite, keeping its code. */
  package?: string;
  document?: string;
  data?: Answer[];
  compress?: boolean;
  signProfile?: SignerInput[];
  documents: PackageDocumentInput[];
}

export const email = Joi.string()
  .email({ tlds: { allow: false } })
  .max(320)
  .example('ana@company.example');

const validationOptions = Joi.object<ValidationOptionsInput, true>({
  camera: Joi.string().valid('identification', 'photo'),
  otpCode: Joi.string().valid('phone', 'email'),
  whatsapp: Joi.boolean(),
  both: Joi.boolean(),
  identificationCardBack: Joi.boolean(),
});

/** `both` passes the schema so the validation rules can refuse it with the message that says where it belongs. */
export const validationFields = {
  camera: Joi.boolean(),
  otpCode: Joi.boolean(),
  options: validationOptions,
  both: Joi.boolean(),
};

/** The most boxes one signer may have on one document. */
export const MAX_BOXES_PER_SIGNER = 20;

export const positionJoi = Joi.object<PositionInput, true>({
  page: Joi.number().integer().min(1).required().description('1-based'),
  x: Joi.number().min(0).max(1).required().description("the box's right edge, as a fraction of the page's width"),
  y: Joi.number().min(0).max(1).required().description("the box's bottom edge, as a fraction of the page's height from its top"),
  w: Joi.number().positive().max(14_400).required().description('width in points'),
  h: Joi.number().positive().max(14_400).required().description('height in points'),
});

const placementFields = {
  position: Joi.array()
    .items(positionJoi)
    .min(1)
    .max(MAX_BOXES_PER_SIGNER)
    .description('boxes on an uploaded PDF where this signature goes: {page, x, y (bottom-right corner, 0..1, y from the top), w, h (points)}'),
  label: Joi.boolean().valid(true).description("the signature goes where the PDF shows the text {{signature:N}}, N this signer's index; the text is removed"),
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
  ...placementFields,
  files: filesAskedJoi,
  language: languageJoi.description(
    "es, en, pt or fr: the participant's e-mails, SMS, WhatsApp texts and page, and the final files when every participant has the same; absent, the organization's",
  ),
});

const signProfile = Joi.array()
  .items(signer)
  .min(1)
  .max(MAX_PARTICIPANTS)
  .unique('email', { ignoreUndefined: true })
  .unique('phone', { ignoreUndefined: true });

export const answersJoi = Joi.array()
  .items(Joi.object<Answer, true>({ key: Joi.string().min(1).max(100).required(), value: Joi.string().allow('').max(12_000_000).required() }))
  .max(1000);

/** Base64 of a PDF sent inline; larger files go through the upload URL (`compress`). */
const base64File = Joi.string().base64().min(8);

/** The root fields every creation takes; a prebuilt process keeps them for the process it becomes. */
export const processFields = {
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
  readers: Joi.array()
    .items(Joi.object<ReaderInput, true>({ name: Joi.string().trim().min(1).max(200).required(), email: email.required() }))
    .max(MAX_READERS)
    .description(
      'people who follow the process without acting: invited to read it, told of every signature, rejection and end, sent the final files; never signers',
    ),
  cc: Joi.array().items(email).max(MAX_CC).description('addresses sent a copy of the final files once they are sealed, and nothing before'),
  folder: Joi.string()
    .trim()
    .max(200)
    .pattern(/^[^/]+(?:\/[^/]+)*$/)
    .messages({ 'string.pattern.base': '{{#label}} must be folder names separated by single slashes, e.g. "Leases/2026"' })
    .description('a folder of the creator (`email`), levels separated by `/`; made the first time it is named. Absent: the root')
    .example('Leases/2026'),
  ...validationFields,
};

/** The code of a process in edit mode, sent again to overwrite it (docs/real-service.md §3.10). */
const editedCode = Joi.string()
  .length(PROCESS_CODE_LENGTH)
  .pattern(/^[A-Z0-9]+$/)
  .messages({ 'string.pattern.base': '{{#label}} must only contain uppercase letters and digits' });

const signerExample = { name: 'Juan Pérez', email: 'juan@people.example', phone: '+573001234567' };
const answersExample = [{ key: 'tenant', value: 'Juan Pérez' }];

export const saveFromTemplateSchema = Joi.object<SaveFromTemplateInput, true>({
  ...processFields,
  code: editedCode.description('a document put in edit mode (POST /document/edit): this payload replaces it whole, keeping its code'),
  document: templateId.required().description('the template the document is filled from'),
  data: answersJoi.default([]).description("answers to the template's questions, {key: question name, value}"),
  sign: Joi.boolean()
    .default(true)
    .description(
      'true (the default here): the electronic signing flow; false: the document is e-mailed to the participants as a PDF for printing, nobody signs, and the process is FINISH at once with `sign: false`',
    ),
  signProfile: signProfile.description("the participants; when absent they come from the template's signatureProfile and the answers"),
}).example({ email: 'ana@company.example', name: 'Lease, Calle 12', document: '65f1c0e2a4b5c6d7e8f90123', data: answersExample, signProfile: [signerExample] });

export const uploadPdfSchema = Joi.object<UploadPdfInput, true>({
  ...processFields,
  code: editedCode.description('a document put in edit mode (POST /document/edit): this payload replaces it whole, keeping its code'),
  file: base64File.description('the PDF in base64, for small files'),
  compress: Joi.boolean().valid(true).description('answer an upload URL for the PDF instead (PUT application/pdf, 5 minutes)'),
  document: templateId.description("a PDF template's id instead (POST /template/pdf): its PDF, and each signer's `type` picks its stored boxes"),
  signProfile: signProfile.required(),
})
  .xor('file', 'compress', 'document')
  .example({ email: 'ana@company.example', name: 'Lease, Calle 12', compress: true, signProfile: [signerExample] });

/** A package takes its validations from the root only (the contract's rule 6): one given per signer is refused, never ignored. */
const notPerSigner = Joi.any()
  .forbidden()
  .messages({ 'any.unknown': 'SIGNER_VALIDATIONS_NOT_SUPPORTED: {{#label}}: a package takes camera, otpCode and options at the root only, for everyone' });

/** Everyone in a package is invited at once: no turns (the real service's code for it). */
const packageSigner = signer.keys({
  order: Joi.number().valid(0).default(0).messages({ 'any.only': 'SIGNER_SEQUENCE_NOT_SUPPORTED' }),
  camera: notPerSigner,
  otpCode: notPerSigner,
  options: notPerSigner,
});

const packageDocument = Joi.object<PackageDocumentInput, true>({
  name: Joi.string().trim().min(1).max(200),
  document: templateId,
  data: answersJoi,
  file: base64File,
  signProfile: Joi.array().items(packageSigner).min(1).max(MAX_PARTICIPANTS).unique('email'),
}).oxor('document', 'file');

export const packageSchema = Joi.object<PackageInput, true>({
  ...processFields,
  package: editedCode.description('a package put in edit mode (POST /package/edit): this payload replaces it whole, keeping its code'),
  document: templateId.description('template of every document that names none and sends no file'),
  data: answersJoi.description('answers for every template document that sends none'),
  compress: Joi.boolean().valid(true).description('answer an upload URL for each document that has no template and no file'),
  signProfile: Joi.array().items(packageSigner).min(1).max(MAX_PARTICIPANTS).unique('email'),
  documents: Joi.array().items(packageDocument).min(2).max(MAX_PACKAGE_DOCUMENTS).required().messages({ 'array.min': 'DOCUMENTS_MIN_TWO' }),
}).example({
  email: 'ana@company.example',
  name: 'Onboarding pack',
  signProfile: [signerExample],
  documents: [
    { name: 'Contract', document: '65f1c0e2a4b5c6d7e8f90123', data: answersExample },
    { name: 'Annex', document: '65f1c0e2a4b5c6d7e8f90123', data: answersExample },
  ],
});

export const processCode = Joi.string()
  .length(PROCESS_CODE_LENGTH)
  .pattern(/^[A-Z0-9]+$/)
  .messages({ 'string.pattern.base': '{{#label}} must only contain uppercase letters and digits' })
  .example('TR99AQMY31');

export const PROCESS_STATUSES: ProcessStatus[] = ['CREATED', 'EDITING', 'FINISH', 'REJECTED', 'EXPIRED', 'CANCELLED'];

export interface ReadProcessQuery {
  code?: string;
  /** A package's code: the real service's form of GET /document for packages (docs/real-service.md §4.2). */
  package?: string;
  /** Listing: processes in a folder of this path. */
  folder?: string;
  status?: ProcessStatus;
  template?: string;
  limit: number;
  cursor?: string;
  /** With code: each participant's identity photos as short-lived URLs. */
  image?: boolean;
}

export const readProcessQuery = Joi.object<ReadProcessQuery, true>({
  code: processCode,
  package: processCode.description(
    "a package's code: its view, with the real service's `_id`, `codes` and `signers` (private key); a document's code here is DOCUMENT_NOT_FOUND",
  ),
  folder: processFields.folder.description("listing: only the processes in a folder of this path (any creator's)"),
  status: Joi.string().valid(...PROCESS_STATUSES),
  template: templateId,
  limit: Joi.number().integer().min(1).max(500).default(DEFAULT_PAGE_SIZE),
  cursor: Joi.string().max(200),
  image: Joi.boolean(),
})
  .with('image', 'code')
  .oxor('code', 'package')
  .oxor('code', 'status')
  .oxor('code', 'template')
  .oxor('code', 'cursor')
  .oxor('code', 'folder')
  .oxor('package', 'status')
  .oxor('package', 'template')
  .oxor('package', 'cursor')
  .oxor('package', 'folder');

export const roadmapQuery = Joi.object<{ code: string }, true>({ code: processCode.required() });

export interface CancelInput {
  codes: string[];
  message: string;
  email: string;
}

export const cancelSchema = Joi.object<CancelInput, true>({
  codes: Joi.array().items(processCode).min(1).max(100).unique().required(),
  message: Joi.string().trim().min(1).max(1000).required().example('The terms changed'),
  email: email.required(),
});

export const participantId = Joi.string()
  .pattern(new RegExp(`^(?:[A-Z0-9]{${PARTICIPANT_ID_LENGTH}}|[A-Z0-9]{${LEGACY_PARTICIPANT_ID_LENGTH}})$`))
  .description('the participant id, unique within the process (2 characters for processes created before)')
  .example('G8RK2D7QX0PLM4WZ');
const participantName = Joi.string().example('Juan Pérez');
export const participantRole = Joi.string().valid('SIGNER', 'APPROVER').example('SIGNER');
const phone = Joi.string().example('+573001234567');
const downloadUrl = Joi.string().uri().example('https://sign.example.com/files/processes/65f1c0e2a4b5c6d7e8f90123/0.pdf?expires=1795000000&signature=abc');

const createdParticipant = Joi.object({
  id: participantId.required(),
  name: participantName.required(),
  email: Joi.string().required().example('juan@people.example'),
  phone,
  role: participantRole.required(),
  url: Joi.string().uri().description('the personal link, only for participants the service does not notify'),
});

export const createdProcessResponse = Joi.object({
  code: processCode.required(),
  document: processCode.required().description("the same code, under the real service's name for it"),
  signProfile: Joi.array().items(createdParticipant).required(),
  documents: Joi.array()
    .items(
      Joi.object({
        name: Joi.string().required().example('Lease, Calle 12'),
        code: processCode.description("a package document's own code (POST /document/many)"),
        url: Joi.string().uri().description('PUT the PDF here (compress), 5 minutes'),
      }),
    )
    .required(),
  url: Joi.string().uri().description('POST /document/upload with compress: the upload URL of the PDF'),
  package: processCode.description('POST /document/many: the package code (the process code)'),
  id: processCode.description("POST /document/many: the package code again, under the real service's name for it"),
});

/**
 * POST /package/upload (docs/real-service.md §5.1): files asked of each participant, with a PDF to
 * sign (`file`, `compress` or `document`, at most one) or none (the process only collects files).
 */
export interface PackageUploadInput extends Omit<ProcessFieldsInput, 'name' | 'notification'> {
  packageName: string;
  /** Refused: the participants are always notified. */
  notification?: boolean;
  /** The document's name; required with a document. */
  name?: string;
  file?: string;
  compress?: boolean;
  document?: string;
  /** Each with `files` (the schema requires them) and exactly one of type, label or position. */
  signProfile: SignerInput[];
}

/** The real service always notifies the participants of an attachments process: asking it not to is refused, never ignored. */
const notificationRefused = Joi.any()
  .forbidden()
  .messages({ 'any.unknown': 'SIGNER_NOTIFICATION_NOT_SUPPORTED: {{#label}}: the participants of POST /package/upload are always notified' });

const attachmentSigner = signer.keys({ notification: notificationRefused, files: filesAskedJoi.required() }).xor('type', 'label', 'position').messages({
  'object.missing': '{{#label}} must have one of "type", "label" or "position"',
  'object.xor': '{{#label}} must have only one of "type", "label" or "position"',
});

export const packageUploadSchema = Joi.object<PackageUploadInput, true>({
  ...processFields,
  notification: Joi.boolean()
    .forbidden()
    .messages({ 'any.unknown': '{{#label}} is not allowed: the participants of POST /package/upload are always notified' }),
  packageName: Joi.string()
    .trim()
    .min(1)
    .max(200)
    .required()
    .description("the process's name, as GET /attachments and GET /document show it")
    .example('Onboarding, Juan Pérez'),
  name: processFields.name
    .optional()
    .description('the document to sign: required with file, compress or document; absent when the process only collects files'),
  file: base64File.description('the PDF to sign in base64, for small files'),
  compress: Joi.boolean().valid(true).description('answer an upload URL for the PDF to sign instead (PUT application/pdf, 5 minutes)'),
  document: templateId.description("a PDF template's id (POST /template/pdf): its PDF is signed, and each signer's `type` picks its stored boxes"),
  signProfile: Joi.array()
    .items(attachmentSigner)
    .min(1)
    .max(MAX_PARTICIPANTS)
    .unique('email', { ignoreUndefined: true })
    .unique('phone', { ignoreUndefined: true })
    .required(),
})
  .oxor('file', 'compress', 'document')
  .example({
    email: 'ana@company.example',
    packageName: 'Onboarding, Juan Pérez',
    signProfile: [{ ...signerExample, type: 'employee', files: [{ name: 'Documento de identidad' }, { name: 'Certificado bancario', optional: true }] }],
  });

export const packageUploadResponse = Joi.object({
  package: processCode.required().description("the process's code: GET /attachments and GET /document?package= read it"),
  code: processCode.description("the document's own code, when there is a document to sign"),
  url: Joi.string().uri().description('compress: PUT the PDF here (application/pdf, 5 minutes, once)'),
  signProfile: Joi.array().items(createdParticipant).required().description('the participants, with the ids GET /attachments takes as userId'),
});

/** docs/real-service.md §3.10: a document, or a package, to put in edit mode or read there. */
export const editDocumentSchema = Joi.object<{ code: string }, true>({ code: processCode.required() });
export const editPackageSchema = Joi.object<{ package: string }, true>({
  package: processCode.required().description('the package code (POST /document/many answers it as `package` and `id`)'),
});

export const editMarkedResponse = Joi.object({ message: Joi.string().valid('DOCUMENT_MODIFIED', 'PACKAGE_MODIFIED').required().example('DOCUMENT_MODIFIED') });

export const editedProcessResponse = Joi.object({
  code: processCode.required(),
  kind: Joi.string().valid('document', 'package').required().example('document'),
  name: Joi.string().required().example('Lease, Calle 12'),
  status: Joi.string().valid('EDITING').required(),
  subject: Joi.string().allow('').required().example('Please sign the lease'),
  message: Joi.string().allow('').required().example('Hello, here is the lease to sign.'),
  signers: Joi.array()
    .items(
      Joi.object({
        name: Joi.string().required().example('Juan Pérez'),
        email: Joi.string().required().example('juan@people.example'),
        status: Joi.string().valid('pending').required(),
      }),
    )
    .required(),
  documents: Joi.array()
    .items(
      Joi.object({
        code: processCode.required().description("a package document's own code; a document's is the process code"),
        name: Joi.string().required().example('Lease, Calle 12'),
        url: Joi.string().uri().description('the document as it was marked (5 minutes)'),
        signProfile: Joi.array()
          .items(Joi.object({ name: Joi.string().required().example('Juan Pérez'), email: Joi.string().required().example('juan@people.example') }))
          .required(),
      }),
    )
    .required(),
});

export const cancelResponse = Joi.object({
  success: Joi.number().integer().min(0).required().description('processes cancelled').example(1),
  errors: Joi.object({
    cant: Joi.number().integer().min(0).required().example(0),
    documents: Joi.array().items(Joi.string()).description('codes unknown to the organization or no longer in signature'),
  }).required(),
});

export interface UnlockInput {
  code: string;
  email: string;
  status: 'approve' | 'reject' | 'reset' | 'cancel';
  message?: string;
}

/**
 * The real service's way of naming one participant (docs/real-service.md §1.4): the process code
 * followed by the participant's id (16 characters, or 2 for processes created before). The bare
 * code passes, so that its refusal can say the id is missing.
 */
const participantCode = Joi.string()
  .min(PROCESS_CODE_LENGTH)
  .max(PROCESS_CODE_LENGTH + PARTICIPANT_ID_LENGTH)
  .pattern(/^[A-Z0-9]+$/)
  .messages({ 'string.pattern.base': '{{#label}} must only contain uppercase letters and digits' })
  .description('<process code><participant id>, e.g. TR99AQMY31G8RK2D7QX0PLM4WZ');

/** docs/real-service.md §3.9. */
export const unlockSchema = Joi.object<UnlockInput, true>({
  code: participantCode.required(),
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
}).example({ code: 'TR99AQMY31G8RK2D7QX0PLM4WZ', email: 'ana@company.example', status: 'approve', message: 'Identity checked by phone' });

export const unlockResponse = Joi.object({ message: Joi.string().valid('OK').required() });

/** docs/real-service.md §3.7 and §4.3: one participant of a document, or of a package. */
export const reminderSchema = Joi.object<{ code: string }, true>({ code: participantCode.required() }).example({ code: 'TR99AQMY31G8RK2D7QX0PLM4WZ' });
export const packageReminderSchema = Joi.object<{ package: string }, true>({ package: participantCode.required() }).example({
  package: 'GNAZED5HTRG8RK2D7QX0PLM4WZ',
});
export const reminderResponse = unlockResponse;
export const packageReminderResponse = Joi.object({ message: Joi.string().valid('REMINDER_SENT').required() });

export interface ReactivateInput {
  code?: string;
  package?: string;
  email: string;
}

/** docs/real-service.md §3.8: exactly one of `code` and `package`, and who asks. */
export const reactivateSchema = Joi.object<ReactivateInput, true>({
  code: processCode,
  package: processCode,
  email: email.required().description('the registered user of the organization who reactivates it, kept in the audit trail'),
})
  .xor('code', 'package')
  .example({ code: 'TR99AQMY31', email: 'ana@company.example' });

export const reactivateResponse = Joi.object({
  notifications: Joi.number().integer().min(0).required().description('participants invited again').example(2),
  users: Joi.array().items(Joi.string()).required().description('their names').example(['Juan Pérez', 'María García']),
});

export const processStatus = Joi.string()
  .valid(...PROCESS_STATUSES)
  .example('CREATED');
export const participantStatus = Joi.string().valid('PENDING', 'NOTIFICATION', 'FINISH', 'REJECT', 'BLOCK').example('NOTIFICATION');

/** What either key reads first of a process. */
const processHead = {
  code: processCode.required(),
  kind: Joi.string().valid('document', 'package').required().example('document'),
  name: Joi.string().required().example('Lease, Calle 12'),
  status: processStatus.required(),
  signFinish: Joi.boolean().required().description('true once every participant signed or approved').example(false),
  sign: Joi.boolean()
    .valid(false)
    .description('only for a process created with `sign: false`: its document was e-mailed for printing; status FINISH, signFinish false, nobody signs'),
  expiredDate: instantAnswer,
  createdAt: instantAnswer.required(),
  updatedAt: instantAnswer.required(),
};

const photoEntry = Joi.object({
  type: Joi.string().valid('presigned').required(),
  data: Joi.string().uri().required().description('a URL lasting 5 minutes'),
});

const fileStatus = Joi.string()
  .valid('pending', 'uploaded', 'approved', 'rejected')
  .description('pending: not given; uploaded: given, not reviewed; approved: by the creator, or signed with; rejected: asked again (PUT /attachments)')
  .example('uploaded');
const participantFile = {
  name: Joi.string().required().example('Documento de identidad'),
  optional: Joi.boolean().required().example(false),
  status: fileStatus.required(),
};

const participantView = Joi.object({
  id: participantId.required(),
  name: participantName.required(),
  email: Joi.string().required().example('juan@people.example'),
  phone,
  role: participantRole.required(),
  order: Joi.number().integer().min(0).required().example(0),
  type: Joi.string().description('the template signer type whose place they take'),
  status: participantStatus.required(),
  validations: Joi.object({
    camera: Joi.boolean().required().example(false),
    otpCode: Joi.boolean().required().example(true),
    options: Joi.object({
      camera: Joi.string().valid('identification', 'photo'),
      otpCode: Joi.string().valid('phone', 'email').example('email'),
      whatsapp: Joi.boolean().required().example(false),
      both: Joi.boolean().required().example(false),
      identificationCardBack: Joi.boolean().required().example(false),
    }).required(),
    source: Joi.string().valid('signer', 'global', 'none').required().example('global'),
    channels: Joi.array().items(Joi.string().valid('email', 'whatsapp')).required().example(['email']),
  })
    .required()
    .description('what this participant is asked for, after the global and individual rules'),
  notification: Joi.boolean().required().example(true),
  openedAt: instantAnswer,
  otpVerifiedAt: instantAnswer,
  identityVerifiedAt: instantAnswer,
  similarity: Joi.number().min(0).max(100),
  signedAt: instantAnswer,
  rejectedAt: instantAnswer,
  rejectReason: Joi.string(),
  blockReason: Joi.string(),
  identificationCard: photoEntry.description('with image=true'),
  identificationCardBack: photoEntry.description('with image=true'),
  photo: photoEntry.description('with image=true'),
  ocrData: ocrDataSchema.description("with image=true and options.camera 'identification': what was read on the document, once anything was"),
  attempts: attemptsSchema.description("with image=true and options.camera 'identification': every identity check, oldest first"),
  hash: identityHashSchema.description('with image=true and options.camera \'identification\', once verified or the process ended (docs/api.md, "The hash")'),
  files: Joi.array()
    .items(Joi.object({ ...participantFile, url: downloadUrl.description('once given (and not rejected): a download of 5 minutes') }))
    .description('the files asked of the participant (attachments)'),
});

/** A reader in GET /document and the roadmap: no id and no status, since readers never act. */
const readerView = Joi.object({
  name: participantName.required(),
  email: Joi.string().required().example('rosa@board.example'),
  role: Joi.string().valid('READER').required(),
});

/** GET /document?code= with the private key. */
export const processResponse = Joi.object({
  ...processHead,
  email: Joi.string().required().description('who created it').example('ana@company.example'),
  subject: Joi.string().allow('').required().example('Please sign the lease'),
  message: Joi.string().allow('').required().example('Hello, here is the lease to sign.'),
  remember: Joi.number().integer(),
  custom: Joi.object().unknown(true),
  targetWebhooks: Joi.array().items(webhookName),
  tags: Joi.array().items(Joi.string()),
  reason: Joi.string().description('the cancellation or rejection reason'),
  endedBy: Joi.string().description('who cancelled'),
  certificateUrl: downloadUrl.description('the evidence certificate once finished (5 minutes)'),
  photosDeletedAt: instantAnswer,
  sealFailure: Joi.object({
    at: instantAnswer.required(),
    message: Joi.string().required().example('document 0 ("Lease") is a PDF the seal cannot open'),
  }).description('finished, but the final files could not be made (document.seal_failed): since when, which document and why; gone once a retry seals it'),
  documents: Joi.array()
    .items(
      Joi.object({
        name: Joi.string().required().example('Lease, Calle 12'),
        code: processCode.description("a package document's own code"),
        source: Joi.string().valid('template', 'pdf').required().example('pdf'),
        template: templateId,
        ready: Joi.boolean().required().description('false while the PDF upload is awaited').example(true),
        sha256: Joi.string().hex().length(64),
        url: downloadUrl.description('the document being signed (5 minutes)'),
        signedUrl: downloadUrl.description('the signed document once finished (5 minutes)'),
      }),
    )
    .required(),
  signProfile: Joi.array().items(participantView, readerView).required().description('the participants, then the readers (role READER)'),
  cc: Joi.array().items(Joi.string().example('archive@company.example')).description('the addresses sent a copy of the final files'),
  folder: Joi.string().description("the creator's folder it sits in").example('Leases/2026'),
  _id: processCode.description('with `package`: the package code'),
  codes: Joi.array().items(processCode).description("with `package`: its documents' codes"),
  signers: Joi.array()
    .items(
      Joi.object({
        userId: participantId.required(),
        email: Joi.string().required().example('juan@people.example'),
        name: participantName.required(),
        phone,
        status: participantStatus.required(),
      }),
    )
    .description('with `package`: its participants, as the real service names them'),
});

/** GET /document?code= with the public key: what the holder of the code may see. */
const publicProcessResponse = Joi.object({
  ...processHead,
  documents: Joi.array()
    .items(Joi.object({ name: Joi.string().required().example('Lease, Calle 12'), ready: Joi.boolean().required().example(true) }))
    .required(),
  signProfile: Joi.array()
    .items(
      Joi.object({
        name: participantName.required(),
        role: participantRole.required(),
        order: Joi.number().integer().min(0).required().example(0),
        status: participantStatus.required(),
        signedAt: instantAnswer,
        rejectedAt: instantAnswer,
        files: Joi.array().items(Joi.object(participantFile)).description('the files asked of the participant, by name and status; never a download URL'),
      }),
    )
    .required(),
});

/** GET /document without code: a page of the organization's processes. */
export const processListResponse = Joi.object({
  data: Joi.array()
    .items(
      Joi.object({
        code: processHead.code,
        kind: processHead.kind,
        name: processHead.name,
        status: processHead.status,
        expiredDate: instantAnswer,
        createdAt: instantAnswer.required(),
        updatedAt: instantAnswer.required(),
      }),
    )
    .required(),
  next: Joi.string().allow(null).required().description('cursor of the next page, null on the last').example(null),
});

export const readProcessResponse = Joi.alternatives().try(processResponse, publicProcessResponse, processListResponse);

export const roadmapResponse = Joi.object({
  name: Joi.string().required().example('Lease, Calle 12'),
  documentCode: processCode.required(),
  createdAt: instantAnswer.required(),
  author: Joi.object({
    name: Joi.string().description("the creator's name, when their user has one").example('Ana Ruiz'),
    email: Joi.string().required().example('ana@company.example'),
  }).required(),
  participants: Joi.array()
    .items(
      Joi.object({
        id: participantId.required(),
        name: participantName.required(),
        role: participantRole.required(),
        email: Joi.string().required().example('juan@people.example'),
        phone,
        ipAddress: Joi.string()
          .description('the client address of their latest request the trail recorded one for (the real service adds a place; this one does not)')
          .example('190.24.10.55'),
      }),
      readerView,
    )
    .required()
    .description('the participants, then the readers (role READER, without id)'),
  activityLog: Joi.array()
    .items(
      Joi.object({
        action: Joi.string().required().example('CREATED'),
        participant: Joi.string().required().description('the participant id, or ARCHIVE for the process itself').example('ARCHIVE'),
        platform: Joi.string(),
        timestamp: instantAnswer.required(),
        by: Joi.string(),
        ip: Joi.string().description("the client address of the person's request, for what people do on their pages").example('190.24.10.55'),
        message: Joi.string(),
      }),
    )
    .required(),
});
