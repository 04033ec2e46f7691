import Joi from 'joi';
import type { ServiceContext } from '../../context.js';
import { type ApiRoute, defineRoute, noInput } from '../../http/route.js';
import { createSigningProcess } from '../creating/create-process.js';
import { draftFromPackageUpload } from '../creating/drafts.js';
import { withTemplatePdf } from '../pdf-templates/pdf-templates.js';
import { CREATION_ERRORS, inlineFilesLimit } from '../routes.js';
import { packageUploadResponse, packageUploadSchema, participantId, processCode } from '../schemas.js';
import { MAX_FILES_ASKED } from './files-asked.js';
import { readAttachments } from './read-attachments.js';
import { type ReviewInput, reviewAttachments } from './review-attachments.js';

interface AttachmentsQuery {
  code?: string;
  package?: string;
  userId?: string;
}

const attachmentsQuery = Joi.object<AttachmentsQuery, true>({
  code: processCode.description("the process's code"),
  package: processCode.description("a package's code (the real service's name for it); the same as `code`"),
  userId: participantId.description('one participant: their files, with download URLs'),
}).xor('code', 'package');

const status = Joi.string()
  .valid('pending', 'uploaded', 'approved')
  .description(
    'pending: nothing given yet (a rejected file counts as not given); uploaded: given, waiting for review or may still be replaced; approved: the creator approved every file given and none required is missing, or the participant signed the document with them',
  )
  .example('uploaded');

const signer = Joi.object({
  userId: participantId.required(),
  name: Joi.string().required().example('Juan Pérez'),
  email: Joi.string().required().example('juan@people.example'),
  status: status.required(),
});

const file = Joi.object({
  name: Joi.string().required().example('Documento de identidad'),
  description: Joi.string().example('Both sides of your ID'),
  optional: Joi.boolean().required().example(false),
  url: Joi.string()
    .uri()
    .description('once given: a download of 5 minutes')
    .example(
      'https://sign.example.com/files/processes/65f1c0e2a4b5c6d7e8f90123/participants/G8RK2D7QX0PLM4WZ/attachments/0-x1.pdf?expires=1795000000&signature=abc',
    ),
  sha256: Joi.string().hex().length(64).example('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'),
  contentType: Joi.string().valid('application/pdf', 'image/jpeg', 'image/png').example('application/pdf'),
  size: Joi.number().integer().min(1).example(182_044),
  uploadedAt: Joi.string().isoDate().example('2026-01-02T16:54:00.297Z'),
  review: Joi.string().valid('approved', 'rejected').description("the creator's review (PUT /attachments); a rejected file is asked again").example('approved'),
  reason: Joi.string().description('why it was rejected').example('The photo of your ID is blurred'),
  reviewedAt: Joi.string().isoDate().example('2026-01-02T17:10:00.000Z'),
});

const attachmentsResponse = Joi.object({
  package: processCode.required().description("the process's code, under the real service's name"),
  code: processCode.required(),
  name: Joi.string().required().example('Lease, Calle 12'),
  finish: Joi.boolean().required().description('the process is closed (finished, rejected, expired or cancelled)').example(false),
  signers: Joi.array().items(signer).description('without userId: the participants asked files'),
  signer: signer.keys({ files: Joi.array().items(file).required() }).description('with userId: that participant and each file asked of them'),
})
  .xor('signers', 'signer')
  .example({
    package: 'TR99AQMY31',
    code: 'TR99AQMY31',
    name: 'Lease, Calle 12',
    finish: false,
    signers: [{ userId: 'G8RK2D7QX0PLM4WZ', name: 'Juan Pérez', email: 'juan@people.example', status: 'uploaded' }],
  });

const reviewSchema = Joi.object<ReviewInput & { code?: string; package?: string }, true>({
  code: processCode.description("the process's code"),
  package: processCode.description("a package's code (the real service's name for it); the same as `code`"),
  userId: participantId.required().description('the participant whose files are reviewed'),
  approve: Joi.boolean().required().description('true: the files are approved (final); false: rejected, asked again of the participant'),
  reason: Joi.string()
    .trim()
    .min(1)
    .max(1000)
    .when('approve', { is: false, then: Joi.required(), otherwise: Joi.forbidden() })
    .description('with approve false: why, sent to the participant with their link')
    .example('The photo of your ID is blurred'),
  files: Joi.array()
    .items(Joi.string().trim().min(1).max(200))
    .min(1)
    .max(MAX_FILES_ASKED)
    .unique()
    .description('the names of the files reviewed; every file the participant gave when absent')
    .example(['Documento de identidad']),
})
  .xor('code', 'package')
  .example({ package: 'TR99AQMY31', userId: 'G8RK2D7QX0PLM4WZ', approve: false, reason: 'The photo of your ID is blurred' });

