import type { FastifyReply, FastifyRequest } from 'fastify';
import Joi from 'joi';
import type { ServiceContext } from '../context.js';
import { participantRole, processStatus } from '../documents/schemas.js';
import { DomainError, fail } from '../domain-error.js';
import { instantAnswer } from '../fields/instant.js';
import { errorAnswer } from '../http/errors.js';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import { PADES_LEVELS } from '../pdf-signing/pades-level.js';
import { formFile } from './form-upload.js';
import { type Verification, verifyCode, verifyFile } from './verify-document.js';
import { PAGE_HEADERS, pageLanguage, verifyPage } from './verify-page.js';

/** Room for the multipart framing around a PDF of the largest size accepted. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const MEDIA_TYPES = ['application/pdf', 'multipart/form-data'] as const;

const codeQuery = Joi.object<{ code?: string }, true>({
  code: Joi.string().trim().max(64).allow(''),
});

const publicProcess = Joi.object({
  code: Joi.string().required().example('TR99AQMY31'),
  name: Joi.string().required().example('Lease, Calle 12'),
  status: processStatus.required(),
  createdAt: instantAnswer.required(),
  sealedAt: instantAnswer.required(),
  documents: Joi.array()
    .items(Joi.object({ name: Joi.string().required().example('Lease') }))
    .required(),
  participants: Joi.array()
    .items(
      Joi.object({
        name: Joi.string().required().example('Juan Pérez'),
        role: participantRole.required(),
        signedAt: instantAnswer.allow(null).required(),
      }),
    )
    .required(),
});

const sha256 = Joi.string()
  .hex()
  .length(64)
  .description('SHA-256 of the file sent')
  .example('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08');

const sealReport = Joi.object({
  level: Joi.string()
    .valid(...PADES_LEVELS)
    .required()
    .description('the PAdES level the seal reached: B-B, B-T (timestamped), B-LT (validation data kept in the file), B-LTA (and a document timestamp)'),
  chain: Joi.array()
    .items(Joi.string())
    .required()
    .description("the certificates' common names, from the seal's up to its root")
    .example(['Acme Leases seal', 'Acme Root CA']),
  timestamps: Joi.array()
    .items(
      Joi.object({
        kind: Joi.string().valid('signature', 'document').required().description("over the seal's signature, or over the whole file (B-LTA)"),
        at: instantAnswer.required(),
        authority: Joi.string().required().description("the common name of the timestamp authority's certificate").example('Example TSA'),
      }),
    )
    .required(),
  revocationData: Joi.boolean().required().description("OCSP answers or CRLs for the chain are kept in the file's DSS"),
}).description("what the file's seal signature reached, read from the file");

/** `unchanged`: a final file of this instance; `changed`: names a sealed process but is not one; `found`: the code's process; `unknown`: nothing of this instance. */
const verificationResponse = Joi.alternatives().try(
  Joi.object({
    result: Joi.string().valid('unchanged').required(),
    sha256: sha256.required(),
    file: Joi.string().required().description('which final file it is: <position>.pdf or certificate.pdf').example('0.pdf'),
    process: publicProcess.required(),
    seal: sealReport,
  }),
  Joi.object({ result: Joi.string().valid('changed').required(), sha256: sha256.required(), process: publicProcess.required() }),
  Joi.object({ result: Joi.string().valid('found').required(), process: publicProcess.required() }),
  Joi.object({ result: Joi.string().valid('unknown').required(), sha256 }),
);

const verificationPage = { mediaTypes: ['text/html'], description: 'the verification page with the outcome, to a browser (Accept: text/html)' };

/** A browser asking for a page gets HTML; any other client gets JSON. */
function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

