import Joi from 'joi';
import { answersJoi, processCode } from '../documents/schemas.js';
import { instantAnswer } from '../fields/instant.js';
import { QUESTION_TYPES } from '../templates/question-types.js';
import type { FillCheckInput, FillConfirmInput, FillResendInput, FillSubmitInput } from './contract.js';

/** Answers to `image` questions are data URIs of up to 8 MiB, as /document/save takes them. */
export const FILL_BODY_LIMIT = 10 * 1024 * 1024;

const submissionKey = Joi.string()
  .pattern(/^[A-Za-z0-9_-]{16,64}$/)
  .example('0b8f3c2e6a1d4f0e9c7b2d5e8a1f4c3b');

export const fillCheckSchema = Joi.object<FillCheckInput, true>({
  data: answersJoi.required().description("the answers so far, {key: question name, value}, as /document/save's `data`"),
});

export const fillSubmitSchema = Joi.object<FillSubmitInput, true>({
  data: answersJoi.required().description("the answers, {key: question name, value}, as /document/save's `data`"),
  idempotencyKey: submissionKey.required().description('made by the page for this submission: the same key answers the same process'),
});

export const fillResendSchema = Joi.object<FillResendInput, true>({
  idempotencyKey: submissionKey.required().description('the key the submission was sent with'),
});

export const fillConfirmSchema = Joi.object<FillConfirmInput, true>({
  idempotencyKey: submissionKey.required().description('the key the submission was sent with'),
  code: Joi.string()
    .trim()
    .pattern(/^\d{6}$/)
    .required()
    .messages({ 'string.pattern.base': '{{#label}} must be the 6 digits of the code' })
    .description("the code sent to the submitter's own address")
    .example('482913'),
});

const option = Joi.object({ value: Joi.string().required(), label: Joi.string().required() });

const question = Joi.object({
  name: Joi.string().required().example('buyer_email'),
  type: Joi.string()
    .valid(...QUESTION_TYPES)
    .required()
    .example('email'),
  description: Joi.string().required().example('Your e-mail'),
  help: Joi.string(),
  required: Joi.boolean().required(),
  value: Joi.string(),
  options: Joi.array().items(option),
  values: Joi.array().items(Joi.string()),
  prereq: Joi.array().items(Joi.object({ k: Joi.string().required(), v: Joi.string().required() })),
  prereqOptionals: Joi.array().items(Joi.string()),
  country: Joi.string(),
  allow: Joi.array().items(Joi.string().valid('draw', 'font')),
  maxlength: Joi.number().integer(),
  endpoint: Joi.string().uri(),
});

export const fillFormResponse = Joi.object({
  template: Joi.object({ name: Joi.string().required().example('Purchase agreement'), description: Joi.string() }).required(),
  organization: Joi.string().allow('').required().example('Acme'),
  questions: Joi.array().items(question).required(),
  prefilled: Joi.array()
    .items(Joi.object({ name: Joi.string().required(), value: Joi.string().allow('').required(), locked: Joi.boolean().required() }))
    .required(),
  signNow: Joi.boolean().required(),
  signatureQuestion: Joi.string().description('with sign now, the signature question the person signs in the form (applied on their signing page)'),
  expiresAt: instantAnswer,
  preview: Joi.boolean().required().description('the template has a Mask HTML (GET /people/fill/preview)'),
}).example({
  template: { name: 'Purchase agreement', description: 'Sale of goods' },
  organization: 'Acme',
  questions: [
    { name: 'buyer_email', type: 'email', description: 'Your e-mail', help: 'We send you a copy.', required: true },
    {
      name: 'payment',
      type: 'clausula',
      description: 'Payment',
      required: false,
      value: 'cash',
      options: [
        { value: 'cash', label: 'Cash' },
        { value: 'instalments', label: 'Instalments' },
      ],
    },
  ],
  prefilled: [],
  signNow: true,
  preview: true,
});

export const fillPreviewResponse = Joi.object({
  html: Joi.string()
    .allow('', null)
    .required()
    .description('the Mask HTML without the styles written in its markup; the page shows it in a frame where no script runs')
    .example('<html><head></head><body><p data-preview-style="0">Sold to <span name="buyer_name">the buyer</span>.</p></body></html>'),
  sheets: Joi.array().items(Joi.string().allow('')).required().description('the text of its `<style>` elements, in order').example(['p { margin: 0 }']),
  inline: Joi.array()
    .items(Joi.string().allow(''))
    .required()
    .description('the inline style of each element marked `data-preview-style`, by the index the mark gives')
    .example(['font-weight: bold']),
});

export const fillCheckedResponse = Joi.object({
  errors: Joi.array()
    .items(
      Joi.object({
        name: Joi.string().allow(null).required().example('buyer_email'),
        message: Joi.string().required().example('"buyer_email" must be a valid email'),
        reason: Joi.string().required().example('email'),
      }),
    )
    .required()
    .description('every refused answer with its question, in /document/save words; empty when the answers would be taken'),
});

export const fillSubmittedResponse = Joi.object({
  code: processCode.required(),
  signingUrl: Joi.string().uri().description('with sign now, once the submitter confirmed: the signing page of the person who filled the form'),
  confirmation: Joi.object({
    medium: Joi.string().valid('email', 'phone').required().example('email'),
    to: Joi.string().required().description('the address the code went to, as the submitter typed it').example('ana@buyer.example'),
    expiresAt: instantAnswer.required().description('after it the process expires, having sent nothing to anyone else'),
  }).description("while the submitter's code is awaited (POST /people/fill/confirm): nobody else is told of the process"),
});