const reviewResponse = Joi.object({
  status: Joi.string().valid('approved', 'rejected').required(),
  attachments: Joi.array().items(Joi.string()).required().description('the names of the files reviewed').example(['Documento de identidad']),
  finish: Joi.boolean().required().description('the process is closed: the last approval of a process without a document finishes it'),
}).example({ status: 'approved', attachments: ['Documento de identidad'], finish: false });

export function attachmentRoutes(ctx: ServiceContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/package/upload',
      access: 'private-key',
      tag: 'signing processes',
      summary: 'Ask participants for files (attachments), with a PDF to sign or without one',
      description:
        "`file` (the PDF in base64), `compress: true` (answer `url`: PUT the PDF there within 5 minutes) or `document` (a PDF template's id): at most one. With none, the process only collects files: each participant's page asks for their files, and they are done once every required one is given (`name` is then not needed). `packageName` names the process; each signer has `files` and exactly one of `type`, `label` or `position`. `notification` is refused (SIGNER_NOTIFICATION_NOT_SUPPORTED per signer): everyone is notified. Answers {package, code?, url?, signProfile}: `code` is the document's own code, when there is one.",
      body: packageUploadSchema,
      query: noInput,
      response: { json: packageUploadResponse },
      errors: [...CREATION_ERRORS, 'PDF_TEMPLATE_NOT_FOUND', 'SIGNER_NOTIFICATION_NOT_SUPPORTED'],
      bodyLimit: inlineFilesLimit(ctx, 1),
      handler: async ({ body, organizationId }) => {
        const created = await createSigningProcess(ctx, { organizationId, draft: draftFromPackageUpload(await withTemplatePdf(ctx, organizationId, body)) });
        const document = created.documents[0];
        return {
          package: created.code,
          ...(document?.code === undefined ? {} : { code: document.code }),
          ...(document?.url === undefined ? {} : { url: document.url }),
          signProfile: created.signProfile,
        };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1.5/ext/attachments',
      access: 'private-key',
      tag: 'signing processes',
      summary: "The files a process asks of its participants (attachments), and one participant's with download URLs",
      description:
        "`code` (or `package`, the same code) and optionally `userId`, a participant's id. Without userId: `{package, code, name, finish, signers: [{userId, name, email, status}]}`; with it: `signer` with `files: [{name, description?, optional, url?, sha256?, contentType?, size?, uploadedAt?}]`, `url` a download of 5 minutes once the file was given. Private key only: the files are personal documents (the real service reads them with the public key).",
      body: noInput,
      query: attachmentsQuery,
      response: { json: attachmentsResponse },
      errors: ['ATTACHMENT_NOT_FOUND'],
      handler: ({ query, organizationId }) =>
        readAttachments(ctx, {
          organizationId,
          code: query.code ?? query.package ?? '',
          ...(query.userId === undefined ? {} : { userId: query.userId }),
        }),
    }),
    defineRoute({
      method: 'PUT',
      url: '/v1.5/ext/attachments',
      access: 'private-key',
      tag: 'signing processes',
      summary: "Approve or reject a participant's files (the process's creator reviews them)",
      description:
        "`code` (or `package`), `userId`, `approve`, and with `approve: false` a `reason`; `files` (names) narrows the review, every file given otherwise. Approved files are final. Rejected ones are asked again: the participant's link works again for them, and they are sent their invitation with the reason. A participant who signed a document with their files cannot have them rejected (ATTACHMENTS_FINAL). A process without a document finishes when every participant gave their files and every file is approved. Answers {status, attachments, finish}; the trail and the certificate keep ATTACHMENTS_APPROVED / ATTACHMENTS_REJECTED, and webhooks `<kind>.attachments_approved` / `<kind>.attachments_rejected` follow.",
      body: reviewSchema,
      query: noInput,
      response: { json: reviewResponse },
      errors: ['ATTACHMENT_NOT_FOUND', 'ATTACHMENT_UNKNOWN', 'ATTACHMENT_NOT_GIVEN', 'ATTACHMENTS_FINAL', 'DOCUMENT_NOT_IN_SIGNATURE'],
      handler: ({ body, organizationId }) => {
        const { code, package: pkg, ...input } = body;
        return reviewAttachments(ctx, { organizationId, code: code ?? pkg ?? '', input });
      },
    }),
  ];
}
