import Joi from 'joi';
import type { ServiceContext } from '../context.js';
import { processCode } from '../documents/schemas.js';
import { fail } from '../domain-error.js';
import { contentTypeOf } from '../files/blob-store.js';
import { fileNameOf } from '../files/download-headers.js';
import { isValidBlobKey } from '../files/local-blob-store.js';
import type { UrlSigner } from '../files/url-signer.js';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import { verifaceCodeQuery } from '../veriface/schemas.js';
import { deleteProcessPhotosOnRequest, deleteVerifacePhotosOnRequest } from './deletion/delete-photos.js';
import { PHOTOS_ROUTE_PREFIX } from './photo-vault.js';

/** The signer judges these, whatever their shape: a URL altered in any way is a 403, not a 400. */
const signedQuery = Joi.object<{ expires?: unknown; signature?: unknown }>({ expires: Joi.any(), signature: Joi.any() }).unknown(true);

const photosDeleted = Joi.object({
  code: Joi.string().required().description('the process or face-validation code').example('TR99AQMY31'),
  deleted: Joi.number().integer().min(0).required().description('photos deleted by this call (earlier attempts included)').example(3),
});

/**
 * The photo URLs GET /veriface and GET /document show, on either blob store: the store holds
 * ciphertext, so a presigned store URL would serve nothing usable; this route checks the
 * service's own signature and serves the decrypted image, never to be cached. Beside it, the two
 * calls that delete a process's photos on request.
 */
export function photoRoutes(ctx: ServiceContext & { signer: UrlSigner }): ApiRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/photos/*',
      access: 'signed-url',
      tag: 'files',
      summary: 'An identity photo, from a URL shown by GET /veriface or GET /document (5 minutes)',
      description: 'Presigned by the API: the URL carries its expiry and signature; no Authorization header. Answers the decrypted image.',
      body: noInput,
      query: signedQuery,
      response: { raw: { mediaTypes: ['image/jpeg', 'image/png'], description: 'the decrypted photo' } },
      errors: ['URL_EXPIRED', 'URL_SIGNATURE_INVALID', 'FILE_NOT_FOUND', 'PHOTO_UNREADABLE'],
      handler: async ({ request, query, reply }) => {
        const pathname = request.url.split('?')[0] ?? '';
        const key = pathname.slice(PHOTOS_ROUTE_PREFIX.length);
        const check = isValidBlobKey(key) ? ctx.signer.check('GET', pathname, query) : 'invalid';
        if (check === 'invalid') throw fail('URL_SIGNATURE_INVALID');
        if (check === 'expired') throw fail('URL_EXPIRED');
        const image = await ctx.photos.read(key);
        if (!image) throw fail('FILE_NOT_FOUND');
        return reply
          .headers({
            'content-type': contentTypeOf(key),
            'cache-control': 'private, no-store',
            'x-content-type-options': 'nosniff',
            'content-disposition': `inline; filename="${fileNameOf(key)}"`,
          })
          .send(image);
      },
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v1.5/ext/document/photos',
      access: 'private-key',
      tag: 'signing processes',
      summary: "Delete the participants' identity photos of an ended process, now",
      description:
        'Every photo of the process, earlier attempts included; written in the audit trail (PHOTOS_DELETED, "on request") and sent as document.photos_deleted.',
      body: noInput,
      query: Joi.object<{ code: string }, true>({ code: processCode.required() }),
      response: { json: photosDeleted },
      errors: ['DOCUMENT_NOT_FOUND', 'PHOTOS_IN_USE'],
      handler: ({ query, organizationId }) => deleteProcessPhotosOnRequest(ctx, { organizationId, code: query.code }),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v1.5/ext/veriface/photos',
      access: 'private-key',
      tag: 'face validation',
      summary: 'Delete the photos of a face validation no longer in progress, now',
      description: 'Written as the stage photos_deleted ("on request") and sent as veriface.photos_deleted.',
      body: noInput,
      query: verifaceCodeQuery,
      response: { json: photosDeleted },
      errors: ['VERIFACE_NOT_FOUND', 'PHOTOS_IN_USE'],
      handler: ({ query, organizationId }) => deleteVerifacePhotosOnRequest(ctx, { organizationId, code: query.code }),
    }),
  ];
}
