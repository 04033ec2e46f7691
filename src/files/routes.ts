import Joi from 'joi';
import { fail } from '../domain-error.js';
import { type ApiRoute, defineRoute, noInput, type RouteDefinition } from '../http/route.js';
import { BlobEmptyError, BlobExistsError, type BlobStore, BlobTooLargeError } from './blob-store.js';
import { downloadHeaders } from './download-headers.js';
import { FILES_ROUTE_PREFIX, isValidBlobKey } from './local-blob-store.js';
import type { UploadPolicy } from './upload-policy.js';
import type { UrlSigner } from './url-signer.js';

export interface FilesRoutesOptions {
  store: BlobStore;
  signer: UrlSigner;
  maxBytes: number;
  policies: UploadPolicy[];
}

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The signer judges these, whatever their shape: a URL altered in any way is a 403, not a 400. */
const signedQuery = Joi.object<{ expires?: unknown; files?: unknown; name?: unknown; signature?: unknown }>({
  expires: Joi.any(),
  files: Joi.any(),
  name: Joi.any(),
  signature: Joi.any(),
}).unknown(true);

type SignedQuery = typeof signedQuery extends Joi.ObjectSchema<infer T> ? T : never;
type FileRoute = Omit<RouteDefinition<Record<string, never>, SignedQuery>, 'url' | 'tag' | 'access' | 'description' | 'body' | 'query'>;

const uploadedResponse = Joi.object({
  message: Joi.string().valid('OK').required(),
  size: Joi.number().integer().min(1).required().description('bytes stored').example(48213),
});

const fileDownload = {
  mediaTypes: ['text/html', 'application/pdf', 'image/png', 'image/jpeg', 'application/json'],
  description: 'the file, of the type its name ends with',
};

/**
 * The presigned upload and download URLs of the local store, outside /v1.5/ext: they carry their own
 * signature and expiry instead of an API key.
 */
export function filesRoutes(options: FilesRoutesOptions): ApiRoute[] {
  const { store, signer, maxBytes, policies } = options;

  const fileRoute = (definition: FileRoute) =>
    defineRoute({
      ...definition,
      url: '/files/*',
      tag: 'files',
      access: 'signed-url',
      description: 'Presigned by the API: the URL carries its expiry and signature; no Authorization header.',
      body: noInput,
      query: signedQuery,
    });

  function authorize(method: 'PUT' | 'GET', url: string, query: SignedQuery): string {
    const pathname = url.split('?')[0] ?? '';
    const key = pathname.slice(FILES_ROUTE_PREFIX.length);
    const check = isValidBlobKey(key) ? signer.check(method, pathname, query) : 'invalid';
    if (check === 'invalid') throw fail('URL_SIGNATURE_INVALID');
    if (check === 'expired') throw fail('URL_EXPIRED');
    return key;
  }

  const upload = fileRoute({
    method: 'PUT',
    summary: 'Upload a file to a presigned URL (raw bytes)',
    rawBody: [...new Set(policies.flatMap((policy) => policy.contentTypes))],
    response: { json: uploadedResponse },
    errors: [
      'URL_EXPIRED',
      'URL_SIGNATURE_INVALID',
      ['TEMPLATE_NOT_FOUND', 404],
      ['DOCUMENT_NOT_FOUND', 404],
      'DOCUMENT_ALREADY_UPLOADED',
      'UPLOAD_IN_PROGRESS',
      'FILE_TOO_LARGE',
      'FILE_EMPTY',
      'FILE_NOT_VALID',
      'FILE_WRONG_TYPE',
    ],
    handler: async ({ request, query, reply }) => {
      const key = authorize('PUT', request.url, query);
      const policy = policies.find((p) => p.matches(key));
      if (!policy) throw fail('URL_SIGNATURE_INVALID');
      const contentType = mediaType(request.headers['content-type']);
      if (!policy.contentTypes.includes(contentType)) {
        throw fail('FILE_WRONG_TYPE', `Content-Type must be ${policy.contentTypes.join(' or ')}`);
      }
      const declared = Number(request.headers['content-length'] ?? 0);
      if (declared > maxBytes) throw fail('FILE_TOO_LARGE', `at most ${maxBytes} bytes`);
      await policy.ensureTarget(key);
      let size: number;
      try {
        ({ size } = await store.write(key, request.raw, { contentType, maxBytes, ifAbsent: policy.writeOnce === true }));
      } catch (error) {
        if (error instanceof BlobTooLargeError) throw fail('FILE_TOO_LARGE', `at most ${maxBytes} bytes`);
        if (error instanceof BlobEmptyError) throw fail('FILE_EMPTY');
        if (error instanceof BlobExistsError) {
          // Another upload to this URL finished first: say whether it is already recorded or still being checked.
          await policy.ensureTarget(key);
          throw fail('UPLOAD_IN_PROGRESS', 'another upload to this URL finished first');
        }
        throw error;
      }
      if (!(await policy.claim(key))) {
        await store.delete([key]);
        await policy.ensureTarget(key);
      }
      await policy.stored?.(key);
      return reply.send({ message: 'OK', size });
    },
  });

  const download = fileRoute({
    method: 'GET',
    summary: 'Download a file from a presigned URL',
    response: { raw: fileDownload },
    errors: ['URL_EXPIRED', 'URL_SIGNATURE_INVALID', 'FILE_NOT_FOUND'],
    handler: async ({ request, query, reply }) => {
      const key = authorize('GET', request.url, query);
      const blob = await store.read(key);
      if (!blob) throw fail('FILE_NOT_FOUND');
      // A name the signer accepted is one the service gave.
      const name = typeof query.name === 'string' ? query.name : undefined;
      return reply.headers(downloadHeaders(key, name)).header('content-length', blob.size).send(blob.body);
    },
  });

  return [upload, download];
}
