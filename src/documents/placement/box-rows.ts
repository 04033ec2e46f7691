import type { ParticipantRow, SignatureBoxRow } from '../../db/schema.js';
import type { ParticipantBoxes } from './place-signatures.js';

/** One document's boxes as rows naming the participants' rows (`participants` in the process's order). */
export function boxRows(options: {
  processId: string;
  documentPosition: number;
  boxes: ParticipantBoxes[];
  participants: ParticipantRow[];
}): SignatureBoxRow[] {
  return options.boxes.flatMap(({ participant, boxes }) => {
    const row = options.participants[participant];
    if (!row) return [];
    return boxes.map((box, index) => ({
      process_id: options.processId,
      document_position: options.documentPosition,
      participant_row_id: row.id,
      box_index: index,
      page: box.page,
      left_pt: box.left,
      bottom_pt: box.bottom,
      width_pt: box.width,
      height_pt: box.height,
    }));
  });
}
