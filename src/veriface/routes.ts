import type { ServiceContext } from '../context.js';
import { API_PREFIX } from '../http/prefix.js';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import { createVeriface } from './create-veriface.js';
import { readVeriface } from './read-veriface.js';
import { reviewVeriface } from './review-veriface.js';
import { createVerifaceSchema, reviewVerifaceSchema, verifaceCodeQuery } from './schemas.js';

const tag = 'face validation';
const url = `${API_PREFIX}/veriface`;

export function verifaceRoutes(ctx: ServiceContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'POST',
      url,
      access: 'private-key',
      tag,
      summary: 'Create a face-validation process',
      description:
        'Answers {code}. The person is notified by WhatsApp (platform whatsapp), or by e-mail to userEmail on web when the organization has the SDK integration; otherwise the answer also carries url, the link to deliver.',
      body: createVerifaceSchema,
      query: noInput,
      errors: ['EXPIRED_DATE_INVALID', 'USER_NOTFOUND', 'WEBHOOK_NOT_FOUND'],
      handler: ({ body, organizationId }) => createVeriface(ctx, { organizationId, input: body }),
    }),
    defineRoute({
      method: 'GET',
      url,
      access: 'any-key',
      tag,
      summary: 'Read a face-validation process with its stages',
      body: noInput,
      query: verifaceCodeQuery,
      errors: ['VERIFACE_NOT_FOUND'],
      handler: ({ query, organizationId }) => readVeriface(ctx, { organizationId, code: query.code }),
    }),
    defineRoute({
      method: 'POST',
      url: `${url}/review`,
      access: 'private-key',
      tag,
      summary: 'Decide a BLOCKED face validation by hand: approve (VALIDATED) or reject (INVALIDATED)',
      description:
        'By a registered user of the organization, shown as emailValidated in GET /veriface; sends the veriface.validated or veriface.invalidated webhook. Answers {code, status, emailValidated}.',
      body: reviewVerifaceSchema,
      query: noInput,
      errors: ['VERIFACE_NOT_FOUND', 'VERIFACE_NOT_BLOCKED', 'USER_NOTFOUND'],
      handler: ({ body, organizationId }) => reviewVeriface(ctx, { organizationId, input: body }),
    }),
  ];
}
