import type { ServiceContext } from '../../context.js';
import { type ApiRoute, defineRoute, noInput } from '../../http/route.js';
import { inlineFilesLimit } from '../routes.js';
import { createPdfTemplate, readPdfTemplates, removePdfTemplate } from './pdf-templates.js';
import {
  createdPdfTemplateResponse,
  createPdfTemplateSchema,
  deletedPdfTemplateResponse,
  pdfTemplateIdQuery,
  pdfTemplateQuery,
  pdfTemplateResponse,
} from './schemas.js';

const tag = 'PDF templates';

export function pdfTemplateRoutes(ctx: ServiceContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/template/pdf',
      access: 'private-key',
      tag,
      summary: 'Keep a PDF with the boxes where each signer type signs',
      description:
        "POST /document/upload with `document: <id>` (instead of `file`) uses its PDF; each signer whose `type` the template names signs in that type's boxes.",
      body: createPdfTemplateSchema,
      query: noInput,
      response: { json: createdPdfTemplateResponse },
      errors: ['FILE_NOT_VALID', 'FILE_TOO_LARGE'],
      bodyLimit: inlineFilesLimit(ctx, 1),
      handler: ({ body, organizationId }) => createPdfTemplate(ctx, { organizationId, input: body }),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1.5/ext/template/pdf',
      access: 'private-key',
      tag,
      summary: 'Read a PDF template (?id=), or list them newest first',
      body: noInput,
      query: pdfTemplateQuery,
      response: { json: pdfTemplateResponse },
      errors: [['PDF_TEMPLATE_NOT_FOUND', 404]],
      handler: ({ query, organizationId }) => readPdfTemplates(ctx, { organizationId, ...(query.id === undefined ? {} : { id: query.id }) }),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v1.5/ext/template/pdf',
      access: 'private-key',
      tag,
      summary: 'Delete a PDF template (processes created from it keep their copy)',
      body: noInput,
      query: pdfTemplateIdQuery,
      response: { json: deletedPdfTemplateResponse },
      errors: [['PDF_TEMPLATE_NOT_FOUND', 404]],
      handler: ({ query, organizationId }) => removePdfTemplate(ctx, { organizationId, id: query.id }),
    }),
  ];
}
