import { fail } from '../../domain-error.js';
import { imageTypeOf } from '../../veriface/images.js';
import { looksLikePdf } from '../document-files.js';
import type { AttachmentType } from '../participant/signing-view.js';

/** The largest file a participant may attach: a scan or a phone photo, as the template's image questions take. */
export const ATTACHMENT_MAX_BYTES = 8 * 1024 * 1024;

const EXTENSIONS: Record<AttachmentType, string> = { 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png' };

export function extensionOf(type: AttachmentType): string {
  return EXTENSIONS[type];
}

/**
 * A file is taken for what its bytes are, never for what its name or the browser says: a PDF by its
 * `%PDF-` header, a JPEG or PNG by their signatures. Anything else, empty or too large, is refused.
 */
export function admitAttachment(bytes: Buffer): AttachmentType {
  if (bytes.length === 0) throw fail('ATTACHMENT_EMPTY');
  if (bytes.length > ATTACHMENT_MAX_BYTES) throw fail('ATTACHMENT_TOO_LARGE', `at most ${ATTACHMENT_MAX_BYTES} bytes`);
  if (looksLikePdf(bytes)) return 'application/pdf';
  const image = imageTypeOf(bytes);
  if (image === 'jpg') return 'image/jpeg';
  if (image === 'png') return 'image/png';
  throw fail('ATTACHMENT_TYPE_NOT_ALLOWED');
}
