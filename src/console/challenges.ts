import type { Clock } from '../clock.js';
import type { Db } from '../db/schema.js';
import { newObjectId } from '../ids.js';
import { secretHash } from './sessions.js';

/**
 * One-time challenges kept server-side, by their SHA-256 only: a passkey's registration or sign-in,
 * an OpenID Connect sign-in's state. Each answers once, within its minutes, for its purpose (and its
 * user, when it was issued to one).
 */
export type ChallengePurpose = 'passkey-add' | 'passkey-sign-in' | 'oidc';

export interface IssuedChallenge {
  purpose: ChallengePurpose;
  challenge: string;
  minutes: number;
  userId?: string;
  organizationId?: string;
  data?: Record<string, string>;
}

export async function issueChallenge(db: Db, clock: Clock, issued: IssuedChallenge): Promise<void> {
  const now = clock.now();
  await db
    .insertInto('console_challenges')
    .values({
      id: newObjectId(now),
      purpose: issued.purpose,
      challenge_hash: secretHash(issued.challenge),
      user_id: issued.userId ?? null,
      organization_id: issued.organizationId ?? null,
      data: issued.data === undefined ? null : JSON.stringify(issued.data),
      expires_at: new Date(now.getTime() + issued.minutes * 60_000).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    })
    .execute();
}

export interface UsedChallenge {
  userId: string | null;
  organizationId: string | null;
  data: Record<string, unknown>;
}

/** Uses the challenge once: what it was issued with, or undefined when it is unknown, used, expired, or another's. */
export async function useChallenge(
  db: Db,
  clock: Clock,
  options: { purpose: ChallengePurpose; challenge: string; userId?: string },
): Promise<UsedChallenge | undefined> {
  const now = clock.now().toISOString();
  const hash = secretHash(options.challenge);
  let update = db
    .updateTable('console_challenges')
    .set({ used_at: now })
    .where('challenge_hash', '=', hash)
    .where('purpose', '=', options.purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now);
  if (options.userId !== undefined) update = update.where('user_id', '=', options.userId);
  if (Number((await update.executeTakeFirst()).numUpdatedRows) !== 1) return undefined;
  const row = await db.selectFrom('console_challenges').select(['user_id', 'organization_id', 'data']).where('challenge_hash', '=', hash).executeTakeFirst();
  if (!row) return undefined;
  const data: unknown = row.data === null ? {} : JSON.parse(row.data);
  return { userId: row.user_id, organizationId: row.organization_id, data: typeof data === 'object' && data !== null ? { ...data } : {} };
}
