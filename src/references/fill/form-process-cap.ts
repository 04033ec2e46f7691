import type { ServiceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { failFor } from '../../domain-error.js';
import { lockFormProcessesPerHour } from '../../organizations/queries.js';
import { readSettings } from '../../organizations/settings.js';
import { countReferenceUsesSince } from '../queries.js';
import { countTemplateFillsSince } from './fill-session-queries.js';

const HOUR_MS = 60 * 60_000;

/** Refuses with Retry-After when the organization's forms made `cap` processes in the hour before now. */
async function refuseWhenFull(db: Db, options: { organizationId: string; cap: number; now: Date }): Promise<void> {
  const { organizationId, cap, now } = options;
  const since = new Date(now.getTime() - HOUR_MS).toISOString();
  const [uses, fills] = await Promise.all([countReferenceUsesSince(db, organizationId, since), countTemplateFillsSince(db, organizationId, since)]);
  if (uses.count + fills.count < cap) return;
  // Room comes back when the earliest process of the hour leaves it; a cap of 0 takes none.
  const earliest = [uses.earliest, fills.earliest].filter((at): at is string => at !== null).sort()[0];
  const freesAt = earliest === undefined ? now.getTime() + HOUR_MS : Date.parse(earliest) + HOUR_MS;
  const seconds = Math.max(1, Math.ceil((freesAt - now.getTime()) / 1000));
  throw failFor(
    'FORM_PROCESSES_PER_HOUR_EXCEEDED',
    seconds,
    `this organization's forms made the ${cap} processes it allows in an hour; try again in ${Math.ceil(seconds / 60)} min`,
  );
}

/**
 * Refuses a public form's submission once the organization's forms made `formProcessesPerHour`
 * processes in the last hour (reference links and the SDK's fill flow together; a prebuilt
 * process is the integrator's own and is not counted). A per-address limit alone would not do: a
 * stranger with many addresses could make the organization invite anyone, as often as they like.
 * Read before the process is made, so a full hour costs no rendering; `takeFormProcessRoom` is the
 * check that holds.
 */
export async function checkFormProcessCap(ctx: ServiceContext, organizationId: string): Promise<void> {
  const cap = (await readSettings(ctx.db, organizationId))?.formProcessesPerHour ?? 0;
  await refuseWhenFull(ctx.db, { organizationId, cap, now: ctx.clock.now() });
}

/**
 * The same check in the transaction that records the form's process, before it records it. The
 * organization's row stays locked to the commit on PostgreSQL (SQLite runs one writing transaction
 * at a time), so submissions arriving together are counted one after the other and the hour never
 * takes more than the cap.
 */
export async function takeFormProcessRoom(trx: Db, ctx: Pick<ServiceContext, 'dialect' | 'clock'>, organizationId: string): Promise<void> {
  const cap = (await lockFormProcessesPerHour(trx, ctx.dialect, organizationId)) ?? 0;
  await refuseWhenFull(trx, { organizationId, cap, now: ctx.clock.now() });
}
