import Joi from 'joi';
import { UNREAD_REASONS } from '../veriface/document/number-check.js';
import { NUMBER_SOURCES } from '../veriface/document/read-number.js';

/** What was read on a document, in docs/real-service.md §8.3's names; only what was found is present. */
export const documentDataSchema = Joi.object({
  documentNumber: Joi.string().example('1001001010'),
  personalNumber: Joi.string(),
  surname: Joi.string().example('PEREZ GOMEZ'),
  givenNames: Joi.string().example('ANA LUCIA'),
  fullName: Joi.string().example('ANA LUCIA PEREZ GOMEZ'),
  dateOfBirth: Joi.string().example('1985-03-09'),
  dateOfExpiry: Joi.string(),
  sex: Joi.string().example('F'),
  bloodGroup: Joi.string().example('O+'),
  nationalityCode: Joi.string(),
  issuingStateCode: Joi.string(),
});

/** docs/real-service.md §8.2's ocrData, as far as this service reads it. */
export const ocrDataSchema = Joi.object({
  fullName: Joi.string().example('ANA LUCIA PEREZ GOMEZ'),
  givenNames: Joi.string().example('ANA LUCIA'),
  surname: Joi.string().example('PEREZ GOMEZ'),
  documentNumber: Joi.string().example('1001001010'),
  dateOfBirth: Joi.string().example('1985-03-09'),
  sex: Joi.string().example('F'),
  bloodGroup: Joi.string().example('O+'),
}).description('what was read on the identity document, once anything was; only the fields read');

export const numberCheckSchema = Joi.alternatives()
  .try(
    Joi.object({
      result: Joi.string().valid('MATCH', 'MISMATCH').required(),
      readFrom: Joi.string()
        .valid(...NUMBER_SOURCES)
        .required(),
      number: Joi.string().required().description('the number read, letters and digits only, leading zeros dropped'),
    }),
    Joi.object({
      result: Joi.string().valid('UNREAD').required(),
      reason: Joi.string()
        .valid(...UNREAD_REASONS)
        .required(),
    }),
  )
  .description('how the number read on the document compared with the declared identification')
  .example({ result: 'MATCH', readFrom: 'PDF417', number: '1001001010' });

const sha256 = Joi.string().hex().length(64);
const photoUrl = Joi.string().uri().description('a URL of 5 minutes, until the photos are deleted');

export const attemptSchema = Joi.object({
  identificationCardFront: photoUrl,
  identificationCardBack: photoUrl,
  photo: photoUrl,
  date: Joi.string().isoDate().required(),
  successful: Joi.boolean().required().example(true),
  similarity: Joi.number().min(0).max(100).description('0 to 100, when the faces were compared').example(91.31),
  liveness: Joi.number()
    .min(0)
    .max(1)
    .description("the face photo's liveness score, 0 to 1, when the faces were compared; below LIVENESS_THRESHOLD a match goes to review (LIVENESS_SUSPECT)")
    .example(0.98),
  identificationCardData: documentDataSchema.required(),
  numberCheck: numberCheckSchema.required(),
  errorMessages: Joi.array()
    .items(
      Joi.object({
        key: Joi.string().valid('ID_FRONT', 'ID_BACK', 'PHOTO', 'ID_NUMBER').required(),
        error: Joi.string().required(),
      }),
    )
    .required()
    .example([{ key: 'ID_NUMBER', error: 'DOCUMENT_NUMBER_UNREADABLE' }]),
  photoSha256: Joi.object({ identificationCardFront: sha256, identificationCardBack: sha256, photo: sha256 }).required(),
});

export const attemptsSchema = Joi.array().items(attemptSchema).description('every identity check, oldest first');

export const identityHashSchema = Joi.string()
  .hex()
  .length(64)
  .description('the integrity code of the finished validation: SHA-256 of its canonical JSON (docs/api.md, "The hash")')
  .example('5f0c6b0d8f2f3c1a9e4b7d6a2c1e0f9b8a7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b');
