import Joi from 'joi';
import { ATTACHMENT_MAX_BYTES } from '../documents/attachments/attachment-intake.js';
import { REJECT_REASON_MAX_LENGTH } from '../documents/participant/signer-flow.js';
import {
  email,
  LEGACY_PARTICIPANT_ID_LENGTH,
  PARTICIPANT_ID_LENGTH,
  PROCESS_CODE_LENGTH,
  participantRole,
  participantStatus,
  processCode,
  processStatus,
} from '../documents/schemas.js';
import { instantAnswer } from '../fields/instant.js';
import { languageJoi } from '../organizations/language-joi.js';
import { SIGNATURE_KINDS } from '../templates/signature-kinds.js';
import { UNUSABLE_PHOTO_REASONS } from '../veriface/face-matcher.js';
import { IMAGE_MAX_BYTES } from '../veriface/images.js';
import { phoneJoi } from '../veriface/phone.js';
import { VERIFACE_CODE_LENGTH, verifaceStatus } from '../veriface/schemas.js';
import type {
  AttachmentInput,
  DelegateInput,
  EmbedInput,
  FinishInput,
  OpenedInput,
  OtpCheckInput,
  PhotoInput,
  RejectInput,
  SendLinkInput,
  SignInput,
} from './contract.js';
import type { SdkTokenInput } from './sdk-token.js';

/** An image as base64 in JSON: the pages send photos already scaled down, far below the limit. */
const IMAGE_BASE64_MAX = Math.ceil(IMAGE_MAX_BYTES / 3) * 4;
export const PHOTO_BODY_LIMIT = IMAGE_BASE64_MAX + 4096;
/** A signature image: a few kilobytes of PNG; 512 KB is far beyond any drawn one. */
const SIGNATURE_BASE64_MAX = Math.ceil((512 * 1024) / 3) * 4;

const image = Joi.string().max(IMAGE_BASE64_MAX).base64().example('/9j/4AAQSkZJRgABAQAAAQAB').description('JPEG or PNG, base64');

/** An attachment as base64: a little past the limit still reaches the service, which names the refusal (ATTACHMENT_TOO_LARGE). */
const ATTACHMENT_BASE64_MAX = Math.ceil((ATTACHMENT_MAX_BYTES + 1024 * 1024) / 3) * 4;
export const ATTACHMENT_BODY_LIMIT = ATTACHMENT_BASE64_MAX + 4096;

export const attachmentSchema = Joi.object<AttachmentInput, true>({
  attachment: Joi.number().integer().min(0).required().description('the 0-based position of the file among those asked').example(0),
  file: Joi.string()
    .max(ATTACHMENT_BASE64_MAX)
    .base64()
    .allow('')
    .required()
    .description('PDF, JPEG or PNG, base64; recognised by its bytes')
    .example('JVBERi0xLjcK'),
});

export const photoSchema = Joi.object<PhotoInput, true>({
  kind: Joi.string().valid('face', 'documentFront', 'documentBack').required(),
  image: image.required(),
});

export const otpCheckSchema = Joi.object<OtpCheckInput, true>({
  code: Joi.string()
    .trim()
    .pattern(/^\d{6}$/)
    .required()
    .messages({ 'string.pattern.base': '{{#label}} must be the 6 digits of the code' })
    .example('482913'),
});

/** Signing and approving need the participant's consent to do it electronically, shown on the page. */
export const finishSchema = Joi.object<FinishInput, true>({
  consent: Joi.boolean().valid(true).required().messages({ 'any.only': '{{#label}} must be true: accept to sign electronically' }),
});

export const signSchema = Joi.object<SignInput, true>({
  consent: Joi.boolean().valid(true).required().messages({ 'any.only': '{{#label}} must be true: accept to sign electronically' }),
  signature: Joi.string()
    .max(SIGNATURE_BASE64_MAX)
    .base64()
    .when('signatureKind', { is: 'draw', then: Joi.required() })
    .description('the signature as a PNG (base64): drawn, or the typed name'),
  signatureKind: Joi.string()
    .valid(...SIGNATURE_KINDS)
    .description(
      'how the signature was made: `draw` (drawn; it needs `signature`) or `font` (the name typed). Without it, a `signature` counts as drawn and none as typed. Refused (SIGNATURE_KIND_NOT_ALLOWED) when the template does not allow it the participant',
    )
    .example('font'),
});

export const openedSchema = Joi.object<OpenedInput, true>({
  document: Joi.number().integer().min(0).required().example(0).description("the document's 0-based position in the process"),
});

const openedDocuments = Joi.array().items(Joi.number().integer().min(0)).description('the documents (0-based) the participant opened').example([0]);

