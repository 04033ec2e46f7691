import type { ServiceContext } from '../../context.js';
import type { WhatsAppMessageRow } from '../../db/schema.js';
import { fail } from '../../domain-error.js';
import { listParticipantMessages, participantRowsInOrganization } from './queries.js';

/** Most messages one answer lists: a signature's conversation is a few dozen. */
export const MAX_RECORDS = 1000;

export interface WhatsAppRecord {
  direction: 'in' | 'out';
  kind: string;
  purpose?: string;
  createdAt: string;
  status: string;
  statusAt: string;
  error?: string;
}

export interface WhatsAppRecords {
  userId: string;
  messages: WhatsAppRecord[];
}

/** What a message's record shows: what and why, and how far it got; never its text, a code, a photo or a media id. */
function recordOf(row: WhatsAppMessageRow): WhatsAppRecord {
  return {
    direction: row.direction,
    kind: row.kind,
    ...(row.purpose === null ? {} : { purpose: row.purpose }),
    createdAt: row.created_at,
    status: row.status,
    statusAt: row.status_at,
    // Meta's reason a message sent failed; a received message's failure is the service's own business.
    ...(row.direction === 'out' && row.error !== null ? { error: row.error } : {}),
  };
}

/** A participant's WhatsApp conversation, oldest first; another organization's participant is answered as an unknown one. */
export async function readParticipantRecords(ctx: Pick<ServiceContext, 'db'>, options: { organizationId: string; userId: string }): Promise<WhatsAppRecords> {
  const { organizationId, userId } = options;
  const participantRowIds = await participantRowsInOrganization(ctx.db, { organizationId, participantId: userId });
  if (participantRowIds.length === 0) throw fail('PARTICIPANT_NOT_FOUND');
  const rows = await listParticipantMessages(ctx.db, { organizationId, participantRowIds, limit: MAX_RECORDS });
  return { userId, messages: rows.map(recordOf) };
}
