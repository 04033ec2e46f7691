import Joi from 'joi';
import type { ServiceContext } from '../../context.js';
import { instantAnswer } from '../../fields/instant.js';
import { type ApiRoute, defineRoute, noInput } from '../../http/route.js';
import { MAX_RECORDS, readParticipantRecords } from './read-records.js';

const recordsQuery = Joi.object<{ userId: string }, true>({
  userId: Joi.string()
    .trim()
    .max(64)
    .pattern(/^[A-Za-z0-9]+$/)
    .required()
    .description("the participant's id, as the process lists it (signProfile[].id)")
    .example('Q7M2XK9PA3LD8RWE'),
});

const record = Joi.object({
  direction: Joi.string().valid('in', 'out').required().description('in: the person wrote; out: the service sent').example('out'),
  kind: Joi.string().required().description('out: text, buttons, document, template; in: text, button, image, document, unsupported').example('template'),
  purpose: Joi.string().description('why it was sent: invitation, reminder, code, link, step, document, outcome, help').example('invitation'),
  createdAt: instantAnswer.required(),
  status: Joi.string()
    .valid('queued', 'sent', 'delivered', 'read', 'failed', 'received', 'handled')
    .required()
    .description('out: queued, sent, delivered, read or failed as Meta reports it; in: received, then handled (or failed)')
    .example('delivered'),
  statusAt: instantAnswer.required(),
  error: Joi.string().description("of a message sent that failed: WhatsApp's reason").example('Re-engagement message'),
});

const recordsResponse = Joi.object({
  userId: Joi.string().required().example('Q7M2XK9PA3LD8RWE'),
  messages: Joi.array().items(record).max(MAX_RECORDS).required(),
});

export function whatsAppRecordRoutes(ctx: ServiceContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1.5/ext/whatsapp/records',
      // A person's conversation, even without its words, is theirs and the integrator's only.
      access: 'private-key',
      tag: 'whatsapp',
      summary: "A participant's WhatsApp messages and their delivery, oldest first",
      description:
        `Each message the service sent the participant and each they sent: direction, kind, purpose, time, status and the time of the status. ` +
        `Never a message's text, a code, a photo or a media id. At most ${MAX_RECORDS} messages.`,
      body: noInput,
      query: recordsQuery,
      response: { json: recordsResponse },
      errors: ['PARTICIPANT_NOT_FOUND'],
      handler: ({ query, organizationId }) => readParticipantRecords(ctx, { organizationId, userId: query.userId }),
    }),
  ];
}
