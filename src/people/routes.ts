import type { ApiKeyResolver } from '../auth/key-resolver.js';
import { giveAttachment } from '../documents/attachments/give-attachment.js';
import { delegateSigning } from '../documents/participant/delegate-signing.js';
import {
  approveDocument,
  openDocument,
  rejectDocument,
  requestOtp,
  type SignerContext,
  signDocument,
  submitPhoto,
  verifyOtp,
} from '../documents/participant/signer-flow.js';
import type { PreviewContext } from '../documents/preview/document-preview.js';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import { MAX_FAILURES } from '../identity-attempts/max-failures.js';
import { finishVeriface, submitDocumentPhoto, submitFacePhoto } from '../veriface/person-flow.js';
import type { OtpSent, ValidationFinished } from './contract.js';
import { openEmbeddedFlow } from './embed.js';
import { EMBED_FAILURES_PER_ORGANIZATION, OrganizationEmbedFailures } from './embed-limit.js';
import { signingLinkQr, validationLinkQr } from './link-qr.js';
import { readReadingPage } from './reading-page.js';
import {
  ATTACHMENT_BODY_LIMIT,
  attachmentSchema,
  delegatedResponse,
  delegateSchema,
  documentsOpenedResponse,
  embeddedFlowResponse,
  embedSchema,
  finishSchema,
  openedSchema,
  otpCheckSchema,
  otpSentResponse,
  PHOTO_BODY_LIMIT,
  personViewResponse,
  photoSchema,
  qrResponse,
  readingPageResponse,
  rejectSchema,
  sdkTokenResponse,
  sdkTokenSchema,
  sendLinkSchema,
  sentResponse,
  signingOutcomeResponse,
  signingPageResponse,
  signingViewResponse,
  signSchema,
  validationFinishedResponse,
  validationPageResponse,
} from './schemas.js';
import { mintSdkToken } from './sdk-token.js';
import { emailSigningCopy, sendSigningLinkToPhone, sendValidationLinkToPhone } from './send-link.js';
import { readSigningPage } from './signing-page.js';
import { readValidationPage } from './validation-page.js';

const tag = "people's pages";
const MINUTE = 60_000;
/** Reads and photos: generous for a person, far too few to guess tokens. */
const PAGE_LIMIT = { max: 120, windowMs: MINUTE };
/** Codes asked for and checked: the third wrong code blocks anyway; this stops a flood of requests. */
const CODE_LIMIT = { max: 10, windowMs: MINUTE };
/** Messages the page sends on the person's behalf. */
const MESSAGE_LIMIT = { max: 5, windowMs: 10 * MINUTE };

const SIGNING_STEP_ERRORS = [
  'SIGNING_LINK_NOT_FOUND',
  'DOCUMENT_EXPIRED',
  'DOCUMENT_NOT_IN_SIGNATURE',
  'NOT_YOUR_TURN',
  'PARTICIPANT_BLOCKED',
  'PARTICIPANT_ALREADY_DONE',
  'SIGNING_CONFLICT',
] as const;

/** What any photo a person sends can be refused for (src/veriface/images.ts, the daily bound). */
const PHOTO_INTAKE_ERRORS = [
  'IMAGE_EMPTY',
  'IMAGE_TOO_LARGE',
  'IMAGE_NOT_JPEG_OR_PNG',
  'IMAGE_UNREADABLE',
  'IMAGE_TOO_SMALL',
  'PHOTO_ATTEMPTS_EXCEEDED',
] as const;

/** What a comparison of the person's faces can be refused for: the link's share of the face matcher (src/veriface/face-share/). */
const MATCHER_SHARE_ERRORS = ['FACE_COMPARISON_UNDER_WAY', 'FACE_COMPARISONS_PER_HOUR_EXCEEDED', 'FACE_COMPARISONS_EXCEEDED'] as const;

/** A link nobody holds is a 404, as on every link route. */
const VALIDATION_LINK_NOT_FOUND = ['VERIFACE_NOT_FOUND', 404] as const;
const VALIDATION_STEP_ERRORS = [VALIDATION_LINK_NOT_FOUND, 'VERIFACE_EXPIRED', 'VERIFACE_CLOSED'] as const;

