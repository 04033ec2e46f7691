import type { ParticipantRow, SignatureBoxRow } from '../../db/schema.js';
import type { SignatureImage } from './drawing/signature-image.js';
import type { SignatureStamp } from './drawing/signature-stamps.js';
import { participantNumber, type SealEvidence } from './seal-evidence.js';

/**
 * What one participant's stamp says under their mark: their name, when they signed or approved
 * (in the organization's time zone) and the reference that finds them on /verify and in the
 * certificate: the process code and their number, as template stamps name them.
 */
function stampLines(participant: ParticipantRow, evidence: SealEvidence): SignatureStamp['lines'] {
  const { locale, process } = evidence;
  return [
    ['bold', participant.name],
    ['regular', participant.signed_at === null ? '' : locale.dateTime(participant.signed_at)],
    ['regular', `${process.code} · ${locale.labels.participantNumber} ${participantNumber(participant)}`],
  ];
}

function stampMark(participant: ParticipantRow, evidence: SealEvidence, image: SignatureImage | undefined): SignatureStamp['mark'] {
  if (participant.role === 'APPROVER') return { text: evidence.locale.labels.approvalStamp, style: 'bold' };
  return image ? { image } : { text: participant.name, style: 'italic' };
}

/**
 * The stamps of one document: one in each box placed for it, of the participant the box is for,
 * when they signed or approved. `images` are the signature images ready to draw, by participant id.
 */
export function placedStamps(
  evidence: SealEvidence,
  boxes: readonly SignatureBoxRow[],
  documentPosition: number,
  images: ReadonlyMap<string, SignatureImage>,
): SignatureStamp[] {
  const byRow = new Map(evidence.participants.map((participant) => [participant.id, participant]));
  const stamps: SignatureStamp[] = [];
  for (const box of boxes) {
    const participant = byRow.get(box.participant_row_id);
    if (box.document_position !== documentPosition || !participant || participant.signed_at === null) continue;
    stamps.push({
      box: { page: box.page, left: box.left_pt, bottom: box.bottom_pt, width: box.width_pt, height: box.height_pt },
      mark: stampMark(participant, evidence, images.get(participant.participant_id)),
      framed: participant.role === 'APPROVER',
      lines: stampLines(participant, evidence),
    });
  }
  return stamps;
}
