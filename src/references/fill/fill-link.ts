import type { ServiceContext } from '../../context.js';
import type { ReferenceLinkRow } from '../../db/schema.js';
import { fail } from '../../domain-error.js';

/** A link switched off or past its expiry says so, and creates nothing. */
export function checkUsable(ctx: Pick<ServiceContext, 'clock'>, link: ReferenceLinkRow): void {
  if (link.enabled !== 1) throw fail('REFERENCE_LINK_DISABLED');
  if (link.expires_at !== null && link.expires_at <= ctx.clock.now().toISOString()) throw fail('REFERENCE_LINK_EXPIRED');
}
