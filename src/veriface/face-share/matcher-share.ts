import type { ServiceContext } from '../../context.js';
import type { ParticipantRow, ProcessRow, VerifaceRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { recordProcessEvent } from '../../documents/process-events.js';
import { DomainError, fail, failFor } from '../../domain-error.js';
import type { FaceComparison, FaceMatcher, MatcherFlow } from '../face-matcher.js';
import { recordStage } from '../stages.js';
import { giveBackMatcherUse, type MatcherUses, markMatcherRefusal, readMatcherUses, takeMatcherUse } from './queries.js';

/**
 * Comparisons one participant or face validation may make in a UTC hour, unusable photos
 * included. A person retakes a few times (a photo without a face, a blurred card, the three
 * mismatches that block): a handful an hour; ten leave room for that and stop a link holder from
 * keeping the face workers busy.
 */
export const FACE_COMPARISONS_PER_HOUR = 10;

/** Comparisons over the flow's whole life: past them only the organization can help (a new link). */
export const FACE_COMPARISONS_PER_FLOW = 25;

/**
 * Whose comparison it is: a face validation, a signer (their page or WhatsApp alike, one link),
 * or an organization's own API calls (`/veriface/validate`, `/veriface/check`), which share the
 * workers fairly but are not counted: the integrator pays for its own volume.
 */
export type SharedFlow =
  | { kind: 'validation'; process: VerifaceRow }
  | { kind: 'participant'; process: ProcessRow; participant: ParticipantRow }
  | { kind: 'organization'; organizationId: string };

export function matcherFlowOf(flow: SharedFlow): MatcherFlow {
  switch (flow.kind) {
    case 'validation':
      return { kind: 'person', id: flow.process.id };
    case 'participant':
      return { kind: 'person', id: flow.participant.id };
    case 'organization':
      return { kind: 'organization', id: flow.organizationId };
  }
}

/** The UTC hour of `date`, as the counts name it: YYYY-MM-DDTHH. */
function hourOf(date: Date): string {
  return date.toISOString().slice(0, 13);
}

const HOUR_MS = 60 * 60 * 1000;

/** The refusal of a comparison past a limit: until the next hour, or for good. */
function refusalOf(uses: MatcherUses | undefined, now: Date): DomainError {
  if (uses && uses.uses >= FACE_COMPARISONS_PER_FLOW) {
    return fail('FACE_COMPARISONS_EXCEEDED', `at most ${FACE_COMPARISONS_PER_FLOW} comparisons for one link; ask whoever sent it for a new one`);
  }
  const hourEnds = Date.parse(`${uses?.hour ?? hourOf(now)}:00:00.000Z`) + HOUR_MS;
  const seconds = Math.max(1, Math.ceil((hourEnds - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return failFor('FACE_COMPARISONS_PER_HOUR_EXCEEDED', seconds, `at most ${FACE_COMPARISONS_PER_HOUR} comparisons an hour; try again in ${minutes} min`);
}

/** Tells the integrator, once an hour at most, that the flow was refused: a stage of the validation, a line of the process's audit trail. */
async function recordRefusal(ctx: ServiceContext, flow: Exclude<SharedFlow, { kind: 'organization' }>, refusal: DomainError, uses: MatcherUses): Promise<void> {
  const limit = refusal.message.startsWith('FACE_COMPARISONS_EXCEEDED') ? 'flow' : 'hour';
  const detail = {
    limit,
    comparisons: limit === 'flow' ? uses.uses : uses.hourUses,
    ...(refusal.retryAfterSeconds === undefined ? {} : { retryAfter: refusal.retryAfterSeconds }),
  };
  await withTransaction(ctx, async (trx) => {
    if (flow.kind === 'validation') await recordStage(trx, ctx.clock, { process: flow.process, stage: 'comparisons_limited', detail });
    else
      await recordProcessEvent(trx, ctx.clock, {
        process: flow.process,
        action: 'COMPARISONS_LIMITED',
        participant: flow.participant,
        message: limit === 'flow' ? 'PER_PARTICIPANT' : 'PER_HOUR',
        detail,
      });
  });
}

/** The service, not the person, failed to make the comparison: it is given back. */
function notTheirs(error: unknown): boolean {
  return error instanceof DomainError && /^(FACE_MATCHER_BUSY|FACE_MATCHER_FAILED|FACE_COMPARISON_UNDER_WAY)\b/.test(error.message);
}

/**
 * Runs `work` (something the face workers do for the flow: a comparison, a photo analysed) within
 * the flow's share: counted in the database against the hour's and the flow's bounds before it
 * starts, refused 429 past them (the integrator told once an hour), given back when the service
 * could not do it. An organization's API calls are not counted.
 */
export async function withinShare<T>(ctx: ServiceContext, flow: SharedFlow, work: (matcherFlow: MatcherFlow) => Promise<T>): Promise<T> {
  const matcherFlow = matcherFlowOf(flow);
  if (flow.kind === 'organization') return work(matcherFlow);
  const now = ctx.clock.now();
  const hour = hourOf(now);
  const ownerId = matcherFlow.id;
  const taken = await takeMatcherUse(ctx.db, { ownerId, hour, perFlow: FACE_COMPARISONS_PER_FLOW, perHour: FACE_COMPARISONS_PER_HOUR });
  if (!taken) {
    const first = await markMatcherRefusal(ctx.db, { ownerId, hour });
    const uses = first ?? (await readMatcherUses(ctx.db, ownerId));
    const refusal = refusalOf(uses, now);
    if (first) await recordRefusal(ctx, flow, refusal, first);
    throw refusal;
  }
  try {
    return await work(matcherFlow);
  } catch (error) {
    if (notTheirs(error)) await giveBackMatcherUse(ctx.db, { ownerId, hour: taken.hour });
    throw error;
  }
}

/** A face compared with a document within the flow's share of the face matcher. */
export function compareInShare(
  ctx: ServiceContext & { faceMatcher: FaceMatcher },
  options: { flow: SharedFlow; documentPhoto: Buffer; facePhoto: Buffer },
): Promise<FaceComparison | undefined> {
  const { documentPhoto, facePhoto } = options;
  return withinShare(ctx, options.flow, (flow) => ctx.faceMatcher.compare({ documentPhoto, facePhoto, flow }));
}
