import type { ServiceContext } from '../../context.js';
import { type ApiRoute, defineRoute, noInput } from '../../http/route.js';
import { editDocumentSchema, editedProcessResponse, editMarkedResponse, editPackageSchema } from '../schemas.js';
import { markForEdit, readEditedProcess } from './edit-mode.js';

const tag = 'signing processes';

const MARK_RULES =
  'Only a process in signature that nobody has signed, approved, rejected or given identity photos for (DOCUMENT_NOT_EDITABLE says why otherwise). Nobody can act on it meanwhile: participants opening their link are told it is being corrected and see no document; reminders and the expiry wait. It cannot be left except by sending it again, or by cancelling it. Roadmap EDIT_SIGN; webhook `<kind>.editing`.';

const OVERWRITE =
  'Then send the whole creation payload again with the code: everything left out is erased (folder: the root, tags: none); the participants are replaced and invited again with new links.';

/** docs/real-service.md §3.10: edit mode, for a document and for a package. */
export function editRoutes(ctx: ServiceContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/document/edit',
      access: 'private-key',
      tag,
      summary: 'Put a document in edit mode, to send it again corrected under the same code',
      description: `${MARK_RULES} ${OVERWRITE} (POST /document/upload or /document/save with \`code\`). Answers {message: "DOCUMENT_MODIFIED"}.`,
      body: editDocumentSchema,
      query: noInput,
      response: { json: editMarkedResponse },
      errors: ['DOCUMENT_NOT_FOUND', 'DOCUMENT_NOT_EDITABLE'],
      handler: ({ body, organizationId }) => markForEdit(ctx, { organizationId, code: body.code, kind: 'document' }),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1.5/ext/document/edit',
      access: 'private-key',
      tag,
      summary: 'A document in edit mode: its fields, participants and PDF download URLs (5 minutes)',
      body: noInput,
      query: editDocumentSchema,
      response: { json: editedProcessResponse },
      errors: ['DOCUMENT_NOT_FOUND', 'DOCUMENT_NOT_IN_EDIT'],
      handler: ({ query, organizationId }) => readEditedProcess(ctx, { organizationId, code: query.code, kind: 'document' }),
    }),
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/package/edit',
      access: 'private-key',
      tag,
      summary: 'Put a package in edit mode, to send it again corrected under the same code',
      description: `${MARK_RULES} A document of a package is edited with its package. ${OVERWRITE} (POST /document/many with \`package\`; its documents get new codes). Answers {message: "PACKAGE_MODIFIED"}.`,
      body: editPackageSchema,
      query: noInput,
      response: { json: editMarkedResponse },
      errors: ['PACKAGE_NOT_FOUND', 'DOCUMENT_NOT_EDITABLE'],
      handler: ({ body, organizationId }) => markForEdit(ctx, { organizationId, code: body.package, kind: 'package' }),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1.5/ext/package/edit',
      access: 'private-key',
      tag,
      summary: 'A package in edit mode: its fields, participants, and each document with its code and PDF download URL (5 minutes)',
      body: noInput,
      query: editPackageSchema,
      response: { json: editedProcessResponse },
      errors: ['PACKAGE_NOT_FOUND', 'DOCUMENT_NOT_IN_EDIT'],
      handler: ({ query, organizationId }) => readEditedProcess(ctx, { organizationId, code: query.package, kind: 'package' }),
    }),
  ];
}
