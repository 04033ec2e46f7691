import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import { describeRoute } from '../http/openapi.js';
import { validate } from '../http/validate.js';
import { cancelProcesses } from './cancel-processes.js';
import { createSigningProcess } from './create-process.js';
import { draftFromPackage, draftFromPdf, draftFromTemplate } from './drafts.js';
import { listProcesses, readProcess, readRoadmap } from './read-process.js';
import { cancelResponse, cancelSchema, createdProcessResponse, packageSchema, readProcessQuery, roadmapQuery, saveFromTemplateSchema, uploadPdfSchema } from './schemas.js';

const CREATION_ERRORS = {
  400: 'Joi message | identity-validation rule message | EXPIRED_DATE_INVALID | USER_NOTFOUND | TEMPLATE_NOT_FOUND | TEMPLATE_HTML_MISSING | FILE_NOT_VALID | WEBHOOK_NOT_FOUND: <name> | SIGNER_DATA_MISSING: ...',
  413: 'FILE_TOO_LARGE',
};

const ANSWERS_BODY_LIMIT = 10 * 1024 * 1024;

/** Inline base64 PDFs make bodies larger than other requests'; each stays under UPLOAD_MAX_BYTES once decoded. */
function inlineFilesLimit(ctx: ServiceContext, files: number): number {
  return Math.ceil((ctx.uploadMaxBytes * 4) / 3) * files + 1024 * 1024;
}

export function documentRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post(
    '/document/save',
    {
      ...describeRoute({
        tag: 'signing processes',
        summary: 'Create a signing process from a template and its answers',
        description:
          'The Complete HTML filled with `data` becomes the document. Participants come from `signProfile`, or from the template signatureProfile and the answers. Answers {code, document, signProfile: [{id, name, email, phone, role, url?}], documents}; `url` is the personal link of participants with notification false.',
        body: saveFromTemplateSchema,
        response: createdProcessResponse,
        errors: CREATION_ERRORS,
      }),
      // Answers to `image` questions are data URIs of up to 8 MiB.
      bodyLimit: ANSWERS_BODY_LIMIT,
    },
    async (request) => {
      const input = validate(saveFromTemplateSchema, request.body);
      return createSigningProcess(ctx, { organizationId: request.organizationId, draft: draftFromTemplate(input) });
    },
  );

  app.post(
    '/document/upload',
    {
      ...describeRoute({
        tag: 'signing processes',
        summary: 'Create a signing process from a PDF (inline base64, or through an upload URL)',
        description:
          'With `file` the PDF is in the request. With `compress: true` the answer carries `url`: PUT the PDF there (Content-Type: application/pdf, within 5 minutes); participants are invited once it has arrived.',
        body: uploadPdfSchema,
        response: createdProcessResponse,
        errors: CREATION_ERRORS,
      }),
      bodyLimit: inlineFilesLimit(ctx, 1),
    },
    async (request) => {
      const input = validate(uploadPdfSchema, request.body);
      const created = await createSigningProcess(ctx, { organizationId: request.organizationId, draft: draftFromPdf(input) });
      const url = created.documents[0]?.url;
      return url === undefined ? created : { ...created, url };
    },
  );

  app.post(
    '/document/many',
    {
      ...describeRoute({
        tag: 'signing processes',
        summary: 'Create a package: several documents signed together by the same participants, under one code',
        description:
          'Only global validations (camera, otpCode, options at the root) apply, to every participant; per-signer camera, otpCode and options are ignored. Participants: the root signProfile, or everyone the documents name (the same e-mail is the same person).',
        body: packageSchema,
        response: createdProcessResponse,
        errors: { ...CREATION_ERRORS, 400: `DOCUMENTS_MIN_TWO | SIGNER_SEQUENCE_NOT_SUPPORTED | ${CREATION_ERRORS[400]}` },
      }),
      bodyLimit: inlineFilesLimit(ctx, 4),
    },
    async (request) => {
      const input = validate(packageSchema, request.body);
      const created = await createSigningProcess(ctx, { organizationId: request.organizationId, draft: draftFromPackage(input) });
      return { ...created, package: created.code };
    },
  );

  app.get(
    '/document',
    describeRoute({
      tag: 'signing processes',
      summary: 'Read a process (?code=), or list processes newest first, by status and template',
      description:
        'With code: status, documents with download URLs (signed files and certificate once finished), participants with status and effective validations. Without: {data, next}; `next` is the cursor of the following page.',
      query: readProcessQuery,
      errors: { 400: 'Invalid request | DOCUMENT_NOT_FOUND' },
    }),
    async (request) => {
      const query = validate(readProcessQuery, request.query);
      const organizationId = request.organizationId;
      if (query.code !== undefined) return readProcess(ctx, { organizationId, code: query.code });
      return listProcesses(ctx, {
        organizationId,
        limit: query.limit,
        ...(query.status ? { status: query.status } : {}),
        ...(query.template ? { templateId: query.template } : {}),
        ...(query.cursor ? { cursor: query.cursor } : {}),
      });
    },
  );

  app.get(
    '/document/roadmap',
    describeRoute({
      tag: 'signing processes',
      summary: "A process's audit trail, oldest first",
      query: roadmapQuery,
      errors: { 400: 'Invalid request | DOCUMENT_NOT_FOUND' },
    }),
    async (request) => readRoadmap(ctx, { organizationId: request.organizationId, code: validate(roadmapQuery, request.query).code }),
  );

  app.post(
    '/document/cancel',
    describeRoute({
      tag: 'signing processes',
      summary: 'Cancel processes in signature',
      description:
        'Answers {success, errors: {cant, documents?}}: codes unknown to the organization or no longer in signature are listed, the others cancelled. Notified participants receive the message.',
      body: cancelSchema,
      response: cancelResponse,
      errors: { 400: 'Invalid request | USER_NOTFOUND' },
    }),
    async (request) => cancelProcesses(ctx, { organizationId: request.organizationId, input: validate(cancelSchema, request.body) }),
  );
}
