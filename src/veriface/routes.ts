import type { ServiceContext } from '../context.js';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import { checkDocument } from './check-document.js';
import { createVeriface } from './create-veriface.js';
import type { DocumentReader } from './document/document-reader.js';
import type { FaceMatcher } from './face-matcher.js';
import { IMAGE_MAX_BYTES } from './images.js';
import { readPublicVeriface, readVeriface } from './read-veriface.js';
import { reviewVeriface } from './review-veriface.js';
import {
  checkDocumentResponse,
  checkDocumentSchema,
  createdVerifaceResponse,
  createVerifaceSchema,
  readVerifaceResponse,
  reviewedVerifaceResponse,
  reviewVerifaceSchema,
  validateFacesResponse,
  validateFacesSchema,
  verifaceCodeQuery,
} from './schemas.js';
import { validateFaces } from './validate-faces.js';

const tag = 'face validation';

export function verifaceRoutes(ctx: ServiceContext & { faceMatcher: FaceMatcher; documentReader: DocumentReader }): ApiRoute[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/veriface',
      access: 'private-key',
      tag,
      summary: 'Create a face-validation process',
      description:
        'Answers {code}. The person is notified by WhatsApp (platform whatsapp), or by e-mail to userEmail on web when the organization has the SDK integration; otherwise the answer also carries url, the link to deliver.',
      body: createVerifaceSchema,
      query: noInput,
      response: { json: createdVerifaceResponse },
      errors: ['EXPIRED_DATE_INVALID', 'USER_NOTFOUND', 'WEBHOOK_NOT_FOUND'],
      handler: ({ body, organizationId }) => createVeriface(ctx, { organizationId, input: body }),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1.5/ext/veriface',
      access: 'any-key',
      publicKey:
        'code, platform, status, name, expiredDate, similarity, reason, stages [{stage, at}], createdAt, updatedAt. No identification number or type, phone, e-mails, photos, `custom`, stage details, ocrData, attempts or hash.',
      tag,
      summary: 'Read a face-validation process with its stages, what was read on the document and every attempt',
      description:
        'With the private key: ocrData (what was read on the document, once anything was), attempts (each identity check: its photos as 5-minute URLs, similarity, identificationCardData, numberCheck, successful, errorMessages, photoSha256) and, once the validation is over (APPROVED, VALIDATED, INVALIDATED, EXPIRED), hash: the SHA-256 of its canonical JSON (docs/api.md, "The hash").',
      body: noInput,
      query: verifaceCodeQuery,
      response: { json: readVerifaceResponse },
      errors: ['VERIFACE_NOT_FOUND'],
      handler: ({ query, organizationId, keyKind }) =>
        keyKind === 'private' ? readVeriface(ctx, { organizationId, code: query.code }) : readPublicVeriface(ctx, { organizationId, code: query.code }),
    }),
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/veriface/review',
      access: 'private-key',
      tag,
      summary: 'Decide a BLOCKED face validation by hand: approve (VALIDATED) or reject (INVALIDATED)',
      description:
        'By a registered user of the organization, shown as emailValidated in GET /veriface; sends the veriface.validated or veriface.invalidated webhook. Answers {code, status, emailValidated}.',
      body: reviewVerifaceSchema,
      query: noInput,
      response: { json: reviewedVerifaceResponse },
      errors: ['VERIFACE_NOT_FOUND', 'VERIFACE_NOT_BLOCKED', 'USER_NOTFOUND'],
      handler: ({ body, organizationId }) => reviewVeriface(ctx, { organizationId, input: body }),
    }),
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/veriface/validate',
      access: 'private-key',
      tag,
      summary: 'Compare a face photo with the photo of an identity document, at once',
      description:
        'Answers {error, message, similarity, liveness, code, identificationCard: {error, message, isFront, data, numberCheck}}: error is true with message DOCUMENT_NUMBER_MISMATCH when the number read on the document (PDF417 barcode, machine-readable zone, or printed text as the declared document prints its number) is not identification (identificationCard.error and .message say it too), with FACE_MISMATCH below FACE_MATCH_THRESHOLD, with LIVENESS_SUSPECT when the faces match but the liveness score of the face photo (in liveness, 0 to 1) is below LIVENESS_THRESHOLD (a printed or on-screen face, perhaps: a person should look before it is accepted), or with the reason a photo could not be used (similarity then absent). isFront says the document shows a portrait; data holds what was read; numberCheck says how the number compared (MATCH, MISMATCH, or UNREAD with its reason: a number that cannot be read fails nothing). No forgery check is made. Nothing is stored.',
      body: validateFacesSchema,
      query: noInput,
      response: { json: validateFacesResponse },
      errors: [
        'IMAGE_EMPTY',
        'IMAGE_TOO_LARGE',
        'IMAGE_NOT_JPEG_OR_PNG',
        'FACE_MATCHING_DISABLED',
        'FACE_COMPARISON_UNDER_WAY',
        'FACE_MATCHER_BUSY',
        'FACE_MATCHER_FAILED',
      ],
      // Two photos in base64, and room for the other fields.
      bodyLimit: Math.ceil((IMAGE_MAX_BYTES * 4) / 3) * 2 + 64 * 1024,
      handler: ({ body, organizationId }) => validateFaces(ctx, { organizationId, input: body }),
    }),
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/veriface/check',
      access: 'private-key',
      tag,
      summary: 'Check one side of an identity document: image quality, a portrait, and its number read and compared with identification',
      description:
        "Answers {code, error, message, isFront, data, checks, notChecked}. The checks made on this machine: the image is decodable, large enough and not blurred; a portrait is on it (the face matcher's document step; not made when FACE_MATCHER=manual); the number is read from the PDF417 barcode of the older Colombian cédula, else from a machine-readable zone (passports, the new cédula's back), else from the printed text by OCR, and compared with identification (separators dropped). data holds what was read. error is true with message IMAGE_TOO_SMALL, IMAGE_BLURRY, DOCUMENT_NO_FACE (or FACE_TOO_SMALL, FACE_BLURRY for the portrait), DOCUMENT_NUMBER_UNREADABLE or DOCUMENT_NUMBER_MISMATCH. No forgery or liveness check is made (notChecked says so). Nothing is stored.",
      body: checkDocumentSchema,
      query: noInput,
      response: { json: checkDocumentResponse },
      errors: [
        'IMAGE_EMPTY',
        'IMAGE_TOO_LARGE',
        'IMAGE_NOT_JPEG_OR_PNG',
        'IMAGE_UNREADABLE',
        'FACE_COMPARISON_UNDER_WAY',
        'FACE_MATCHER_BUSY',
        'FACE_MATCHER_FAILED',
        'DOCUMENT_READER_FAILED',
      ],
      bodyLimit: Math.ceil((IMAGE_MAX_BYTES * 4) / 3) + 64 * 1024,
      handler: ({ body, organizationId }) => checkDocument(ctx, { organizationId, input: body }),
    }),
  ];
}
