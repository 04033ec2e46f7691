import Joi from 'joi';
import { instantAnswer } from '../../fields/instant.js';
import type { ReviewKind, ReviewPhoto } from './contract.js';
import type { ReviewDecisionInput } from './decide.js';

const kind = Joi.string()
  .valid('signer', 'validation')
  .required()
  .description('a blocked signer of a process, or a blocked face validation')
  .example('validation');
const code = Joi.string()
  .pattern(/^[A-Z0-9]{10,26}$/)
  .messages({ 'string.pattern.base': '{{#label}} must be 10 to 26 uppercase letters and digits' })
  .required()
  .description("a validation's code, or a signer's process code followed by their participant id, as the queue answers it")
  .example('VF7K2D9QX0PLM4WZ');
const photo = Joi.string().valid('documentFront', 'documentBack', 'face');

export const reviewPhotoQuery = Joi.object<{ kind: ReviewKind; code: string; photo: ReviewPhoto }, true>({
  kind,
  code,
  photo: photo.required().example('face'),
});

export const reviewDecisionBody = Joi.object<ReviewDecisionInput, true>({
  kind,
  code,
  decision: Joi.string()
    .when('kind', { is: 'validation', then: Joi.valid('approve', 'reject'), otherwise: Joi.valid('approve', 'reject', 'reset') })
    .required()
    .description('approve or reject; reset (a signer only) clears their attempts so the steps start again')
    .example('approve'),
  reason: Joi.string()
    .trim()
    .min(1)
    .max(1000)
    .required()
    .description("why, kept in the console's audit log with who decided")
    .example('Checked the ID in person'),
});

export const reviewDecidedResponse = Joi.object({ decided: Joi.boolean().valid(true).required() });

const attempt = Joi.object({
  date: instantAnswer.required(),
  successful: Joi.boolean().required().example(false),
  similarity: Joi.number().min(0).max(100).example(62),
  reasons: Joi.array().items(Joi.string()).required().example(['FACE_MISMATCH']),
});

export const reviewQueueResponse = Joi.object({
  data: Joi.array()
    .items(
      Joi.object({
        kind: kind.example('validation'),
        code: Joi.string().required().example('VF7K2D9QX0PLM4WZ'),
        name: Joi.string().required().example('Juan Pérez'),
        process: Joi.object({ code: Joi.string().required().example('TR99AQMY31'), name: Joi.string().required().example('Lease agreement') }).description(
          'the signer’s process',
        ),
        blockedAt: instantAnswer.required(),
        reason: Joi.string()
          .required()
          .description('why it waits: FACE_MISMATCH, DOCUMENT_NUMBER_MISMATCH, LIVENESS_SUSPECT, DOCUMENT_FAKE, MANUAL_REVIEW_REQUIRED, OTP_CODE_INVALID')
          .example('LIVENESS_SUSPECT'),
        similarity: Joi.number().min(0).max(100).description('0 to 100, the face against the document’s portrait').example(62),
        band: Joi.string()
          .valid('high', 'borderline', 'low')
          .description('the similarity against FACE_MATCH_THRESHOLD: at or above it, within 15 below, further below')
          .example('high'),
        liveness: Joi.number().min(0).max(1).description('the face photo’s liveness score, 0 to 1').example(0.31),
        numberDeclared: Joi.string().description('the ID number the process declared').example('1020304050'),
        numberRead: Joi.string().description('the number read on the document at the last attempt').example('1020304050'),
        numberCheck: Joi.string().valid('MATCH', 'MISMATCH', 'UNREAD').example('MATCH'),
        failures: Joi.number().integer().min(0).required().description('failed checks so far').example(1),
        attempts: Joi.array().items(attempt).required(),
        photos: Joi.array().items(photo).required().description('the photos GET /console/api/review/photo serves').example(['documentFront', 'face']),
        decisions: Joi.array()
          .items(Joi.string().valid('approve', 'reject', 'reset'))
          .required()
          .example(['approve', 'reject']),
      }),
    )
    .required(),
});
