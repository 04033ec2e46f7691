import Joi from 'joi';
import type { ServiceContext } from '../../context.js';
import { REMINDER_ERRORS } from '../../documents/routes.js';
import { processCode, reactivateResponse, reminderSchema } from '../../documents/schemas.js';
import { type ApiRoute, defineRoute, noInput } from '../../http/route.js';
import { userOf } from '../console-user.js';
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
      tag,
      summary: 'Put a rejected or expired process back in signature, as PUT /document/reactivate does',
      body: reactivateBody,
      query: noInput,
      response: { json: reactivateResponse },
      errors: ['USER_NOTFOUND', 'PROCESS_NOT_FOUND', 'PROCESS_NOT_REACTIVABLE'],
      handler: (input) => reactivateFromConsole(ctx, { user: userOf(input), address: input.request.ip, code: input.body.code }),
    }),
  ];
}
