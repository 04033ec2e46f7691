import type { Db } from '../db/database.js';
import type { ProcessRow } from '../db/schema.js';
import type { FlatBody } from '../webhooks/event.js';
import { listDocuments } from './queries.js';

/** The audit actions that have a flat body; every other action sends a flat webhook nothing. */
export type FlatAction =
  | 'CREATE'
  | 'PARTICIPANT_SIGN'
  | 'PARTICIPANT_APPROVE'
  | 'PARTICIPANT_BLOCK'
  | 'PARTICIPANT_REJECT'
  | 'FINISH'
  | 'EXPIRED'
  | 'CANCEL_SIGN'
  | 'REACTIVATION_SIGN';

type PackageDocumentStatus = 'CREATE' | 'FINISH' | 'REJECT' | 'EXPIRED';

/**
 * How each moment reads in the real service's bodies (REFERENCE §11.2 and §11.3): the status of
 * each body it sends, in order, and for packages the status of every document. A rejection is two
 * bodies, REJECT (the process) and REJECTED (who and why); a cancellation is REJECTED alone, which
 * "carries the details of the rejection or cancellation". The real service documents no body for
 * a reactivation; ours is REACTIVATED, with a package's documents back at CREATE.
 */
const MOMENTS: Record<FlatAction, { document: string[]; package: string[]; documents?: PackageDocumentStatus }> = {
  CREATE: { document: ['CREATE'], package: ['CREATE'], documents: 'CREATE' },
  PARTICIPANT_SIGN: { document: ['NOTIFICATION'], package: ['NOTIFICATION'] },
  PARTICIPANT_APPROVE: { document: ['NOTIFICATION'], package: ['NOTIFICATION'] },
  PARTICIPANT_BLOCK: { document: ['BLOCKED'], package: ['BLOCKED'], documents: 'CREATE' },
  PARTICIPANT_REJECT: { document: ['REJECT', 'REJECTED'], package: ['DOCUMENT_REJECT', 'REJECTED'], documents: 'REJECT' },
  FINISH: { document: ['FINISH'], package: ['SIGNED_PACKAGE'], documents: 'FINISH' },
  EXPIRED: { document: ['EXPIRED'], package: ['EXPIRED'], documents: 'EXPIRED' },
  CANCEL_SIGN: { document: ['REJECTED'], package: ['REJECTED'] },
  REACTIVATION_SIGN: { document: ['REACTIVATED'], package: ['REACTIVATED'], documents: 'CREATE' },
};

export function hasFlatBody(action: string): action is FlatAction {
  return Object.hasOwn(MOMENTS, action);
}

/** The statuses whose body names the participant, and carries the reason in `message`. */
const ABOUT_A_PARTICIPANT = new Set(['NOTIFICATION', 'BLOCKED', 'REJECTED']);

export interface FlatProcessMoment {
  process: ProcessRow;
  action: FlatAction;
  /** The participant concerned, as the typed body's `signer` names them, and their face comparison (0 to 100). */
  signer?: { id: string; name: string; email: string; phone?: string };
  similarity?: number | null;
  /** The rejection's or cancellation's reason, or why the participant was blocked. */
  message?: string;
}

/**
 * The flat bodies of one moment of a process. `signer` is `{id, name, email, phone?}`;
 * `similarity` is the participant's face comparison on 0..1, as the real service's webhooks give it.
 * A package names itself in `package` and lists its documents, each `{name, status}`, where
 * REFERENCE lists them. There is no `url`: file addresses are 5-minute signed URLs (GET /document),
 * which a body kept for retries over a day would carry past their end.
 */
export async function flatProcessBodies(db: Db, moment: FlatProcessMoment): Promise<FlatBody[]> {
  const { process, signer, similarity } = moment;
  const shape = MOMENTS[moment.action];
  const isPackage = process.kind === 'package';
  const documentStatus = shape.documents;
  const documents =
    isPackage && documentStatus !== undefined ? (await listDocuments(db, process.id)).map((d) => ({ name: d.name, status: documentStatus })) : undefined;
  return (isPackage ? shape.package : shape.document).map((status) => {
    const aboutParticipant = ABOUT_A_PARTICIPANT.has(status);
    return {
      ...(isPackage ? { package: process.code } : { code: process.code }),
      name: process.name,
      status,
      ...(aboutParticipant && signer ? { signer } : {}),
      ...(aboutParticipant && typeof similarity === 'number' ? { similarity: similarity / 100 } : {}),
      ...(aboutParticipant && status !== 'NOTIFICATION' && moment.message !== undefined ? { message: moment.message } : {}),
      ...(documents && status !== 'REJECTED' ? { documents } : {}),
    };
  });
}