export const documentsOpenedResponse = Joi.object({ openedDocuments: openedDocuments.required() });

/** A box in PDF points from the page's bottom-left corner. */
const signingBoxes = Joi.array()
  .items(
    Joi.object({
      document: Joi.number().integer().min(0).required().example(0),
      page: Joi.number().integer().min(1).required().example(1),
      left: Joi.number().required().example(380),
      bottom: Joi.number().required().example(118),
      width: Joi.number().required().example(150),
      height: Joi.number().required().example(50),
    }),
  )
  .description("the participant's own signature boxes, in PDF points from the page's bottom-left corner");

export const rejectSchema = Joi.object<RejectInput, true>({
  reason: Joi.string().trim().min(1).max(REJECT_REASON_MAX_LENGTH).required().example('The rent is not the one we agreed'),
});

export const delegateSchema = Joi.object<DelegateInput, true>({
  name: Joi.string().trim().min(1).max(200).required().example('María Gómez'),
  email: email.required().example('maria@people.example'),
  phone: phoneJoi.example('+573001234568'),
  identification: Joi.string().trim().min(1).max(50).example('1020304050'),
  identificationType: Joi.string().uppercase().min(1).max(16).example('CC'),
  country: Joi.string().uppercase().length(2).example('CO'),
  reason: Joi.string().trim().min(1).max(REJECT_REASON_MAX_LENGTH).required().example('I am travelling; María signs for the company'),
});

export const sendLinkSchema = Joi.object<SendLinkInput, true>({
  channel: Joi.string().valid('sms', 'whatsapp').required(),
});

/** The SDK's `document`: a face-validation code, or a process code and a participant id (16 characters, or 2 before). */
const DOCUMENT_LENGTHS = [VERIFACE_CODE_LENGTH, PROCESS_CODE_LENGTH + LEGACY_PARTICIPANT_ID_LENGTH, PROCESS_CODE_LENGTH + PARTICIPANT_ID_LENGTH].map(
  (length) => `[A-Z0-9]{${length}}`,
);
const embedDocument = Joi.string()
  .pattern(new RegExp(`^(?:${DOCUMENT_LENGTHS.join('|')}|[0-9a-f]{24})$`))
  .messages({
    'string.pattern.base': '{{#label}} must be a face-validation code, a process code followed by a participant id, or a template id (the fill flow)',
  })
  .example('TR99AQMY31G8RK2D7QX0PLM4WZ');

/** The SDK's fill flow: `code` with `preBuild: true` completes a prebuilt process; `reference` is a reference link's id or token. */
const embedFillFields = {
  code: processCode.description('fill flow: the code of a prebuilt process to complete, with preBuild true'),
  preBuild: Joi.boolean().description('fill flow: true with code'),
  reference: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{16,64}$/)
    .description('fill flow: a reference link of the organization, by id or token: its settings apply')
    .example('65f1c0e2a4b5c6d7e8f90456'),
};

/** What POST /sdk/token answers: `sdt_` and 24 random bytes in base64url. */
const SDK_TOKEN_PATTERN = /^sdt_[A-Za-z0-9_-]{32}$/;

export const embedSchema = Joi.object<EmbedInput, true>({
  keyPublic: Joi.string().max(64).required().example('puk_3bW0cV6kR2mT9yQ1xZ8nL4pA'),
  document: embedDocument.required(),
  parentOrigin: Joi.string().max(300).required().example('https://app.example.com'),
  token: Joi.string().pattern(SDK_TOKEN_PATTERN).messages({ 'string.pattern.base': '{{#label}} must be a token answered by POST /sdk/token' }),
  language: languageJoi.description("the SDK's language: kept as the signer's or the validated person's, for their messages and pages"),
  ...embedFillFields,
})
  .oxor('code', 'reference')
  .with('code', 'preBuild')
  .example({ keyPublic: 'puk_3bW0cV6kR2mT9yQ1xZ8nL4pA', document: 'TR99AQMY31G8RK2D7QX0PLM4WZ', parentOrigin: 'https://app.example.com' });

export const sdkTokenResponse = Joi.object({
  token: Joi.string()
    .pattern(SDK_TOKEN_PATTERN)
    .required()
    .description("for the SDK: what the page's onSDKToken answers")
    .example('sdt_Qm9vN2FzZGZnaGprbDEyMzQ1Njc4OTBx'),
  expiresAt: instantAnswer.required().description('ten minutes after it was minted'),
});

