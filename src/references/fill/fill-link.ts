import type { ServiceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { ReferenceLinkRow } from '../../db/schema.js';
import { fail, failFor } from '../../domain-error.js';
import { countLinkUsesSince, takeReferenceLinkUse } from '../queries.js';

const HOUR_MS = 60 * 60_000;

/** A link switched off, past its expiry or used up says so, and creates nothing. */
export function checkUsable(ctx: Pick<ServiceContext, 'clock'>, link: ReferenceLinkRow): void {
  if (link.enabled !== 1) throw fail('REFERENCE_LINK_DISABLED');
  if (link.expires_at !== null && link.expires_at <= ctx.clock.now().toISOString()) throw fail('REFERENCE_LINK_EXPIRED');
  if (link.max_uses !== null && link.uses >= link.max_uses) throw fail('REFERENCE_LINK_USED_UP');
}

/**
 * Counts a use of the link in the transaction that records its process, before the use is
 * recorded: refused once the link made its `max_uses`, or its `hourly_cap` in the hour before now
 * (Retry-After: until the earliest of them leaves the hour).
 */
export async function takeLinkUse(trx: Db, ctx: Pick<ServiceContext, 'clock'>, link: ReferenceLinkRow): Promise<void> {
  const taken = await takeReferenceLinkUse(trx, link.id);
  if (!taken) throw fail('REFERENCE_LINK_USED_UP');
  const now = ctx.clock.now().getTime();
  const uses = await countLinkUsesSince(trx, link.id, new Date(now - HOUR_MS).toISOString());
  if (uses.count < taken.hourlyCap) return;
  const freesAt = uses.earliest === null ? now + HOUR_MS : Date.parse(uses.earliest) + HOUR_MS;
  const seconds = Math.max(1, Math.ceil((freesAt - now) / 1000));
  throw failFor(
    'REFERENCE_LINK_HOURLY_CAP_EXCEEDED',
    seconds,
    `this link made the ${taken.hourlyCap} processes it allows in an hour; try again in ${Math.ceil(seconds / 60)} min`,
  );
}
