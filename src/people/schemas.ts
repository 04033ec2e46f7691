import Joi from 'joi';
import { REJECT_REASON_MAX_LENGTH } from '../documents/participant/signer-flow.js';
import { LEGACY_PARTICIPANT_ID_LENGTH, PARTICIPANT_ID_LENGTH, PROCESS_CODE_LENGTH } from '../documents/schemas.js';
import { IMAGE_MAX_BYTES } from '../veriface/images.js';
import { VERIFACE_CODE_LENGTH } from '../veriface/schemas.js';
import type { EmbedInput, FinishInput, OtpCheckInput, PhotoInput, RejectInput, SendLinkInput, SignInput } from './contract.js';
import type { SdkTokenInput } from './sdk-token.js';

/** An image as base64 in JSON: the pages send photos already scaled down, far below the limit. */
const IMAGE_BASE64_MAX = Math.ceil(IMAGE_MAX_BYTES / 3) * 4;
export const PHOTO_BODY_LIMIT = IMAGE_BASE64_MAX + 4096;
/** A signature image: a few kilobytes of PNG; 512 KB is far beyond any drawn one. */
const SIGNATURE_BASE64_MAX = Math.ceil((512 * 1024) / 3) * 4;

const image = Joi.string().max(IMAGE_BASE64_MAX).base64();

export const photoSchema = Joi.object<PhotoInput, true>({
  kind: Joi.string().valid('face', 'documentFront', 'documentBack').required(),
  image: image.required(),
});

export const otpCheckSchema = Joi.object<OtpCheckInput, true>({
  code: Joi.string()
    .trim()
    .pattern(/^\d{6}$/)
    .required()
    .messages({ 'string.pattern.base': '{{#label}} must be the 6 digits of the code' }),
});

/** Signing and approving need the participant's consent to do it electronically, shown on the page. */
export const finishSchema = Joi.object<FinishInput, true>({
  consent: Joi.boolean().valid(true).required().messages({ 'any.only': '{{#label}} must be true: accept to sign electronically' }),
});

export const signSchema = Joi.object<SignInput, true>({
  consent: Joi.boolean().valid(true).required().messages({ 'any.only': '{{#label}} must be true: accept to sign electronically' }),
  signature: Joi.string().max(SIGNATURE_BASE64_MAX).base64(),
});

export const rejectSchema = Joi.object<RejectInput, true>({
  reason: Joi.string().trim().min(1).max(REJECT_REASON_MAX_LENGTH).required(),
});

export const sendLinkSchema = Joi.object<SendLinkInput, true>({
  channel: Joi.string().valid('sms', 'whatsapp').required(),
});

/** The SDK's `document`: a face-validation code, or a process code and a participant id (16 characters, or 2 before). */
const DOCUMENT_LENGTHS = [VERIFACE_CODE_LENGTH, PROCESS_CODE_LENGTH + LEGACY_PARTICIPANT_ID_LENGTH, PROCESS_CODE_LENGTH + PARTICIPANT_ID_LENGTH].map(
  (length) => `[A-Z0-9]{${length}}`,
);
const embedDocument = Joi.string()
  .pattern(new RegExp(`^(?:${DOCUMENT_LENGTHS.join('|')})$`))
  .messages({ 'string.pattern.base': '{{#label}} must be a face-validation code, or a process code followed by a participant id' });

/** What POST /sdk/token answers: `sdt_` and 24 random bytes in base64url. */
const SDK_TOKEN_PATTERN = /^sdt_[A-Za-z0-9_-]{32}$/;

export const embedSchema = Joi.object<EmbedInput, true>({
  keyPublic: Joi.string().max(64).required(),
  document: embedDocument.required(),
  parentOrigin: Joi.string().max(300).required(),
  token: Joi.string().pattern(SDK_TOKEN_PATTERN).messages({ 'string.pattern.base': '{{#label}} must be a token answered by POST /sdk/token' }),
});

export const sdkTokenResponse = Joi.object({
  token: Joi.string().pattern(SDK_TOKEN_PATTERN).required().description("for the SDK: what the page's onSDKToken answers"),
  expiresAt: Joi.string().isoDate().required().description('ten minutes after it was minted'),
});

export const sdkTokenSchema = Joi.object<SdkTokenInput, true>({
  document: embedDocument.required(),
  origin: Joi.string().max(300).required().description('the origin (scheme, host and port) of the page that embeds the frame'),
});