export const sdkTokenSchema = Joi.object<SdkTokenInput, true>({
  document: embedDocument.required(),
  origin: Joi.string()
    .max(300)
    .required()
    .description('the origin (scheme, host and port) of the page that embeds the frame')
    .example('https://app.example.com'),
  ...embedFillFields,
})
  .oxor('code', 'reference')
  .with('code', 'preBuild')
  .example({ document: 'TR99AQMY31G8RK2D7QX0PLM4WZ', origin: 'https://app.example.com' });

const personName = Joi.string().example('Juan Pérez');
const language = Joi.string().valid('es', 'en', 'pt', 'fr').example('es');
const downloadUrl = Joi.string()
  .uri()
  .description('a download URL of five minutes')
  .example('https://sign.example.com/files/processes/65f1c0e2a4b5c6d7e8f90123/0.pdf?expires=1795000000&signature=abc');
const cameraFailure = Joi.string().valid('FACE_MISMATCH', 'DOCUMENT_NUMBER_MISMATCH', ...UNUSABLE_PHOTO_REASONS);
const captured = Joi.object({
  face: Joi.boolean().required().example(false),
  documentFront: Joi.boolean().required().example(false),
  documentBack: Joi.boolean().required().example(false),
});

const participantOfPage = Joi.object({
  id: Joi.string().required().example('G8RK2D7QX0PLM4WZ'),
  name: personName.required(),
  role: participantRole.required(),
  status: participantStatus.required(),
});

const requirements = Joi.object({
  otpCode: Joi.object({
    required: Joi.boolean().required().example(true),
    medium: Joi.string().valid('phone', 'email').example('email'),
    verified: Joi.boolean().required().example(false),
  }).required(),
  camera: Joi.object({
    required: Joi.boolean().required().example(false),
    mode: Joi.string().valid('identification', 'photo'),
    documentBack: Joi.boolean().required().description('a photo of the back of the document is asked for too').example(false),
    captured: captured.required(),
    verified: Joi.boolean().required().example(false),
    failures: Joi.number().integer().min(0).required().description('faces that did not match the document').example(0),
    lastFailure: cameraFailure.description('why the last comparison failed; never the similarity'),
  }).required(),
});

const attachmentsAsked = Joi.array()
  .items(
    Joi.object({
      position: Joi.number().integer().min(0).required().example(0),
      name: Joi.string().required().example('Documento de identidad'),
      description: Joi.string().example('Both sides of your ID'),
      optional: Joi.boolean().required().example(false),
      given: Joi.object({
        contentType: Joi.string().valid('application/pdf', 'image/jpeg', 'image/png').required().example('application/pdf'),
        size: Joi.number().integer().min(1).required().example(182_044),
      }).description('what the participant gave: its type and size only'),
    }),
  )
  .description('the files asked of the participant, in order; each required one must be given before they sign');

