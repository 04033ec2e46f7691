import crypto from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Db, UserRole } from '../db/schema.js';
import { newObjectId, newToken } from '../ids.js';
import * as q from './queries.js';

/** A session ends after this long without a request, and in any case this long after sign-in. */
export const SESSION_IDLE_MINUTES = 60;
export const SESSION_HOURS = 12;
/** The last use is written at most this often: a page's burst of requests writes once. */
const TOUCH_EVERY_MS = 60_000;

/** 32 random bytes in base64url: the only shape a session's token has. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Who a console request is from, as its session says. */
export interface ConsoleUser {
  sessionId: string;
  userId: string;
  organizationId: string;
  email: string;
  role: UserRole;
}

/** Tokens, links and codes are kept only as this: a copy of the database opens nothing. */
export function secretHash(secret: string): string {
  return crypto.createHash('sha256').update(secret).digest('hex');
}

/** A session waiting for its second factor lasts this long, and opens nothing until the code is typed. */
export const PENDING_FACTOR_MINUTES = 5;

/**
 * A new session. With `pendingFactor` it is only half open: it opens nothing until the user's
 * second factor completes it (completeFactor), and ends after PENDING_FACTOR_MINUTES otherwise.
 */
export async function startSession(
  db: Db,
  clock: Clock,
  user: { userId: string; organizationId: string; pendingFactor?: 'totp' },
): Promise<{ token: string; maxAgeSeconds: number }> {
  const now = clock.now();
  const token = newToken(32);
  const seconds = user.pendingFactor === undefined ? SESSION_HOURS * 3600 : PENDING_FACTOR_MINUTES * 60;
  await q.insertSession(db, {
    id: newObjectId(now),
    token_hash: secretHash(token),
    user_id: user.userId,
    organization_id: user.organizationId,
    last_seen_at: now.toISOString(),
    expires_at: new Date(now.getTime() + seconds * 1000).toISOString(),
    ended_at: null,
    pending_factor: user.pendingFactor ?? null,
    factor_failures: 0,
    created_at: now.toISOString(),
  });
  return { token, maxAgeSeconds: seconds };
}

/** The session of a token that waits for its second factor, unexpired; undefined for anything else. */
export async function resolvePendingSession(db: Db, clock: Clock, token: string): Promise<(ConsoleUser & { factorFailures: number }) | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const found = await q.findPendingSession(db, { tokenHash: secretHash(token), now: clock.now().toISOString() });
  if (!found) return undefined;
  return {
    sessionId: found.id,
    userId: found.user_id,
    organizationId: found.organization_id,
    email: found.email,
    role: found.role,
    factorFailures: found.factor_failures,
  };
}

/**
 * The second factor was given: the session opens, for SESSION_HOURS from now, under a new token.
 * The waiting token was set before the second factor and may have been seen with it (a shared
 * machine, a planted cookie): replacing it leaves whoever holds the old one with nothing.
 */
export async function completeFactor(db: Db, clock: Clock, sessionId: string): Promise<{ token: string; maxAgeSeconds: number }> {
  const now = clock.now();
  const token = newToken(32);
  await q.completeSessionFactor(db, {
    id: sessionId,
    tokenHash: secretHash(token),
    now: now.toISOString(),
    expiresAt: new Date(now.getTime() + SESSION_HOURS * 3_600_000).toISOString(),
  });
  return { token, maxAgeSeconds: SESSION_HOURS * 3600 };
}

/** The user of an open session, its last use moved forward; undefined for anything else. */
export async function resolveSession(db: Db, clock: Clock, token: string): Promise<ConsoleUser | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const now = clock.now();
  const found = await q.findOpenSession(db, {
    tokenHash: secretHash(token),
    now: now.toISOString(),
    idleSince: new Date(now.getTime() - SESSION_IDLE_MINUTES * 60_000).toISOString(),
  });
  if (!found) return undefined;
  if (now.getTime() - Date.parse(found.last_seen_at) >= TOUCH_EVERY_MS) await q.touchSession(db, found.id, now.toISOString());
  return { sessionId: found.id, userId: found.user_id, organizationId: found.organization_id, email: found.email, role: found.role };
}

export async function endSession(db: Db, clock: Clock, sessionId: string): Promise<void> {
  await q.endSession(db, sessionId, clock.now().toISOString());
}
