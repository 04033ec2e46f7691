import type { VerifaceRow } from '../db/schema.js';
import type { FlatBody } from '../webhooks/payload/event.js';

/**
 * The stages the real service sends a veriface webhook for (REFERENCE §11.4), with its status and
 * whether the validation has come to its end (`finish`): a BLOCKED one waits for a person's
 * decision. EXPIRED is not among its documented webhooks but is a status of its GET; it is sent so
 * that a receiver is not left waiting. The other stages (created, opened, photos, a face that did
 * not match yet, photos deleted) send a flat webhook nothing.
 */
const FLAT_STAGES: Readonly<Record<string, { status: string; finish: boolean }>> = {
  approved: { status: 'APPROVED', finish: true },
  blocked: { status: 'BLOCKED', finish: false },
  validated: { status: 'VALIDATED', finish: true },
  invalidated: { status: 'INVALIDATED', finish: true },
  expired: { status: 'EXPIRED', finish: true },
};

/**
 * The flat body of a stage: `{code, type: "veriface", status, finish, message?, data: {name,
 * documentName}, similarity?}`, with `similarity` on 0..1 as the real service's webhook gives it
 * (its GET and this service's use 0..100). `data.name` is the name read from the document, which
 * this service does not read (null, as the real service sends when it read none); `documentName`
 * is the document asked for, type and number.
 */
export function flatVerifaceBodies(process: VerifaceRow, stage: string, detail: Record<string, unknown> | undefined): FlatBody[] {
  const shape = Object.hasOwn(FLAT_STAGES, stage) ? FLAT_STAGES[stage] : undefined;
  if (!shape) return [];
  const reason = detail?.reason;
  return [
    {
      code: process.code,
      type: 'veriface',
      status: shape.status,
      finish: shape.finish,
      ...(typeof reason === 'string' ? { message: reason } : {}),
      data: { name: null, documentName: `${process.document_type} ${process.identification}` },
      ...(stage === 'approved' && process.similarity !== null ? { similarity: Math.round(process.similarity * 100) / 10_000 } : {}),
    },
  ];
}