async function readBody(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  if (Number(request.headers['content-length'] ?? 0) > maxBytes) throw fail('VERIFY_FILE_TOO_LARGE', `at most ${maxBytes} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size > maxBytes) throw fail('VERIFY_FILE_TOO_LARGE', `at most ${maxBytes} bytes`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/** The PDF sent: the whole body, or the `file` part of the page's form. */
async function uploadedPdf(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  const contentType = request.headers['content-type'] ?? '';
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!(MEDIA_TYPES as readonly string[]).includes(mediaType)) throw fail('UNSUPPORTED_MEDIA_TYPE', 'send application/pdf or multipart/form-data');
  const body = await readBody(request, maxBytes + (mediaType === 'application/pdf' ? 0 : FORM_OVERHEAD_BYTES));
  const file = mediaType === 'application/pdf' ? body : formFile(body, contentType, 'file');
  if (file === undefined || file.length === 0) throw fail('VERIFY_INPUT_REQUIRED', 'send a PDF');
  if (file.length > maxBytes) throw fail('VERIFY_FILE_TOO_LARGE', `at most ${maxBytes} bytes`);
  return file;
}

/** Answers as the client asked: the page (with the outcome or the refusal), or JSON. */
async function answer(request: FastifyRequest, reply: FastifyReply, work: () => Promise<Verification | undefined>, code?: string): Promise<unknown> {
  if (!wantsHtml(request)) {
    const verification = await work();
    if (verification === undefined) throw fail('VERIFY_INPUT_REQUIRED', 'send a PDF or a code');
    return verification;
  }
  const language = pageLanguage(request.headers['accept-language']);
  reply.headers({ ...PAGE_HEADERS, 'content-language': language, vary: 'Accept, Accept-Language' });
  try {
    const verification = await work();
    return reply.send(verifyPage({ language, ...(code === undefined ? {} : { code }), ...(verification ? { verification } : {}) }));
  } catch (error) {
    const refusal = error instanceof DomainError ? errorAnswer(error) : undefined;
    if (!refusal) throw error;
    return reply.status(refusal.status).send(verifyPage({ language, error: refusal.message }));
  }
}

/**
 * /verify, outside the API prefix and without a key: anyone holding a final document (or its
 * code) checks it is genuine and unchanged. Limited per client address, as it hashes uploads.
 */
export function verificationRoutes(ctx: ServiceContext, options: { rateLimit: { max: number; windowMs: number } }): ApiRoute[] {
  const description =
    'A browser (Accept: text/html) gets the verification page, in Spanish or, by Accept-Language, English; other clients get JSON. ' +
    'Answers only names and dates of a sealed process, never e-mails or phone numbers.';
  return [
    defineRoute({
      method: 'GET',
      url: '/verify',
      access: 'public',
      tag: 'verification',
      summary: 'Look up a final document by its code, or show the verification page',
      description,
      body: noInput,
      query: codeQuery,
      response: { json: verificationResponse, raw: verificationPage },
      rateLimit: options.rateLimit,
      errors: ['VERIFY_INPUT_REQUIRED', 'TOO_MANY_REQUESTS'],
      handler: ({ query, request, reply }) => {
        const code = query.code === undefined || query.code === '' ? undefined : query.code;
        return answer(request, reply, async () => (code === undefined ? undefined : verifyCode(ctx, { code })), code);
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/verify',
      access: 'public',
      tag: 'verification',
      summary: 'Check a PDF: is it a final document of this instance, and unchanged?',
      description: `${description} The body is the PDF (application/pdf) or the page's form (multipart/form-data, field "file").`,
      body: noInput,
      query: noInput,
      rawBody: MEDIA_TYPES,
      response: { json: verificationResponse, raw: verificationPage },
      rateLimit: options.rateLimit,
      errors: ['VERIFY_INPUT_REQUIRED', 'VERIFY_FILE_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'TOO_MANY_REQUESTS'],
      handler: ({ request, reply }) => answer(request, reply, async () => verifyFile(ctx, { bytes: await uploadedPdf(request, ctx.uploadMaxBytes) })),
    }),
  ];
}