/** GET /people/signing: the participant's page in every state of the process. */
/** The organization's colours, as the pages apply them (src/company/page-colours.ts). */
const pageColours = Joi.object({
  primary: Joi.string()
    .pattern(/^#[0-9a-f]{6}$/)
    .required()
    .example('#021c30'),
  onPrimary: Joi.string()
    .pattern(/^#[0-9a-f]{6}$/)
    .required()
    .example('#ffffff'),
});

const pageParticipants = Joi.array()
  .items(
    Joi.object({
      name: personName.required(),
      role: participantRole.required(),
      status: participantStatus.required(),
      you: Joi.boolean().required().example(true),
    }),
  )
  .required();

const pageDocuments = Joi.array()
  .items(
    Joi.object({
      kind: Joi.string().valid('document', 'certificate').required().example('document'),
      name: Joi.string().required().example('Lease, Calle 12'),
      url: downloadUrl.required(),
      contentType: Joi.string().required().example('application/pdf'),
      position: Joi.number().integer().min(0).example(0),
    }),
  )
  .required();

const sealing = Joi.boolean().description('a finished process whose signed files are still being written');

export const signingPageResponse = Joi.object({
  state: Joi.string()
    .valid('act', 'waiting', 'done', 'blocked', 'review', 'finished', 'rejected', 'expired', 'cancelled', 'delegated', 'editing')
    .required()
    .example('act'),
  language: language.required(),
  colours: pageColours,
  process: Joi.object({
    code: Joi.string().required().example('TR99AQMY31'),
    name: Joi.string().required().example('Lease, Calle 12'),
    message: Joi.string().allow('').required().example('Hello, here is the lease to sign.'),
    organization: Joi.string().required().example('Inmobiliaria Sur'),
  }).required(),
  participant: participantOfPage.required(),
  participants: pageParticipants,
  waitingFor: Joi.array().items(personName).required().description('those the participant waits for').example([]),
  documents: pageDocuments,
  phoneOnRecord: Joi.boolean().required().example(true),
  signatureKinds: Joi.array()
    .items(Joi.string().valid(...SIGNATURE_KINDS))
    .required()
    .description("the kinds of signature the participant may use (their template signature question's `allow`): `draw`, `font`")
    .example(['draw', 'font']),
  requirements: requirements.description("only while it is the participant's turn"),
  canSign: Joi.boolean().example(false),
  boxes: signingBoxes,
  openedDocuments,
  attachments: attachmentsAsked,
  sealing,
  rejection: Joi.string().valid('yours', 'identity'),
  delegation: Joi.object({ phone: Joi.boolean().required(), identification: Joi.boolean().required() }).description(
    "only while it is the participant's turn and their organization lets signers hand their place on: what the delegate needs beside a name and an e-mail",
  ),
  delegatedTo: personName.description('state delegated: whom the place was handed to'),
});

/** GET /people/reading: a reader's page, read-only. */
export const readingPageResponse = Joi.object({
  state: Joi.string().valid('following', 'finished', 'rejected', 'expired', 'cancelled', 'editing').required().example('following'),
  language: language.required(),
  colours: pageColours,
  process: Joi.object({
    name: Joi.string().required().example('Lease, Calle 12'),
    message: Joi.string().allow('').required().example('Hello, here is the lease to sign.'),
    organization: Joi.string().required().example('Inmobiliaria Sur'),
  }).required(),
  participants: pageParticipants,
  documents: pageDocuments,
  sealing,
});

/** What a verification step answers: where the participant now stands. */
export const signingViewResponse = Joi.object({
  code: Joi.string().required().example('TR99AQMY31'),
  name: Joi.string().required().example('Lease, Calle 12'),
  documents: Joi.array()
    .items(Joi.object({ name: Joi.string().required().example('Lease, Calle 12'), url: downloadUrl.required() }))
    .required(),
  participant: participantOfPage.required(),
  requirements: requirements.required(),
  canSign: Joi.boolean()
    .required()
    .description('every identity validation asked of the participant is met, and every file they must give is given')
    .example(true),
  boxes: signingBoxes.required(),
  openedDocuments: openedDocuments.required(),
  attachments: attachmentsAsked.required(),
});

export const otpSentResponse = Joi.object({
  medium: Joi.string().valid('phone', 'email').required().example('email'),
  expiresAt: instantAnswer.required(),
});

/** Signing, approving and rejecting: the participant's status and the process's after the step. */
export const signingOutcomeResponse = Joi.object({
  status: participantStatus.required().example('FINISH'),
  processStatus: processStatus.required(),
});

export const sentResponse = Joi.object({ sent: Joi.boolean().valid(true).required() });

export const qrResponse = Joi.object({
  svg: Joi.string().required().description('the link as an SVG QR code').example('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 33 33">…</svg>'),
});

const personFields = {
  code: Joi.string().required().example('K7Q2M9X4T1B8R3ZD'),
  name: personName.required(),
  country: Joi.string().required().example('CO'),
  documentType: Joi.string().required().example('CC'),
  captured: captured.required(),
};

const similarity = Joi.number().min(0).max(100).description('the face comparison, 0 to 100, two decimals').example(91.31);

/** GET /people/validation. */
export const validationPageResponse = Joi.object({
  state: Joi.string().valid('capture', 'approved', 'not-approved', 'review', 'expired').required().example('capture'),
  language: language.required(),
  colours: pageColours,
  organization: Joi.string().required().example('Inmobiliaria Sur'),
  ...personFields,
  outcome: Joi.object({ status: verifaceStatus.required(), similarity }).description('once the validation is over (approved, not approved, under review)'),
});

/** POST /people/validation/photo: the photos captured so far. */
export const personViewResponse = Joi.object({
  ...personFields,
  platform: Joi.string().valid('whatsapp', 'web').required().example('web'),
});

export const validationFinishedResponse = Joi.object({
  code: personFields.code,
  status: verifaceStatus.required(),
  similarity: similarity.description('only once the validation is over (approved or blocked): never while the person may try again'),
  attemptsLeft: Joi.number()
    .integer()
    .min(1)
    .description('while the status is INPROGRESS after a face that did not match: the tries left before the validation is blocked')
    .example(2),
});

export const embeddedFlowResponse = Joi.object({
  flow: Joi.string().valid('sign', 'validation', 'fill').required().example('sign'),
  token: Joi.string().required().description("the link token the frame acts with, as the person's own link would").example('2u0cJ1sC9z1bQe3m0rX8Y2k4Lq7HfT5a'),
});

export const delegatedResponse = Joi.object({
  delegated: Joi.boolean().valid(true).required(),
  to: personName.required(),
});
