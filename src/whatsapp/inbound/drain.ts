import crypto from 'node:crypto';
import type { WhatsAppMessageRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { isRecord } from '../../is-record.js';
import { safeExcerpt } from '../../messages/redact.js';
import type { Claim } from '../../outbox/claim.js';
import { EARLIEST_RETRY_MS } from '../../outbox/retry-schedule.js';
import type { ChatContext, HandleChatMessage } from '../chat-context.js';
import type { InboundChatMessage } from '../message/chat-message.js';
import { applyStatuses } from '../records/apply-statuses.js';
import {
  countHandlingFailure,
  hasPendingWork,
  hasStatusWaiting,
  markHandled,
  nextReceived,
  releaseConversationLock,
  renewConversationLock,
  takeConversationLock,
} from './queries.js';

/**
 * Attempts at one received message before it is given up: a message the conversation keeps failing
 * on must not hold the person's later messages back for more than a few retries of the job.
 */
export const MAX_HANDLING_ATTEMPTS = 3;

/** Received messages read at once while draining a number (people write a few in a row). */
const RECEIVED_BATCH = 10;

export interface DrainOptions {
  phone: string;
  handle: HandleChatMessage;
  /** The outbox's hold on the job running this drain, renewed with the lock (see drainConversation). */
  claim: Claim | undefined;
  /** How long the lock holds without renewal: the outbox's lease, so that a dead holder's job and lock lapse together. */
  leaseMs: number;
}

const isOptionalString = (value: unknown) => value === undefined || typeof value === 'string';

function isContent(value: unknown): value is InboundChatMessage['content'] {
  if (!isRecord(value)) return false;
  switch (value.kind) {
    case 'text':
      return typeof value.text === 'string';
    case 'button':
      return typeof value.id === 'string' && typeof value.title === 'string';
    case 'image':
    case 'document':
      return typeof value.mediaId === 'string' && typeof value.mimeType === 'string' && isOptionalString(value.caption) && isOptionalString(value.filename);
    case 'unsupported':
      return typeof value.type === 'string';
    default:
      return false;
  }
}

function isInboundMessage(value: unknown): value is InboundChatMessage {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.from === 'string' &&
    typeof value.sentAt === 'string' &&
    isOptionalString(value.profileName) &&
    isOptionalString(value.contextId) &&
    isContent(value.content)
  );
}

/** The message as receive.ts stored it; a row that is not one fails like a conversation that throws. */
function storedMessage(row: WhatsAppMessageRow): InboundChatMessage {
  const parsed: unknown = row.content === null ? undefined : JSON.parse(row.content);
  if (!isInboundMessage(parsed)) throw new Error(`received WhatsApp message ${row.id} has no readable content`);
  return parsed;
}

/**
 * Handles a number's received messages one at a time, oldest first, then applies its statuses.
 *
 * Why a lock per number: every webhook queues a job for each number it concerns, and jobs run side
 * by side (a worker's round runs its batch at once, and several instances share the outbox), so two
 * jobs of one number may run together. The one that takes the number's lock drains every message
 * waiting, in order; the others return at once, their messages being drained by the holder. The
 * holder looks again after letting go: a message stored while it held the lock, whose own job found
 * the lock taken, is drained then (by it, or by a job that took the lock meanwhile). A holder that
 * dies leaves a lock whose lease runs out with the lease of its outbox job, which the outbox then
 * runs again: both are renewed together, the lock first, so the job never lapses before the lock.
 */
