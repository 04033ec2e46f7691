import type { AttachmentRow, ParticipantRow } from '../../db/schema.js';
import { invalid } from '../../domain-error.js';
import { newObjectId } from '../../ids.js';
import type { EffectiveValidations } from '../identity-validations.js';
import type { SignerInput } from '../schemas.js';

/**
 * The rows of the files each participant is asked for, the participants in the order created
 * (`signers[i]` is `participants[i]`). Files are given on the signing page, which a WhatsApp flow
 * does not open: asking them of someone reached on WhatsApp is refused rather than never asked.
 */
export function attachmentRows(options: {
  processId: string;
  signers: SignerInput[];
  labels: (index: number) => string;
  participants: ParticipantRow[];
  validations: EffectiveValidations[];
  now: string;
}): AttachmentRow[] {
  const { processId, now } = options;
  return options.signers.flatMap((signer, i) => {
    const participant = options.participants[i];
    const files = signer.files ?? [];
    if (!participant || files.length === 0) return [];
    if (options.validations[i]?.channels.includes('whatsapp')) {
      throw invalid(`"${options.labels(i)}.files" are given on the signing page, which a WhatsApp flow does not open`);
    }
    return files.map((file, position) => ({
      id: newObjectId(new Date(now)),
      process_id: processId,
      participant_row_id: participant.id,
      position,
      name: file.name,
      description: file.description ?? null,
      optional: file.optional ? 1 : 0,
      file_key: null,
      sha256: null,
      content_type: null,
      size: null,
      uploaded_at: null,
      review: null,
      review_reason: null,
      reviewed_at: null,
      created_at: now,
    }));
  });
}
