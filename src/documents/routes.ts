import Joi from 'joi';
import { requirePrivateKey } from '../auth/key-kind.js';
import type { ServiceContext } from '../context.js';
import { type ApiRoute, defineRoute, noInput, type RouteError } from '../http/route.js';
import { readProcessOrPrebuilt } from '../prebuilt/read-prebuilt.js';
import { prebuiltProcessResponse, publicPrebuiltResponse } from '../prebuilt/schemas.js';
import { createSigningProcess } from './creating/create-process.js';
import { draftFromPackage, draftFromPdf, draftFromTemplate } from './creating/drafts.js';
import { cancelProcesses } from './lifecycle/cancel-processes.js';
import { reactivateProcess } from './lifecycle/reactivate-process.js';
import { listProcesses, readProcess, readPublicProcess, readRoadmap } from './lifecycle/read-process.js';
import { remindParticipant } from './lifecycle/remind-participant.js';
import { unlockParticipant } from './participant/unlock-participant.js';
import { withTemplatePdf } from './pdf-templates/pdf-templates.js';
import {
  cancelResponse,
  cancelSchema,
  createdProcessResponse,
  packageReminderResponse,
  packageReminderSchema,
  packageSchema,
  reactivateResponse,
  reactivateSchema,
  readProcessQuery,
  readProcessResponse,
  reminderResponse,
  reminderSchema,
  roadmapQuery,
  roadmapResponse,
  saveFromTemplateSchema,
  unlockResponse,
  unlockSchema,
  uploadPdfSchema,
} from './schemas.js';

const tag = 'signing processes';

export const CREATION_ERRORS: readonly RouteError[] = [
  'EXPIRED_DATE_INVALID',
  'USER_NOTFOUND',
  'TEMPLATE_NOT_FOUND',
  'TEMPLATE_HTML_MISSING',
  'FILE_NOT_VALID',
  'FILE_TOO_LARGE',
  'WEBHOOK_NOT_FOUND',
  'SIGNER_DATA_MISSING',
  'SIGNERS_REQUIRED',
  'SIGNER_EMAIL_DUPLICATED',
  'DOCUMENT_NOT_IN_EDIT',
];

const REMINDER_RULES =
  'The participant must be the one whose turn it is and have not acted, in a process in signature, and be notified by the service (not `notification: false`). A person hears from the service at most once an hour: within an hour of their invitation or last reminder, 429 REMINDER_TOO_SOON with Retry-After.';

export const REMINDER_ERRORS: readonly RouteError[] = [
  'MISSING_SIGNER_ID',
  'DOCUMENT_NOT_FOUND',
  'SIGNER_NOT_FOUND',
  'DOCUMENT_NOT_IN_SIGNATURE',
  'DOCUMENT_EXPIRED',
  'PARTICIPANT_ALREADY_DONE',
  'PARTICIPANT_BLOCKED',
  'DOCUMENT_AWAITING_UPLOAD',
  'NOT_YOUR_TURN',
  'PARTICIPANT_NOT_NOTIFIED',
  'REMINDER_TOO_SOON',
];

const ANSWERS_BODY_LIMIT = 10 * 1024 * 1024;

/** Inline base64 PDFs make bodies larger than other requests'; each stays under UPLOAD_MAX_BYTES once decoded. */
export function inlineFilesLimit(ctx: ServiceContext, files: number): number {
  return Math.ceil((ctx.uploadMaxBytes * 4) / 3) * files + 1024 * 1024;
}

