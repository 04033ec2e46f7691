import { PDFDocument } from 'pdf-lib';
import { invalid } from '../../domain-error.js';
import { pdfTextRuns } from '../../rendering/self-test.js';
import type { PositionInput } from '../schemas.js';
import { boxFromPosition, type PageSize, type PlacedBox } from './page-box.js';
import { findTagBoxes, removeTags, signatureTag } from './signature-tags.js';

/** Where one participant signs one PDF, as the request says it. */
export interface SignerPlacement {
  /** The participant's index among the process's participants. */
  participant: number;
  /** N of the participant's tag `{{signature:N}}`: their index in the signProfile that names them. */
  tagIndex: number;
  /** How messages name the signer (`signProfile[1]`, `documents[0].signProfile[1]`). */
  field: string;
  positions?: PositionInput[];
  tag?: boolean;
}

export interface ParticipantBoxes {
  participant: number;
  boxes: PlacedBox[];
}

/** The document with its tags removed (the upload itself when it had none to remove) and each participant's boxes. */
export interface Placement {
  bytes: Buffer;
  boxes: ParticipantBoxes[];
}

export const hasPlacement = (placements: SignerPlacement[]) => placements.some((p) => p.tag === true || (p.positions?.length ?? 0) > 0);

/**
 * Finds each participant's boxes on an admitted PDF: coordinates checked against the pages they
 * name, tags found where their text is and removed from the pages' content, so the stored document
 * (and its hash) is the PDF without them. Refused with a message naming the field or the signer.
 */
export async function placeSignatures(pdf: Buffer, placements: SignerPlacement[]): Promise<Placement> {
  if (!hasPlacement(placements)) return { bytes: pdf, boxes: [] };
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  const sizes: PageSize[] = document.getPages().map((page) => {
    const { width, height } = page.getMediaBox();
    return { width, height };
  });
  const boxes: ParticipantBoxes[] = placements.map((placement) => ({
    participant: placement.participant,
    boxes: (placement.positions ?? []).map((position, i) => boxFromPosition(position, sizes, `${placement.field}.position[${i}]`)),
  }));
  const tagged = placements.filter((p) => p.tag === true);
  if (tagged.length === 0) return { bytes: pdf, boxes };
  const runs = await pdfTextRuns(pdf);
  tagged.forEach((placement) => {
    const tag = signatureTag(placement.tagIndex);
    const found = findTagBoxes(runs, sizes, tag);
    if (found.length === 0) throw invalid(`"${placement.field}": the tag ${tag} is not in the PDF`);
    boxes.find((b) => b.participant === placement.participant)?.boxes.push(...found);
  });
  const removed = removeTags(
    document,
    tagged.map((p) => signatureTag(p.tagIndex)),
  );
  for (const placement of tagged) {
    const tag = signatureTag(placement.tagIndex);
    if ((removed.get(tag) ?? 0) === 0) {
      throw invalid(`"${placement.field}": the tag ${tag} is drawn with a font whose text cannot be rewritten; place the signature with "position" instead`);
    }
  }
  return { bytes: Buffer.from(await document.save({ useObjectStreams: false })), boxes };
}

/** Each participant's placement in the words of a signProfile: `participantOf` maps a signer there to the process's participant. */
export function signerPlacements(
  signProfile: { position?: PositionInput[]; label?: boolean }[],
  options: { field: (index: number) => string; participantOf: (index: number) => number },
): SignerPlacement[] {
  return signProfile.map((signer, i) => ({
    participant: options.participantOf(i),
    tagIndex: i,
    field: options.field(i),
    ...(signer.position ? { positions: signer.position } : {}),
    ...(signer.label === true ? { tag: true } : {}),
  }));
}