function imageOf(base64: string): Buffer {
  return Buffer.from(base64, 'base64');
}

/** What the person's browser sent the step from, kept in the audit trail of a signature. */
function client(request: { ip: string; headers: { 'user-agent'?: string } }): { ip: string; userAgent?: string } {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip, ...(userAgent === undefined ? {} : { userAgent: userAgent.slice(0, 500) }) };
}

export function peopleRoutes(ctx: SignerContext & PreviewContext & { keys: ApiKeyResolver }): ApiRoute[] {
  // The people's pages' own API, under /people: outside /v1.5/ext, authorised by the link's token (X-Link-Token).
  const base = { access: 'link-token', tag } as const;
  const embedFailures = new OrganizationEmbedFailures(EMBED_FAILURES_PER_ORGANIZATION);
  return [
    defineRoute({
      ...base,
      method: 'GET',
      url: '/people/signing',
      summary: "The participant's page: the process, the documents, who takes part, and the steps asked of them",
      description:
        "Answers the page in every state of the process (act, waiting, done, blocked, finished, rejected, expired, cancelled). The first opening while it is the participant's turn is recorded and sent as a webhook.",
      body: noInput,
      query: noInput,
      response: { json: signingPageResponse },
      errors: ['SIGNING_LINK_NOT_FOUND', 'LINK_NOT_FOUND'],
      rateLimit: PAGE_LIMIT,
      handler: ({ linkToken, request }) => readSigningPage(ctx, { token: linkToken, ip: request.ip }),
    }),
    defineRoute({
      ...base,
      method: 'GET',
      url: '/people/reading',
      summary: "A reader's page (readers of POST /document/*): the process, its documents and who takes part, read-only",
      description:
        "Answers the same in every state of the process (following, finished, rejected, expired, cancelled); once sealed, the signed files and the certificate. The token is a reader's (or a CC address's, which sees the final files only), never a participant's: no route acts with it.",
      body: noInput,
      query: noInput,
      response: { json: readingPageResponse },
      errors: ['READING_LINK_NOT_FOUND', 'LINK_NOT_FOUND'],
      rateLimit: PAGE_LIMIT,
      handler: ({ linkToken }) => readReadingPage(ctx, { token: linkToken }),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/signing/otp',
      summary: 'Send a one-time code to the participant by their medium (at most every 30 seconds)',
      body: noInput,
      query: noInput,
      response: { json: otpSentResponse },
      errors: [...SIGNING_STEP_ERRORS, 'LINK_NOT_FOUND', 'OTP_NOT_REQUIRED', 'OTP_ALREADY_VERIFIED', 'OTP_TOO_SOON'],
      rateLimit: CODE_LIMIT,
      handler: ({ linkToken, request }): Promise<OtpSent> => requestOtp(ctx, { token: linkToken, ip: request.ip }),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/signing/otp/check',
      summary: 'Check the one-time code; the third wrong code blocks the participant',
      body: otpCheckSchema,
      query: noInput,
      response: { json: signingViewResponse },
      errors: [...SIGNING_STEP_ERRORS, 'LINK_NOT_FOUND', 'OTP_NOT_REQUIRED', 'OTP_ALREADY_VERIFIED', 'OTP_CODE_INVALID', 'OTP_CODE_EXPIRED'],
      rateLimit: CODE_LIMIT,
      handler: ({ linkToken, body, request }) => verifyOtp(ctx, { token: linkToken, code: body.code, ip: request.ip }),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/signing/photo',
      summary: "A photo the participant's camera validation asks for: the face, the ID document's front or back (JPEG or PNG, base64)",
      body: photoSchema,
      query: noInput,
      bodyLimit: PHOTO_BODY_LIMIT,
      response: { json: signingViewResponse },
      errors: [
        ...SIGNING_STEP_ERRORS,
        'LINK_NOT_FOUND',
        'CAMERA_NOT_REQUIRED',
        'DOCUMENT_PHOTO_NOT_REQUIRED',
        'IDENTITY_ALREADY_VERIFIED',
        ...PHOTO_INTAKE_ERRORS,
        'PHOTO_MISSING',
        ...MATCHER_SHARE_ERRORS,
        'DOCUMENT_NUMBER_MISMATCH',
      ],
      rateLimit: PAGE_LIMIT,
      handler: ({ linkToken, body, request }) => submitPhoto(ctx, { token: linkToken, kind: body.kind, image: imageOf(body.image), ip: request.ip }),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/signing/attachment',
      summary: 'One of the files asked of the participant (PDF, JPEG or PNG, base64), or a new one in its place, before they sign',
      description:
        'The file is recognised by its bytes, not its name. It is stored like every file of the service, read only through short-lived signed URLs (GET /v1.5/ext/attachments), and its name and SHA-256 go into the audit trail.',
      body: attachmentSchema,
      query: noInput,
      bodyLimit: ATTACHMENT_BODY_LIMIT,
      response: { json: signingViewResponse },
      errors: [...SIGNING_STEP_ERRORS, 'LINK_NOT_FOUND', 'ATTACHMENT_UNKNOWN', 'ATTACHMENT_EMPTY', 'ATTACHMENT_TOO_LARGE', 'ATTACHMENT_TYPE_NOT_ALLOWED'],
      rateLimit: PAGE_LIMIT,
      handler: ({ linkToken, body, request }) =>
        giveAttachment(ctx, { token: linkToken, position: body.attachment, bytes: Buffer.from(body.file, 'base64'), ip: request.ip }),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/signing/opened',
      summary: "The participant's page showed a document (its 0-based position): recorded once in the audit trail, as a signer signs only what they opened",
      body: openedSchema,
      query: noInput,
      response: { json: documentsOpenedResponse },
      errors: [...SIGNING_STEP_ERRORS, 'LINK_NOT_FOUND', 'SIGNING_DOCUMENT_UNKNOWN'],
      rateLimit: PAGE_LIMIT,
      handler: ({ linkToken, body, request }) => openDocument(ctx, { token: linkToken, document: body.document, ip: request.ip }),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/signing/sign',
      summary: 'Sign, once the identity validations asked of the participant are met and they accept to sign electronically',
      body: signSchema,
      query: noInput,
      response: { json: signingOutcomeResponse },
      errors: [
        ...SIGNING_STEP_ERRORS,
        'LINK_NOT_FOUND',
        'WRONG_ROLE',
        'OTP_REQUIRED',
        'IDENTITY_VALIDATION_REQUIRED',
        'DOCUMENT_NOT_OPENED',
        'SIGNATURE_IMAGE_EMPTY',
        'SIGNATURE_IMAGE_TOO_LARGE',
        'SIGNATURE_IMAGE_NOT_PNG',
        'SIGNATURE_IMAGE_UNREADABLE',
        'SIGNATURE_KIND_NOT_ALLOWED',
        'ATTACHMENT_REQUIRED',
      ],
      rateLimit: PAGE_LIMIT,
      handler: ({ linkToken, request, body }) =>
        signDocument(ctx, {
          token: linkToken,
          ...client(request),
          signature: {
            kind: body.signatureKind ?? (body.signature ? 'draw' : 'font'),
            ...(body.signature ? { image: Buffer.from(body.signature, 'base64') } : {}),
          },
        }),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/signing/approve',
      summary: 'Approve (approvers), once the identity validations asked of them are met',
      body: finishSchema,
      query: noInput,
      response: { json: signingOutcomeResponse },
      errors: [...SIGNING_STEP_ERRORS, 'LINK_NOT_FOUND', 'WRONG_ROLE', 'OTP_REQUIRED', 'IDENTITY_VALIDATION_REQUIRED', 'ATTACHMENT_REQUIRED'],
      rateLimit: PAGE_LIMIT,
      handler: ({ linkToken, request }) => approveDocument(ctx, { token: linkToken, ...client(request) }),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/signing/reject',
      summary: 'Reject the document with a reason: the process ends REJECTED',
      body: rejectSchema,
      query: noInput,
      response: { json: signingOutcomeResponse },
      errors: [...SIGNING_STEP_ERRORS, 'LINK_NOT_FOUND', 'REJECT_REASON_REQUIRED'],
      rateLimit: PAGE_LIMIT,
      handler: ({ linkToken, body, request }) => rejectDocument(ctx, { token: linkToken, reason: body.reason, ip: request.ip }),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/signing/delegate',
      summary: "Hand the participant's place to another person, with a reason (when their organization sets signerDelegation)",
      description:
        "A signer whose turn it is, before their identity steps begin, names the person who signs instead (name and e-mail; the phone, or the identification, when the place's validations need them) and why. The new person gets a new participant id and link, the same validations, and the invitation; this link opens nothing from then on (its page says the place was handed over). Recorded as UPDATE_SIGNER, with its webhook.",
      body: delegateSchema,
      query: noInput,
      response: { json: delegatedResponse },
      errors: [
        ...SIGNING_STEP_ERRORS,
        'LINK_NOT_FOUND',
        'DELEGATION_NOT_ALLOWED',
        'DELEGATION_TOO_LATE',
        'DELEGATE_PHONE_REQUIRED',
        'DELEGATE_IDENTIFICATION_REQUIRED',
        'DELEGATE_ALREADY_TAKES_PART',
      ],
      // A link hands its place on once (it opens nothing after), so it sends at most one invitation: a page's limit is enough.
      rateLimit: PAGE_LIMIT,
      handler: ({ linkToken, body, request }) => delegateSigning(ctx, { token: linkToken, input: body, ip: request.ip }),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/signing/copy',
      summary: 'E-mail the participant a link to their page, where the document can be read and downloaded at any time',
      body: noInput,
      query: noInput,
      response: { json: sentResponse },
      errors: ['SIGNING_LINK_NOT_FOUND', 'LINK_NOT_FOUND'],
      rateLimit: MESSAGE_LIMIT,
      handler: ({ linkToken }) => emailSigningCopy(ctx, { token: linkToken }),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/signing/send-link',
      summary: "Send the participant's link to the phone number the organization gave for them, to continue on the phone",
      body: sendLinkSchema,
      query: noInput,
      response: { json: sentResponse },
      errors: ['SIGNING_LINK_NOT_FOUND', 'LINK_NOT_FOUND', 'PHONE_NOT_ON_RECORD'],
      rateLimit: MESSAGE_LIMIT,
      handler: ({ linkToken, body }) => sendSigningLinkToPhone(ctx, { token: linkToken, channel: body.channel }),
    }),
    defineRoute({
      ...base,
      method: 'GET',
      url: '/people/signing/qr',
      summary: "The participant's own link as a QR code ({svg}), to continue the same steps on a phone",
      body: noInput,
      query: noInput,
      response: { json: qrResponse },
      errors: ['SIGNING_LINK_NOT_FOUND', 'LINK_NOT_FOUND'],
      rateLimit: PAGE_LIMIT,
      handler: ({ linkToken }) => signingLinkQr(ctx, { token: linkToken }),
    }),
    defineRoute({
      ...base,
      method: 'GET',
      url: '/people/validation/qr',
      summary: "The validation's link as a QR code ({svg}), to continue on a phone",
      body: noInput,
      query: noInput,
      response: { json: qrResponse },
      errors: [VALIDATION_LINK_NOT_FOUND, 'LINK_NOT_FOUND'],
      rateLimit: PAGE_LIMIT,
      handler: ({ linkToken }) => validationLinkQr(ctx, { token: linkToken }),
    }),
    defineRoute({
      ...base,
      method: 'GET',
      url: '/people/validation',
      summary: 'The face-validation page: who is validated, the photos taken so far, or the outcome in words',
      body: noInput,
      query: noInput,
      response: { json: validationPageResponse },
      errors: [VALIDATION_LINK_NOT_FOUND, 'LINK_NOT_FOUND'],
      rateLimit: PAGE_LIMIT,
      handler: ({ linkToken }) => readValidationPage(ctx, { token: linkToken }),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/validation/photo',
      summary: "A photo of the face validation: the ID document's front or back, or the face (JPEG or PNG, base64)",
      body: photoSchema,
      query: noInput,
      bodyLimit: PHOTO_BODY_LIMIT,
      response: { json: personViewResponse },
      errors: [...VALIDATION_STEP_ERRORS, 'LINK_NOT_FOUND', ...PHOTO_INTAKE_ERRORS],
      rateLimit: PAGE_LIMIT,
      handler: ({ linkToken, body }) =>
        body.kind === 'face'
          ? submitFacePhoto(ctx, { token: linkToken, image: imageOf(body.image) })
          : submitDocumentPhoto(ctx, { token: linkToken, side: body.kind === 'documentFront' ? 'front' : 'back', image: imageOf(body.image) }),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/validation/finish',
      summary: 'Compare the face with the document; answers the status, the similarity once the validation is over, and the tries left after a mismatch',
      body: noInput,
      query: noInput,
      response: { json: validationFinishedResponse },
      errors: [
        ...VALIDATION_STEP_ERRORS,
        'LINK_NOT_FOUND',
        'DOCUMENT_PHOTO_REQUIRED',
        'FACE_PHOTO_REQUIRED',
        'PHOTO_MISSING',
        ...MATCHER_SHARE_ERRORS,
        'DOCUMENT_NUMBER_MISMATCH',
      ],
      rateLimit: PAGE_LIMIT,
      handler: async ({ linkToken }): Promise<ValidationFinished> => {
        const { code, status, failures, similarity } = await finishVeriface(ctx, { token: linkToken });
        if (status === 'INPROGRESS') return { code, status, attemptsLeft: MAX_FAILURES - failures };
        return { code, status, ...(similarity === undefined ? {} : { similarity }) };
      },
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/validation/send-link',
      summary: "Send the validation's link to the person's phone number on record, to continue on the phone",
      body: sendLinkSchema,
      query: noInput,
      response: { json: sentResponse },
      errors: [VALIDATION_LINK_NOT_FOUND, 'LINK_NOT_FOUND'],
      rateLimit: MESSAGE_LIMIT,
      handler: ({ linkToken, body }) => sendValidationLinkToPhone(ctx, { token: linkToken, channel: body.channel }),
    }),
    defineRoute({
      method: 'POST',
      url: '/people/embed',
      access: 'public',
      tag,
      summary: 'Open a flow embedded with the SDK: the organization key, the document and the embedding origin, as the frame received them',
      description:
        "Answers {flow: 'sign' | 'validation' | 'fill', token}: the link token the embedded frame acts with. The fill flow (`document` a template id of the organization; optional `reference`, a reference link of that template by id or token, whose settings then apply; or `code` with `preBuild: true`, a prebuilt process of that template to complete) answers the token of a form session of its own: twelve hours, one process, used with the /people/fill routes. `token` is one minted by POST /v1.5/ext/sdk/token for this document and origin (required when the organization sets sdkRequireToken). The same 404 EMBED_NOT_FOUND for a wrong key, document, participant, origin (one the organization did not list in its SDK origins) or token. Limited per client address, and per organization: past 100 refused lookups of an organization in 10 minutes, its lookups without a token are answered 429 until the window ends.",
      body: embedSchema,
      query: noInput,
      response: { json: embeddedFlowResponse },
      errors: ['EMBED_NOT_FOUND', 'TOO_MANY_REQUESTS'],
      rateLimit: { max: 30, windowMs: MINUTE },
      handler: ({ body, request }) => openEmbeddedFlow(ctx, { input: body, failures: embedFailures.of(request) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/sdk/token',
      access: 'private-key',
      tag,
      summary: "Mint a token for one embedded flow: the integrator's backend answers it to its page's onSDKToken",
      description:
        'Answers {token, expiresAt}: the token opens the flow of `document` (a process code followed by a participant id, a face-validation code, or a template id for the fill flow, with the same `code`/`preBuild` or `reference` the page will send) once, from `origin` (one of the SDK origins), within ten minutes.',
      body: sdkTokenSchema,
      query: noInput,
      response: { json: sdkTokenResponse },
      errors: [['DOCUMENT_NOT_FOUND', 404], 'SDK_ORIGIN_NOT_ALLOWED', 'ORGANIZATION_NOT_FOUND'],
      handler: ({ organizationId, body }) => mintSdkToken(ctx, { organizationId, input: body }),
    }),
  ];
}
