import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { parseJson } from '../db/json-column.js';
import type { VerifaceRow } from '../db/schema.js';
import { newObjectId } from '../ids.js';
import { emitEvent } from '../webhooks/emit-event.js';
import { flatVerifaceBodies } from './flat-webhook-bodies.js';
import { insertStage } from './queries.js';

/**
 * The stages of a face validation, in the order they can happen. Each is stored with its time and
 * sent as the webhook `veriface.<stage>`.
 */
export const VERIFACE_STAGES = [
  'created',
  'notified',
  'opened',
  'document_captured',
  'face_captured',
  'photo_unusable',
  'comparisons_limited',
  'approved',
  'rejected',
  'blocked',
  'validated',
  'invalidated',
  'expired',
  'photos_deleted',
] as const;
export type VerifaceStage = (typeof VERIFACE_STAGES)[number];

/**
 * Records a stage and queues its webhook in the caller's transaction. The webhook carries the code,
 * the stage, the process status (the real service's status names), the stage's details, and the
 * integrator's `custom` and `tags`; it goes to `targetWebhooks`, or `default`.
 */
export async function recordStage(
  db: Db,
  clock: Clock,
  options: { process: VerifaceRow; stage: VerifaceStage; detail?: Record<string, unknown> },
): Promise<void> {
  const { process, stage, detail } = options;
  const now = clock.now();
  await insertStage(db, {
    id: newObjectId(now),
    process_id: process.id,
    stage,
    detail: detail ? JSON.stringify(detail) : null,
    at: now.toISOString(),
  });
  await emitEvent(db, clock, {
    organizationId: process.organization_id,
    type: `veriface.${stage}`,
    data: { code: process.code, type: 'veriface', stage, status: process.status, ...detail },
    flat: () => flatVerifaceBodies(process, stage, detail),
    targetWebhooks: parseJson<string[]>(process.target_webhooks),
    custom: parseJson<Record<string, unknown>>(process.custom),
    tags: parseJson<string[]>(process.tags),
  });
}
