import Joi from 'joi';
import type { ProcessStatus } from '../db/schema.js';
import { PROCESS_STATUSES, processCode, processResponse, roadmapResponse } from '../documents/schemas.js';
import { instantAnswer, instantJoi } from '../fields/instant.js';
import { languageJoi } from '../organizations/language-joi.js';
import type { Language } from '../organizations/languages.js';
import { USER_ROLES } from '../organizations/user-roles.js';
import { templateId } from '../templates/schemas.js';
import { CONSOLE_ACTIONS } from './audit-contract.js';

const email = Joi.string().trim().email({ tlds: false }).max(254).example('ana@acme.example');

export const signInBody = Joi.object<{ email: string }, true>({ email: email.required() });

export const linkBody = Joi.object<{ token: string }, true>({
  token: Joi.string()
    .max(100)
    .required()
    .description("the token after #sign-in= in the e-mailed link's address")
    .example('q3Jx0m8Qe6x9bW1vYt5rKc2nLd7fGh4sZa0pVu3yXoE'),
});

export const codeBody = Joi.object<{ email: string; code: string }, true>({
  email: email.required(),
  code: Joi.string().trim().max(20).required().description('the six digits of the e-mail').example('482913'),
});

export const sentResponse = Joi.object({
  sent: Joi.boolean().valid(true).required().description('the same answer whether or not the e-mail belongs to a user'),
});

export const signedInResponse = Joi.object({
  email: Joi.string().required().example('ana@acme.example'),
  role: Joi.string()
    .valid(...USER_ROLES)
    .required()
    .description(
      "admin: everything; reviewer: what a sender does, and identity data (photos, ID numbers, phones) and the review queue; sender: the organization's processes and templates, which they remind, cancel, reactivate and make; viewer: reads them only",
    )
    .example('admin'),
  organization: Joi.object({
    id: Joi.string().hex().length(24).required().example('65f1c0e2a4b5c6d7e8f90001'),
    name: Joi.string().required().example('Acme'),
  }).required(),
  secondFactor: Joi.string()
    .valid('totp')
    .description("present when the session waits for the user's TOTP code (POST /console/api/sign-in/totp) and opens nothing until then"),
});

export const signedOutResponse = Joi.object({ signedOut: Joi.boolean().valid(true).required() });

export interface ProcessSearchQuery {
  q?: string;
  status?: ProcessStatus;
  template?: string;
  from?: Date;
  to?: Date;
  limit: number;
  cursor?: string;
}

export const processSearchQuery = Joi.object<ProcessSearchQuery, true>({
  q: Joi.string()
    .trim()
    .max(200)
    .allow('')
    .description("a word of the process's name, of a participant's name or e-mail (any case), or the process's code")
    .example('juan@people.example'),
  status: Joi.string().valid(...PROCESS_STATUSES),
  template: templateId.description('only processes with a document made from this template'),
  from: instantJoi.description('created at or after this instant').example('2026-11-01T05:00:00.000Z'),
  to: instantJoi.description('created before this instant').example('2026-12-01T05:00:00.000Z'),
  limit: Joi.number().integer().min(1).max(100).default(25),
  cursor: Joi.string().max(200).description('the `next` of the previous page'),
});

export const processQuery = Joi.object<{ code: string }, true>({ code: processCode.required() });

export const processDetailResponse = Joi.object({
  process: processResponse.required().description('as GET /v1.5/ext/document?code= answers the private key, without photos'),
  roadmap: roadmapResponse.required().description('as GET /v1.5/ext/document/roadmap answers it: the timeline'),
});

export const templatesQuery = Joi.object<{ limit: number; cursor?: string }, true>({
  limit: Joi.number().integer().min(1).max(500).default(100),
  cursor: Joi.string().max(200),
});

export const auditQuery = Joi.object<{ limit: number; cursor?: string }, true>({
  limit: Joi.number().integer().min(1).max(200).default(50),
  cursor: Joi.string().max(200),
});

export const auditResponse = Joi.object({
  data: Joi.array()
    .items(
      Joi.object({
        id: Joi.string().hex().length(24).required(),
        at: instantAnswer.required(),
        action: Joi.string()
          .valid(...CONSOLE_ACTIONS)
          .required()
          .example('SIGN_IN'),
        email: Joi.string().required().example('ana@acme.example'),
        address: Joi.string().example('203.0.113.24'),
        detail: Joi.object().unknown(true).example({ method: 'link' }),
      }),
    )
    .required(),
  next: Joi.string().allow(null).required().description('cursor of the next page, null on the last').example(null),
});

/** PUT /console/api/me/language: the user's console language, or null to follow the organization's. */
export const languageChoiceBody = Joi.object<{ language: Language | null }, true>({
  language: languageJoi.allow(null).required().description("es, en, pt or fr; null: the organization's language"),
});

export const consoleLanguageResponse = Joi.object({
  language: languageJoi.required().description("the console's language for this user: their choice, else the organization's"),
  chosen: Joi.boolean().required().description("whether the user chose it (false: it is the organization's)").example(true),
  timeZone: Joi.string().required().description("the organization's IANA time zone, in which the console shows every time").example('America/Bogota'),
});
