import type { AttachmentRow } from '../../db/schema.js';
import type { AttachmentAsked, AttachmentType } from '../participant/signing-view.js';

const TYPES: readonly AttachmentType[] = ['application/pdf', 'image/jpeg', 'image/png'];

export function attachmentTypeOf(row: Pick<AttachmentRow, 'content_type'>): AttachmentType | undefined {
  return TYPES.find((type) => type === row.content_type);
}

/** A file given and not rejected by the creator: one rejected is asked again. */
export function isGiven(row: Pick<AttachmentRow, 'file_key' | 'review'>): boolean {
  return row.file_key !== null && row.review !== 'rejected';
}

/**
 * The files asked of a participant as their page shows them: what was given, by its type and size
 * only, and for a file the creator rejected, why (it is asked again).
 */
export function attachmentsAsked(rows: AttachmentRow[]): AttachmentAsked[] {
  return rows.map((row) => {
    const type = attachmentTypeOf(row);
    return {
      position: row.position,
      name: row.name,
      ...(row.description === null ? {} : { description: row.description }),
      optional: row.optional === 1,
      ...(isGiven(row) && type !== undefined && row.size !== null ? { given: { contentType: type, size: row.size } } : {}),
      ...(row.review === 'rejected' ? { rejected: { reason: row.review_reason ?? '' } } : {}),
    };
  });
}

/** The required files not given yet (or rejected), by name. */
export function missingAttachments(rows: AttachmentRow[]): string[] {
  return rows.filter((row) => row.optional === 0 && !isGiven(row)).map((row) => row.name);
}
