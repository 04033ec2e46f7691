import Joi from 'joi';
import { type Answer, answersJoi, email, type ProcessFieldsInput, processCode, processFields } from '../documents/schemas.js';
import { instantAnswer } from '../fields/instant.js';
import { templateId } from '../templates/schemas.js';

/** POST /document/prebuild: /document/save's root fields, the answers filled in now, and who completes the rest. */
export interface PrebuildInput extends ProcessFieldsInput {
  document: string;
  preBuild: Answer[];
  sign: boolean;
  emailTo: string;
}

export const prebuildSchema = Joi.object<PrebuildInput, true>({
  ...processFields,
  notification: Joi.boolean()
    .default(true)
    .description('e-mail `emailTo` the link of the form; with false the answer carries it as `url`, for the integrator to deliver (or to use the SDK)'),
  document: templateId.required().description('a template whose preBuild is true'),
  preBuild: answersJoi.required().description("the answers filled in now, {key: question name, value}: only questions of the template's preBuildData"),
  sign: Joi.boolean().valid(true).default(true).description('the electronic signing flow (the only one this service runs)'),
  emailTo: email.required().description("who completes the form: the answer to the template's last preBuildData question, an e-mail question"),
}).example({
  email: 'ana@company.example',
  name: 'Lease, Calle 12',
  document: '65f1c0e2a4b5c6d7e8f90123',
  preBuild: [{ key: 'price', value: '50000' }],
  sign: true,
  notification: true,
  emailTo: 'juan@people.example',
});

export const prebuiltResponse = Joi.object({
  document: processCode.required().description('the code the process will have once the form is completed'),
  url: Joi.string().uri().description("with notification false: the form's link (/f/<token>), for the integrator to deliver"),
});

/** The creation fields a prebuilt process keeps, read back as they were checked. */
export const storedFieldsSchema = Joi.object<ProcessFieldsInput, true>(processFields);

const prebuiltStatus = Joi.string()
  .valid('PREBUILT', 'CANCELLED', 'EXPIRED')
  .description('PREBUILT while it waits for its form; CANCELLED or EXPIRED when it ended before anyone completed it')
  .example('PREBUILT');

/** What either key reads of a prebuilt process before it is completed: no document and no participant yet. */
const prebuiltHead = {
  code: processCode.required(),
  kind: Joi.string().valid('document').required().example('document'),
  name: Joi.string().required().example('Lease, Calle 12'),
  status: prebuiltStatus.required(),
  signFinish: Joi.boolean().valid(false).required(),
  expiredDate: instantAnswer,
  createdAt: instantAnswer.required(),
  updatedAt: instantAnswer.required(),
  documents: Joi.array().length(0).required(),
  signProfile: Joi.array().length(0).required(),
};

export const publicPrebuiltResponse = Joi.object(prebuiltHead);

export const prebuiltProcessResponse = Joi.object({
  ...prebuiltHead,
  email: Joi.string().required().description('who created it').example('ana@company.example'),
  preBuild: Joi.object({
    template: templateId.required(),
    emailTo: Joi.string().required().example('juan@people.example'),
    answers: answersJoi.required().description('the prefilled answers, locked in the form'),
    url: Joi.string().uri().description("the form's link, while it waits"),
  }).required(),
});
