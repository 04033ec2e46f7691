import type { ServiceContext } from '../../context.js';
import { failFor } from '../../domain-error.js';
import { readSettings } from '../../organizations/settings.js';
import { countReferenceUsesSince } from '../queries.js';
import { countTemplateFillsSince } from './fill-session-queries.js';

const HOUR_MS = 60 * 60_000;

/**
 * Refuses a public form's submission once the organization's forms made `formProcessesPerHour`
 * processes in the last hour (reference links and the SDK's fill flow together; a prebuilt
 * process is the integrator's own and is not counted). A per-address limit alone would not do: a
 * stranger with many addresses could make the organization invite anyone, as often as they like.
 * Counted before the process is made, outside its transaction: submissions at the same moment
 * may pass the line by as many as arrive together, which the per-address limit keeps few.
 */
export async function checkFormProcessCap(ctx: ServiceContext, organizationId: string): Promise<void> {
  const cap = (await readSettings(ctx.db, organizationId))?.formProcessesPerHour ?? 0;
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - HOUR_MS).toISOString();
  const [uses, fills] = await Promise.all([countReferenceUsesSince(ctx.db, organizationId, since), countTemplateFillsSince(ctx.db, organizationId, since)]);
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
