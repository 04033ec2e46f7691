import Joi from 'joi';
import type { ServiceContext } from '../../context.js';
import { REMINDER_ERRORS } from '../../documents/routes.js';
import { processCode, reactivateResponse, reminderSchema } from '../../documents/schemas.js';
import { type ApiRoute, defineRoute, noInput } from '../../http/route.js';
import { userOf } from '../console-user.js';
import { type ProcessFileKind, readProcessFile } from '../process-files.js';
import { cancelFromConsole, reactivateFromConsole, remindFromConsole } from './actions.js';

const tag = 'console';

const cancelBody = Joi.object<{ code: string; reason: string }, true>({
  code: processCode.required(),
  reason: Joi.string()
    .trim()
    .min(1)
    .max(1000)
    .required()
    .description('told to the participants who were notified, as POST /document/cancel tells them')
    .example('The terms changed'),
});
const reactivateBody = Joi.object<{ code: string }, true>({ code: processCode.required() });
const fileQuery = Joi.object<{ code: string; file: ProcessFileKind; document: number }, true>({
  code: processCode.required(),
  file: Joi.string()
    .valid('document', 'signed', 'certificate')
    .required()
    .description('the document as it is signed, its signed PDF once the process is finished, or the evidence certificate')
    .example('signed'),
  document: Joi.number().integer().min(0).max(99).default(0).description("which of the process's documents, from 0 (document and signed)"),
});

/**
 * The process page's actions: cancel, remind and reactivate, each the API's own operation with the
 * session's user as who asked, and each in the console's audit log. Members may take them: only
 * keys, webhooks and users are the admins'.
 */
export function consoleProcessActionRoutes(ctx: ServiceContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/console/api/process/cancel',
      access: 'console',
      permission: 'processes.write',
      tag,
      summary: 'Cancel a process in signature, as POST /document/cancel does, with a reason',
      body: cancelBody,
      query: noInput,
      response: { json: Joi.object({ cancelled: Joi.boolean().valid(true).required() }) },
      errors: ['DOCUMENT_NOT_FOUND', 'DOCUMENT_NOT_IN_SIGNATURE', 'USER_NOTFOUND'],
      handler: (input) => cancelFromConsole(ctx, { user: userOf(input), address: input.request.ip, ...input.body }),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/process/remind',
      access: 'console',
      permission: 'processes.write',
      tag,
      summary: 'Remind the participant whose turn it is, as POST /document/reminder does (at most once an hour)',
      description: '`code` is the process code followed by the participant id.',
      body: reminderSchema,
      query: noInput,
      response: { json: Joi.object({ reminded: Joi.boolean().valid(true).required() }) },
      errors: REMINDER_ERRORS,
      handler: (input) => remindFromConsole(ctx, { user: userOf(input), address: input.request.ip, code: input.body.code }),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/process/reactivate',
      access: 'console',
      permission: 'processes.write',
      tag,
      summary: 'Put a rejected or expired process back in signature, as PUT /document/reactivate does',
      body: reactivateBody,
      query: noInput,
      response: { json: reactivateResponse },
      errors: ['USER_NOTFOUND', 'PROCESS_NOT_FOUND', 'PROCESS_NOT_REACTIVABLE'],
      handler: (input) => reactivateFromConsole(ctx, { user: userOf(input), address: input.request.ip, code: input.body.code }),
    }),
    defineRoute({
      method: 'GET',
      url: '/console/api/process/file',
      access: 'console',
      permission: 'processes.read',
      tag,
      summary: "Download a file of one of the organization's processes: a document, its signed PDF or the evidence certificate",
      description:
        "Saved as an attachment, named as the API's download URLs name it. The final files show phones and ID numbers by their last four characters only, as they do to everyone, so any console user may download them. Another organization's process answers 404 DOCUMENT_NOT_FOUND, as an unknown code; a file not made yet 404 FILE_NOT_FOUND.",
      body: noInput,
      query: fileQuery,
      response: { raw: { mediaTypes: ['application/pdf', 'text/html'], description: 'the file' } },
      errors: [['DOCUMENT_NOT_FOUND', 404], 'FILE_NOT_FOUND'],
      handler: async ({ query, organizationId, reply }) => {
        const { body, headers } = await readProcessFile(ctx, { organizationId, ...query });
        return reply.headers(headers).send(body);
      },
    }),
  ];
}