export async function drainConversation(ctx: ChatContext, options: DrainOptions): Promise<void> {
  const { phone } = options;
  const holder = crypto.randomBytes(12).toString('hex');
  const leaseEnd = () => ctx.clock.now().getTime() + options.leaseMs;
  // When the lock and the job's claim lapse unless renewed. Each renewal is a commit of its own, so
  // they are renewed once a third of the lease has gone, not at every message: a lock that far from
  // lapsing cannot have lapsed (nor been taken by another holder).
  let heldUntil = 0;
  const hold = async (): Promise<boolean> => {
    if (heldUntil - ctx.clock.now().getTime() > (2 * options.leaseMs) / 3) return true;
    const until = leaseEnd();
    const held =
      (await renewConversationLock(ctx.db, { phone, holder, until: new Date(until).toISOString() })) &&
      (options.claim === undefined || (await options.claim.renew()));
    heldUntil = held ? until : 0;
    return held;
  };
  for (;;) {
    // The job's claim is renewed first unless it was taken moments ago (a third of its lease not
    // gone yet, as for the renewals above); the lock is taken until the claim lapses, never later:
    // a job run again after its holder died must find the lock lapsed too.
    const claim = options.claim;
    if (claim !== undefined && claim.lapsesAt() - ctx.clock.now().getTime() <= (2 * options.leaseMs) / 3 && !(await claim.renew())) return;
    const until = Math.min(leaseEnd(), claim?.lapsesAt() ?? Number.POSITIVE_INFINITY);
    if (!(await takeConversationLock(ctx.db, { phone, holder, now: ctx.clock.now().toISOString(), until: new Date(until).toISOString() }))) return;
    try {
      heldUntil = until;
      // A few of the number's messages at a time: only the lock's holder handles them, so none of
      // those read can be handled by anyone else meanwhile, and one read serves several messages.
      const next = () => nextReceived(ctx.db, { phone, limit: RECEIVED_BATCH, now: ctx.clock.now().toISOString() });
      for (let rows = await next(); rows.length > 0; rows = await next()) {
        for (const row of rows) {
          await handleReceived(ctx, options.handle, row);
          if (!(await hold())) return;
        }
      }
      if (await hasStatusWaiting(ctx.db, phone)) await withTransaction(ctx, (trx) => applyStatuses(trx, ctx.clock, { phone }));
    } finally {
      await releaseConversationLock(ctx.db, { phone, holder });
    }
    if (!(await hasPendingWork(ctx.db, { phone, now: ctx.clock.now().toISOString() }))) return;
  }
}

/**
 * One message through the conversation, marked handled in the transaction of its answer (or after,
 * when it answered nothing). When the conversation throws, the failure is counted and the job
 * fails, to be retried by the outbox as any job, unless the message is given up, and the number's
 * next messages go on.
 *
 * A message failed on waits (retry_after) as long as the soonest retry of the failing job: the
 * number's other drain jobs (one per webhook) find nothing to do until then, instead of spending
 * its attempts at once, and the failing job's retry, never sooner, finds it due. Whichever job
 * failed on it last has such a retry, so the message is never left without one.
 */
async function handleReceived(ctx: ChatContext, handle: HandleChatMessage, row: WhatsAppMessageRow): Promise<void> {
  let words: string[] = [];
  let settled = false;
  let message: InboundChatMessage | undefined;
  try {
    message = storedMessage(row);
    words = message.content.kind === 'text' ? [message.content.text] : [];
    await handle(ctx, message, async (db) => {
      await markHandled(db, { id: row.id, at: ctx.clock.now().toISOString() });
      settled = true;
    });
  } catch (error) {
    const reason = safeExcerpt(error instanceof Error ? error.message : String(error), words);
    const now = ctx.clock.now();
    const outcome = await countHandlingFailure(ctx.db, {
      id: row.id,
      at: now.toISOString(),
      retryAfter: new Date(now.getTime() + EARLIEST_RETRY_MS).toISOString(),
      error: reason,
      maxAttempts: MAX_HANDLING_ATTEMPTS,
    });
    if (outcome === 'retry') throw error;
    await releaseMedia(ctx, message);
    return;
  }
  if (!settled) await markHandled(ctx.db, { id: row.id, at: ctx.clock.now().toISOString() });
  await releaseMedia(ctx, message);
}

/** Once a message is done with (handled, or given up), its media is let go, read or not. */
async function releaseMedia(ctx: ChatContext, message: InboundChatMessage | undefined): Promise<void> {
  const content = message?.content;
  if (content?.kind !== 'image' && content?.kind !== 'document') return;
  // A copy left behind must not hold the person's next messages back, as a failed drain would.
  await ctx.chatMedia.release?.(content.mediaId).catch(() => undefined);
}
