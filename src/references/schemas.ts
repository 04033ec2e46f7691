import Joi from 'joi';
import type { ValidationFieldsInput } from '../documents/identity-validations.js';
import { validationFields } from '../documents/schemas.js';
import { instantAnswer, instantJoi } from '../fields/instant.js';
import { templateId } from '../templates/schemas.js';

/** A leaked link makes at most this many processes an hour, unless its organization says otherwise. */
export const REFERENCE_LINK_HOURLY_CAP_DEFAULT = 20;

/** What a link fixes for the processes made through it: the identity validations, as /document/save's root fields, and the rest. */
export interface ReferenceSettingsInput extends ValidationFieldsInput {
  name?: string;
  /** A registered user of the organization: the creator of the link's processes. */
  email?: string;
  signNow?: boolean;
  /** Null clears it (on a change). */
  expiresAt?: Date | null;
  enabled?: boolean;
  /** Null clears it (on a change). */
  maxUses?: number | null;
  hourlyCap?: number;
}

export interface CreateReferenceInput extends ReferenceSettingsInput {
  template: string;
}

export interface UpdateReferenceInput extends ReferenceSettingsInput {
  id: string;
}

const settingsFields = {
  name: Joi.string().trim().min(1).max(200).example('Website'),
  email: Joi.string()
    .email({ tlds: { allow: false } })
    .max(320)
    .description("the user (of the organization) the link's processes are created by; default: the organization's first user")
    .example('ana@company.example'),
  ...validationFields,
  signNow: Joi.boolean().description('the person who fills the form signs right away: the form takes them to their signing page').example(true),
  enabled: Joi.boolean().description('false: the link answers that it is switched off, and creates nothing').example(true),
  hourlyCap: Joi.number()
    .integer()
    .min(1)
    .max(100_000)
    .description(`processes the link may make in any hour, within the organization's formProcessesPerHour; default ${REFERENCE_LINK_HOURLY_CAP_DEFAULT}`)
    .example(REFERENCE_LINK_HOURLY_CAP_DEFAULT),
};

const maxUses = Joi.number().integer().min(1).max(100_000_000).description('processes the link may ever make; without it, no end');

export const createReferenceSchema = Joi.object<CreateReferenceInput, true>({
  template: templateId.required(),
  ...settingsFields,
  expiresAt: instantJoi.description('after this instant the link answers that it expired'),
  maxUses: maxUses.example(500),
}).example({ template: '65f1c0e2a4b5c6d7e8f90123', name: 'Website', otpCode: true, options: { otpCode: 'email' }, signNow: true });

export const updateReferenceSchema = Joi.object<UpdateReferenceInput, true>({
  id: templateId.required(),
  ...settingsFields,
  expiresAt: instantJoi.allow(null).description('null removes the expiry'),
  maxUses: maxUses.allow(null).description('processes the link may ever make, those it made included; null removes the limit'),
})
  .min(2)
  .messages({ 'object.min': '"value" must change at least one setting' })
  .example({ id: '65f1c0e2a4b5c6d7e8f90124', enabled: false });

export const listReferencesQuery = Joi.object<{ template: string }, true>({ template: templateId.required() });

export const deleteReferenceQuery = Joi.object<{ id: string }, true>({ id: templateId.required() });

export interface ReferenceUsesQuery {
  id: string;
  limit: number;
  cursor?: string;
}

export const referenceUsesQuery = Joi.object<ReferenceUsesQuery, true>({
  id: templateId.required(),
  limit: Joi.number().integer().min(1).max(500).default(100),
  cursor: Joi.string().max(200),
});

const validationOptionsAnswer = Joi.object({
  camera: Joi.string().valid('identification', 'photo'),
  otpCode: Joi.string().valid('phone', 'email'),
  whatsapp: Joi.boolean(),
  both: Joi.boolean(),
  identificationCardBack: Joi.boolean(),
});

export const referenceLinkResponse = Joi.object({
  id: templateId.required(),
  template: templateId.required(),
  name: Joi.string().example('Website'),
  url: Joi.string()
    .uri()
    .required()
    .description('public link where people fill in the questionnaire')
    .example('https://sign.example.com/r/Zq3x0Jb5u1c8kXJv2mH4pQ0aW7yT9sLe'),
  email: Joi.string().description('the creator of its processes, when one was named').example('ana@company.example'),
  camera: Joi.boolean().description("identity validations of its processes' signers, as /document/save's root fields"),
  otpCode: Joi.boolean().example(true),
  options: validationOptionsAnswer.example({ otpCode: 'email' }),
  signNow: Joi.boolean().required().example(true),
  expiresAt: instantAnswer.description('absent when it never expires'),
  enabled: Joi.boolean().required().example(true),
  maxUses: Joi.number().integer().description('absent when it has no end').example(500),
  hourlyCap: Joi.number().integer().required().example(REFERENCE_LINK_HOURLY_CAP_DEFAULT),
  uses: Joi.number().integer().required().description('the processes it made').example(12),
  created_at: instantAnswer.required(),
});

export const referenceListResponse = Joi.object({ data: Joi.array().items(referenceLinkResponse).required() });

export const deletedReferenceResponse = Joi.object({ id: templateId.required(), deleted: Joi.boolean().required().example(true) });

export const referenceUsesResponse = Joi.object({
  data: Joi.array()
    .items(
      Joi.object({
        code: Joi.string().required().description('the process code').example('TR99AQMY31'),
        created_at: instantAnswer.required(),
      }),
    )
    .required()
    .description('the processes made through the link, newest first (never the answers)'),
  next: Joi.string().allow(null).required().description('cursor of the next page, null on the last').example(null),
});
