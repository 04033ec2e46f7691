import type { ServiceContext } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import type { WhatsAppDeliveryRecords } from '../../messages/handlers.js';
import { applyStatuses } from './apply-statuses.js';
import { recordDeliveryFailure } from './delivery-failure.js';
import { findMessageById, recordAccepted } from './queries.js';

/**
 * The outbox's WhatsApp deliveries, told to the messages' records: Meta's wamid when it accepts a
 * message (with the statuses that overtook it), or the failure when the outbox gives it up.
 */
export function whatsAppDeliveryRecords(ctx: Pick<ServiceContext, 'db' | 'clock' | 'outbox'>): WhatsAppDeliveryRecords {
  return {
    sent: (id, wamid) =>
      withTransaction(ctx, async (trx) => {
        await recordAccepted(trx, { id, wamid, at: ctx.clock.now().toISOString() });
        if (wamid !== undefined) await applyStatuses(trx, ctx.clock, { wamid });
      }),
    givenUp: (id, reason) =>
      withTransaction(ctx, async (trx) => {
        const message = await findMessageById(trx, id);
        if (message) await recordDeliveryFailure(trx, ctx.clock, { message, reason, at: ctx.clock.now().toISOString() });
      }),
  };
}
