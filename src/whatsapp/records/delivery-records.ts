import type { ServiceContext } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import type { WhatsAppDeliveryRecords } from '../../messages/handlers.js';
import { applyStatuses } from './apply-statuses.js';
import { recordDeliveryFailure } from './delivery-failure.js';
import { findMessageById, pendingStatuses, recordAccepted } from './queries.js';

/**
 * The outbox's WhatsApp deliveries, told to the messages' records: Meta's wamid when it accepts a
 * message (with the statuses that overtook it), or the failure when the outbox gives it up.
 */
export function whatsAppDeliveryRecords(ctx: Pick<ServiceContext, 'db' | 'clock' | 'outbox'>): WhatsAppDeliveryRecords {
  return {
    // The wamid is recorded first, on its own: a status stored after the look below for this
    // message's statuses is applied by its own number's job (src/whatsapp/inbound/drain.ts), which
    // finds the wamid recorded; one stored before is seen by the look. Only then is a transaction
    // needed, to apply each status once: most messages have none yet, and are one statement.
    sent: async (id, wamid) => {
      await recordAccepted(ctx.db, { id, wamid, at: ctx.clock.now().toISOString() });
      if (wamid === undefined || (await pendingStatuses(ctx.db, { wamid })).length === 0) return;
      await withTransaction(ctx, (trx) => applyStatuses(trx, ctx.clock, { wamid }));
    },
    givenUp: (id, reason) =>
      withTransaction(ctx, async (trx) => {
        const message = await findMessageById(trx, id);
        if (message) await recordDeliveryFailure(trx, ctx.clock, { message, reason, at: ctx.clock.now().toISOString() });
      }),
  };
}
