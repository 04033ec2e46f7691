import type { BlobStore } from '../files/blob-store.js';

export const TEMPLATE_FILE_KINDS = ['mask', 'complete'] as const;
export type TemplateFileKind = (typeof TEMPLATE_FILE_KINDS)[number];

/** The contract's upload URLs last exactly five minutes; download URLs are as short-lived. */
export const TEMPLATE_URL_LIFETIME_SECONDS = 300;

/** Accepted upload types: the contract's text/html, and the binary type the real service's own scripts send. */
export const TEMPLATE_UPLOAD_CONTENT_TYPES = ['text/html', 'binary/octet-stream'] as const;

const KEY_PATTERN = /^templates\/([0-9a-f]{24})\/(mask|complete)\.html$/;

export function templateFileKey(templateId: string, kind: TemplateFileKind): string {
  return `templates/${templateId}/${kind}.html`;
}

export function templateIdOfKey(key: string): string | undefined {
  return KEY_PATTERN.exec(key)?.[1];
}

/**
 * Whether the service sees a template's HTML arrive: uploads to the local store pass through its
 * /files routes; S3's go straight to the bucket, so there a template may have files from the start.
 */
export function seesTemplateUploads(blobs: BlobStore): boolean {
  return blobs.kind === 'local';
}

export function templateFileKeys(templateId: string): string[] {
  return TEMPLATE_FILE_KINDS.map((kind) => templateFileKey(templateId, kind));
}

export interface TemplateUrls {
  mask: string;
  complete: string;
}

/** PUT URLs to upload both HTML files, or GET URLs to download them; both expire after five minutes. */
export async function templateFileUrls(blobs: BlobStore, templateId: string, method: 'PUT' | 'GET'): Promise<TemplateUrls> {
  const [mask, complete] = await blobs.presignAll(templateFileKeys(templateId), {
    method,
    expiresInSeconds: TEMPLATE_URL_LIFETIME_SECONDS,
    ...(method === 'PUT' ? { contentType: 'text/html' } : {}),
  });
  if (mask === undefined || complete === undefined) throw new Error('The blob store issued fewer URLs than keys');
  return { mask, complete };
}
