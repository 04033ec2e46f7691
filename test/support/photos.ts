import { expect } from 'vitest';
import { submitPhoto } from '../../src/documents/participant/signer-photos.js';
import { finishVeriface, submitDocumentPhoto, submitFacePhoto } from '../../src/veriface/person-flow.js';
import { verifaceBody } from './fixtures.js';
import { jpeg, matcher, png } from './images.js';
import type { LocalS3 } from './s3.js';
import { S3RVER_CREDENTIALS } from './s3.js';
import { call, type TestOrganization, type TestService } from './service.js';
import { endProcess, pdfProcess } from './signing.js';

export type StoreKind = 'local' | 's3';

/** The environment that puts the test service's files in s3rver instead of the local folder. */
export function storeEnv(kind: StoreKind, s3: LocalS3 | undefined): Record<string, string> {
  if (kind === 'local') return {};
  if (!s3) throw new Error('s3rver is not started');
  return {
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
  };
}

export interface PhotographedVeriface {
  code: string;
  token: string;
  images: { documentFront: Buffer; face: Buffer };
}

/**
 * A face validation of `org` whose person sent the document front and the face; left in progress
 * unless `finish`. `body` adds to or replaces fields of the creation request.
 */
export async function photographedVeriface(
  svc: TestService,
  org: TestOrganization,
  options: { finish?: boolean; body?: Record<string, unknown> } = {},
): Promise<PhotographedVeriface> {
  const body = verifaceBody(org.email, { platform: 'web', ...options.body });
  const created = await call(svc.app, 'POST', '/veriface', { key: org.privateKey, body });
  expect(created.statusCode, created.body).toBe(200);
  const { code } = created.json();
  const row = await svc.deps.db.selectFrom('veriface_processes').select('link_token').where('code', '=', code).executeTakeFirstOrThrow();
  const token = row.link_token;
  const images = { documentFront: jpeg(), face: png() };
  await submitDocumentPhoto(svc.deps, { token, side: 'front', image: images.documentFront });
  await submitFacePhoto(svc.deps, { token, image: images.face });
  // Without an automatic matcher the validation ends BLOCKED, which has ended as far as photos go.
  if (options.finish) await finishVeriface(svc.deps, { token });
  return { code, token, images };
}

export interface PhotographedProcess {
  code: string;
  /** The photos in the order sent: a face refused by the comparison, the document front, the face retaken. */
  images: Buffer[];
}

/**
 * A signing process of `org` whose one signer has the camera validation 'identification': a first
 * face the comparison refuses (kept as that attempt's evidence), the document front, then a
 * retaken face that passes; ended as asked. `body` and `signer` add to or replace fields of the
 * creation request and of its signer.
 */
export async function photographedProcess(
  svc: TestService,
  org: TestOrganization,
  options: { end?: 'FINISH' | 'CANCELLED'; body?: Record<string, unknown>; signer?: Record<string, unknown> } = {},
): Promise<PhotographedProcess> {
  const signer = {
    name: 'Ana Gómez',
    email: 'ana@people.test',
    identification: '1001001010',
    identificationType: 'CC',
    country: 'CO',
    camera: true,
    options: { camera: 'identification' },
    ...options.signer,
  };
  const body = pdfProcess(org, { signProfile: [signer], ...options.body });
  const res = await call(svc.app, 'POST', '/document/upload', { key: org.privateKey, body });
  expect(res.statusCode, res.body).toBe(200);
  const { code } = res.json();
  const { link_token: token } = await svc.deps.db
    .selectFrom('participants')
    .innerJoin('processes', 'processes.id', 'participants.process_id')
    .select('participants.link_token')
    .where('processes.code', '=', code)
    .executeTakeFirstOrThrow();
  const images = [jpeg(), jpeg(), png()];
  await submitPhoto({ ...svc.deps, faceMatcher: matcher(10) }, { token, kind: 'face', image: images[0]! });
  await submitPhoto({ ...svc.deps, faceMatcher: matcher(10) }, { token, kind: 'documentFront', image: images[1]! });
  await submitPhoto({ ...svc.deps, faceMatcher: matcher(95) }, { token, kind: 'face', image: images[2]! });
  if (options.end) await endProcess(svc, org, code, options.end);
  return { code, images };
}