export function documentRoutes(ctx: ServiceContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/document/save',
      access: 'private-key',
      tag,
      summary: 'Create a signing process from a template and its answers',
      description:
        'The Complete HTML filled with `data` becomes the document. Participants come from `signProfile`, or from the template signatureProfile and the answers. Answers {code, document, signProfile: [{id, name, email, phone, role, url?}], documents}; `url` is the personal link of participants with notification false. With `code`, overwrites a process in edit mode (POST /document/edit), keeping its code.',
      body: saveFromTemplateSchema,
      query: noInput,
      response: { json: createdProcessResponse },
      errors: [...CREATION_ERRORS, 'DOCUMENT_NOT_FOUND'],
      // Answers to `image` questions are data URIs of up to 8 MiB.
      bodyLimit: ANSWERS_BODY_LIMIT,
      handler: ({ body, organizationId }) => createSigningProcess(ctx, { organizationId, draft: draftFromTemplate(body) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/document/upload',
      access: 'private-key',
      tag,
      summary: 'Create a signing process from a PDF (inline base64, or through an upload URL)',
      description:
        "With `file` the PDF is in the request; with `document` it is a PDF template's. With `compress: true` the answer carries `url`: PUT the PDF there (Content-Type: application/pdf, within 5 minutes); participants are invited once it has arrived. With `code`, overwrites a process in edit mode (POST /document/edit), keeping its code.",
      body: uploadPdfSchema,
      query: noInput,
      response: { json: createdProcessResponse },
      errors: [...CREATION_ERRORS, 'DOCUMENT_NOT_FOUND', 'PDF_TEMPLATE_NOT_FOUND'],
      bodyLimit: inlineFilesLimit(ctx, 1),
      handler: async ({ body, organizationId }) => {
        const created = await createSigningProcess(ctx, { organizationId, draft: draftFromPdf(await withTemplatePdf(ctx, organizationId, body)) });
        const url = created.documents[0]?.url;
        return url === undefined ? created : { ...created, url };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/document/many',
      access: 'private-key',
      tag,
      summary: 'Create a package: several documents signed together by the same participants, under one code',
      description:
        'Only global validations (camera, otpCode, options at the root) apply, to every participant; camera, otpCode or options in a signer are refused (400 SIGNER_VALIDATIONS_NOT_SUPPORTED). Participants: the root signProfile, or everyone the documents name (the same e-mail is the same person). Each document answers its own `code`; `package` (and `id`) is the package code. With `package`, overwrites a package in edit mode (POST /package/edit), keeping its code; its documents get new codes.',
      body: packageSchema,
      query: noInput,
      response: { json: createdProcessResponse },
      errors: [...CREATION_ERRORS, 'PACKAGE_NOT_FOUND', 'DOCUMENTS_MIN_TWO', 'SIGNER_SEQUENCE_NOT_SUPPORTED', 'SIGNER_VALIDATIONS_NOT_SUPPORTED'],
      bodyLimit: inlineFilesLimit(ctx, 4),
      handler: async ({ body, organizationId }) => {
        const created = await createSigningProcess(ctx, { organizationId, draft: draftFromPackage(body) });
        return { ...created, package: created.code, id: created.code };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1.5/ext/document',
      access: 'any-key',
      publicKey:
        'with code or package: code, kind, name, status, signFinish, expiredDate, createdAt, updatedAt, documents [{name, ready}], and signProfile [{name, role, order, status, signedAt, rejectedAt, files?: [{name, optional, status}]}]. No participant ids, e-mails, phones, photos, `custom`, reasons or URLs; `image=true` and the listing (no code) are 403 PRIVATE_KEY_REQUIRED.',
      tag,
      summary: 'Read a process (?code=) or a package (?package=), or list processes newest first, by status, template and folder',
      description:
        "With code: status, documents with download URLs (signed files and certificate once finished), participants with status and effective validations (and `files` [{name, optional, status, url?}]: the attachments asked of them, a 5-minute download once given); with image=true, each participant's identity photos (5-minute URLs) and, for options.camera 'identification', ocrData, attempts (as GET /veriface shows them) and hash once their validation is over. A prebuilt process (POST /document/prebuild) not completed yet answers status PREBUILT (or CANCELLED, EXPIRED), no documents and no participants, and with the private key `preBuild`: its template, emailTo, the prefilled answers and the form's url. With package (a package's code): the same view, and with the private key the real service's `_id`, `codes` (its documents' codes) and `signers` [{userId, email, name, phone, status}]; a document's code there is DOCUMENT_NOT_FOUND. A package's documents carry their own `code`; a process in a folder its `folder`. Without code: {data, next}; `next` is the cursor of the following page (prebuilt processes are listed once completed); `folder` keeps those in a folder of that path.",
      body: noInput,
      query: readProcessQuery,
      response: { json: Joi.alternatives().try(readProcessResponse, prebuiltProcessResponse, publicPrebuiltResponse) },
      errors: ['DOCUMENT_NOT_FOUND', 'PRIVATE_KEY_REQUIRED'],
      handler: ({ query, organizationId, keyKind }) => {
        if (query.package !== undefined) {
          const options = { organizationId, code: query.package, kind: 'package' as const };
          return keyKind === 'private' ? readProcess(ctx, options) : readPublicProcess(ctx, options);
        }
        if (query.code === undefined) {
          requirePrivateKey(keyKind, "listing the organization's processes");
          return listProcesses(ctx, {
            organizationId,
            limit: query.limit,
            ...(query.status ? { status: query.status } : {}),
            ...(query.template ? { templateId: query.template } : {}),
            ...(query.folder ? { folder: query.folder } : {}),
            ...(query.cursor ? { cursor: query.cursor } : {}),
          });
        }
        const code = query.code;
        if (keyKind === 'private') {
          return readProcessOrPrebuilt(ctx, {
            organizationId,
            code,
            keyKind,
            read: () => readProcess(ctx, { organizationId, code, image: query.image === true }),
          });
        }
        if (query.image === true) requirePrivateKey(keyKind, 'identity photos (image=true)');
        return readProcessOrPrebuilt(ctx, { organizationId, code, keyKind: 'public', read: () => readPublicProcess(ctx, { organizationId, code }) });
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1.5/ext/document/roadmap',
      // The audit trail names participants by id, with e-mails, phones, reviewers and reasons.
      access: 'private-key',
      tag,
      summary: "A process's audit trail, oldest first",
      body: noInput,
      query: roadmapQuery,
      response: { json: roadmapResponse },
      errors: ['DOCUMENT_NOT_FOUND'],
      handler: ({ query, organizationId }) => readRoadmap(ctx, { organizationId, code: query.code }),
    }),
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/document/cancel',
      access: 'private-key',
      tag,
      summary: 'Cancel processes in signature',
      description:
        'Answers {success, errors: {cant, documents?}}: codes unknown to the organization or no longer in signature are listed, the others cancelled. Notified participants receive the message.',
      body: cancelSchema,
      query: noInput,
      response: { json: cancelResponse },
      errors: ['USER_NOTFOUND'],
      handler: ({ body, organizationId }) => cancelProcesses(ctx, { organizationId, input: body }),
    }),
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/document/unlock',
      access: 'private-key',
      tag,
      summary: 'Decide a participant blocked during identity validation: approve, reject, reset or cancel',
      description:
        '`code` is the process code followed by the participant id. approve (needs message): their identity is accepted and they go on; reset: their attempts start again; reject: they reject, so the process is REJECTED; cancel (needs message): the process is CANCELLED. `message` is refused for reject and reset. Answers {message: "OK"}.',
      body: unlockSchema,
      query: noInput,
      response: { json: unlockResponse },
      errors: ['MISSING_SIGNER_ID', 'USER_NOTFOUND', 'DOCUMENT_NOT_FOUND', 'SIGNER_NOT_FOUND', 'DOCUMENT_NOT_IN_SIGNATURE', 'NOT_BLOCKED_PROCESS'],
      handler: ({ body, organizationId }) => unlockParticipant(ctx, { organizationId, input: body }),
    }),
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/document/reminder',
      access: 'private-key',
      tag,
      summary: 'Remind one participant whose turn it is: their invitation again, through the channels they were invited by',
      description: `\`code\` is the process code followed by the participant id. ${REMINDER_RULES} Answers {message: "OK"}.`,
      body: reminderSchema,
      query: noInput,
      response: { json: reminderResponse },
      errors: REMINDER_ERRORS,
      handler: async ({ body, organizationId }) => {
        await remindParticipant(ctx, { organizationId, code: body.code });
        return { message: 'OK' as const };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/document/many/reminder',
      access: 'private-key',
      tag,
      summary: "Remind one participant of a package: the real service's package form of POST /document/reminder",
      description: `\`package\` is the package code followed by the participant id. ${REMINDER_RULES} Answers {message: "REMINDER_SENT"}.`,
      body: packageReminderSchema,
      query: noInput,
      response: { json: packageReminderResponse },
      errors: REMINDER_ERRORS,
      handler: async ({ body, organizationId }) => {
        await remindParticipant(ctx, { organizationId, code: body.package });
        return { message: 'REMINDER_SENT' as const };
      },
    }),
    defineRoute({
      method: 'PUT',
      url: '/v1.5/ext/document/reactivate',
      access: 'private-key',
      tag,
      summary: 'Put a rejected or expired process (document or package) back in signature',
      description:
        '`code` or `package` (exactly one) names the process; `email` is the registered user who asks, kept in the audit trail (REACTIVATION_SIGN) and the webhook (`by`). An expiry that has passed is renewed: the process gets the lifetime it was created with, from now. Participants who rejected get a fresh chance (their rejection stays in the audit trail); everyone of the current turn who has not signed is invited again through their channels. Answers {notifications, users}: how many were invited, and their names.',
      body: reactivateSchema,
      query: noInput,
      response: { json: reactivateResponse },
      errors: ['USER_NOTFOUND', 'PROCESS_NOT_FOUND', 'PROCESS_NOT_REACTIVABLE'],
      handler: ({ body, organizationId }) => reactivateProcess(ctx, { organizationId, input: body }),
    }),
  ];
}
