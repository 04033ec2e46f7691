import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import type { WhatsAppStatus, WhatsAppStatusRow } from '../../db/schema.js';
import { recordDeliveryFailure } from './delivery-failure.js';
import { advanceMessageStatus, claimStatus, findMessageByWamid, pendingStatuses } from './queries.js';

/** The statuses a message goes through, each coming after those before it. */
const PROGRESS: readonly WhatsAppStatus[] = ['queued', 'sent', 'delivered', 'read'];

/**
 * Applies the statuses Meta reported that are not applied yet, of one number or of one message,
 * to the messages they name. A status naming a message whose send is not recorded yet (Meta's
 * webhook can overtake the answer to the send) stays kept, and is applied once the send records the
 * message's wamid. Run in a transaction: a status is applied once, whoever applies it.
 */
export async function applyStatuses(db: Db, clock: Clock, where: { phone: string } | { wamid: string }): Promise<number> {
  let applied = 0;
  for (const status of await pendingStatuses(db, where)) {
    if (await applyStatus(db, clock, status)) applied++;
  }
  return applied;
}

async function applyStatus(db: Db, clock: Clock, status: WhatsAppStatusRow): Promise<boolean> {
  const message = await findMessageByWamid(db, status.wamid);
  if (message?.direction !== 'out') return false;
  if (!(await claimStatus(db, status.id, clock.now().toISOString()))) return false;
  if (status.status === 'failed') {
    await recordDeliveryFailure(db, clock, { message, reason: status.error ?? 'WhatsApp could not deliver the message', at: status.at });
    return true;
  }
  const from = PROGRESS.slice(0, PROGRESS.indexOf(status.status));
  await advanceMessageStatus(db, { id: message.id, status: status.status, from, at: status.at, error: null });
  return true;
}
