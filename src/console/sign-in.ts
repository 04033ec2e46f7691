import crypto from 'node:crypto';
import type { ServiceContext } from '../context.js';
import type { Db, UserRole } from '../db/schema.js';
import { withTransaction } from '../db/transaction.js';
import { fail } from '../domain-error.js';
import { newObjectId, newToken } from '../ids.js';
import { templatedEmail } from '../messages/message-templates.js';
import { normalizeEmail } from '../organizations/organizations.js';
import { languageOfPerson } from '../organizations/settings.js';
import { enqueue } from '../outbox/enqueue.js';
import { recordAudit } from './audit.js';
import * as q from './queries.js';
import { secretHash, startSession } from './sessions.js';
import { hasConfirmedTotp } from './totp/queries.js';

/** A sign-in e-mail's link and code work once, for this long. */
export const SIGN_IN_MINUTES = 15;
/** Wrong codes typed against the e-mail's open sign-ins before they open nothing. */
export const MAX_CODE_FAILURES = 5;
/** Sign-in e-mails one address receives at most in SIGN_IN_MINUTES: nobody can flood a user's inbox from the page. */
export const SIGN_INS_PER_EMAIL = 3;

/** The link's token: 32 random bytes in base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Salted with the sign-in's id, so that one stored hash says nothing of another's code. */
function codeHash(signInId: string, code: string): string {
  return secretHash(`${signInId}:${code}`);
}

function sameHash(stored: string, given: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(given, 'hex');
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** The console's address with the token in its fragment: browsers send a fragment to no server, log or Referer. */
export function signInLink(publicUrl: string, token: string): string {
  return `${publicUrl}/console#sign-in=${token}`;
}

/** The outbox job that looks the e-mail up and sends its sign-ins (sendSignIns). */
export const CONSOLE_SIGN_IN_JOB = 'console-sign-in';

/**
 * Asks for the sign-in e-mails: one job queued, whatever the e-mail, so the answer and its time are
 * the same for an e-mail no user has. At most one job waits per e-mail (a burst of requests makes
 * one), and the jobs of one e-mail never run side by side, so its limit is counted exactly.
 */
export async function requestSignIn(ctx: ServiceContext, options: { email: string; address: string }): Promise<{ sent: true }> {
  const email = normalizeEmail(options.email);
  await withTransaction(ctx, (trx) =>
    enqueue(trx, ctx.clock, [
      {
        kind: 'job',
        organizationId: null,
        payload: { name: CONSOLE_SIGN_IN_JOB, data: { email, address: options.address } },
        dedupeKey: `${CONSOLE_SIGN_IN_JOB}:${email}`,
      },
    ]),
  );
  return { sent: true };
}

/**
 * Sends each user going by this e-mail (one per organization) a link and a code, in the language
 * the user chose for the console, else the organization's; past SIGN_INS_PER_EMAIL in SIGN_IN_MINUTES nothing more is sent.
 */
export async function sendSignIns(ctx: ServiceContext, options: { email: string; address: string }): Promise<void> {
  const email = normalizeEmail(options.email);
  const users = await q.findUsersByEmail(ctx.db, email);
  if (users.length === 0) return;
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - SIGN_IN_MINUTES * 60_000).toISOString();
  const limited = (await q.countSignInsSince(ctx.db, email, since)) >= SIGN_INS_PER_EMAIL * users.length;
  const outgoing = await Promise.all(
    users.map(async (user) => ({
      user,
      language: await languageOfPerson(ctx.db, user.organization_id, user.language),
      token: newToken(32),
      id: newObjectId(now),
    })),
  );
  await withTransaction(ctx, async (trx) => {
    for (const { user, language, token, id } of outgoing) {
      if (!limited) {
        const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
        await q.insertSignIn(trx, {
          id,
          user_id: user.id,
          organization_id: user.organization_id,
          email,
          token_hash: secretHash(token),
          code_hash: codeHash(id, code),
          failures: 0,
          expires_at: new Date(now.getTime() + SIGN_IN_MINUTES * 60_000).toISOString(),
          used_at: null,
          created_at: now.toISOString(),
        });
        const variables = { organization: user.organization_name, link: signInLink(ctx.publicUrl, token), code, minutes: SIGN_IN_MINUTES };
        await enqueue(trx, ctx.clock, [
          { kind: 'email', organizationId: user.organization_id, payload: templatedEmail(email, 'console-sign-in', variables, language) },
        ]);
      }
      await recordAudit(trx, ctx.clock, {
        organizationId: user.organization_id,
        userId: user.id,
        email,
        action: 'SIGN_IN_REQUESTED',
        ...(limited ? { detail: { sent: 0, reason: 'too many sign-in e-mails to this address' } } : {}),
        address: options.address,
      });
    }
  });
}

/** Who signed in, as the console shows it; `secondFactor` while the session waits for the user's TOTP code. */
export interface SignedIn {
  email: string;
  role: UserRole;
  organization: { id: string; name: string };
  secondFactor?: 'totp';
}

export interface NewSession {
  user: SignedIn;
  token: string;
  maxAgeSeconds: number;
}

/** How a user proved who they are: the e-mailed link or code, a passkey, or the organization's OpenID Connect provider. */
export type SignInMethod = 'link' | 'code' | 'passkey' | 'oidc';

/**
 * The session of a user who proved who they are one way. A user with TOTP turned on gets a session
 * that waits for the code (the e-mail or the identity provider is one factor) except after a
 * passkey, which the authenticator unlocked with the user's PIN or biometrics: two factors already.
 */
export async function beginSession(
  trx: Db,
  ctx: ServiceContext,
  options: { user: q.ConsoleUserRow; method: SignInMethod; address: string },
): Promise<NewSession> {
  const { user, method } = options;
  const pending = method !== 'passkey' && (await hasConfirmedTotp(trx, user.id));
  const session = await startSession(trx, ctx.clock, { userId: user.id, organizationId: user.organization_id, ...(pending ? { pendingFactor: 'totp' } : {}) });
  await recordAudit(trx, ctx.clock, {
    organizationId: user.organization_id,
    userId: user.id,
    email: user.email,
    action: pending ? 'SIGN_IN_STARTED' : 'SIGN_IN',
    detail: pending ? { method, waitsFor: 'totp' } : { method },
    address: options.address,
  });
  return {
    user: {
      email: user.email,
      role: user.role,
      organization: { id: user.organization_id, name: user.organization_name },
      ...(pending ? { secondFactor: 'totp' } : {}),
    },
    ...session,
  };
}

async function openSession(ctx: ServiceContext, signIn: q.ConsoleSignInRow, method: 'link' | 'code', address: string): Promise<NewSession | undefined> {
  const user = (await q.findUsersByEmail(ctx.db, signIn.email)).find((u) => u.id === signIn.user_id);
  if (!user) return undefined;
  return withTransaction(ctx, async (trx) => {
    const now = ctx.clock.now().toISOString();
    if (!(await q.useSignIn(trx, { id: signIn.id, now, maxFailures: MAX_CODE_FAILURES }))) return undefined;
    return beginSession(trx, ctx, { user, method, address });
  });
}

/** The e-mailed link's token, once: a session, or CONSOLE_SIGN_IN_INVALID whatever is wrong with it. */
export async function signInWithLink(ctx: ServiceContext, options: { token: string; address: string }): Promise<NewSession> {
  const signIn = TOKEN_PATTERN.test(options.token) ? await q.findSignInByToken(ctx.db, secretHash(options.token)) : undefined;
  const session = signIn === undefined ? undefined : await openSession(ctx, signIn, 'link', options.address);
  if (session) return session;
  if (signIn !== undefined) {
    await recordAudit(ctx.db, ctx.clock, {
      organizationId: signIn.organization_id,
      userId: signIn.user_id,
      email: signIn.email,
      action: 'SIGN_IN_REFUSED',
      detail: { method: 'link', reason: 'used, expired or worn out' },
      address: options.address,
    });
  }
  throw fail('CONSOLE_SIGN_IN_INVALID');
}

/**
 * The e-mailed code, typed with the e-mail on another device. Each wrong code counts against every
 * sign-in the e-mail has open, and MAX_CODE_FAILURES wears them out: with six digits, guessing
 * takes far more tries than the e-mails one address can be sent.
 */
export async function signInWithCode(ctx: ServiceContext, options: { email: string; code: string; address: string }): Promise<NewSession> {
  const email = normalizeEmail(options.email);
  const now = ctx.clock.now().toISOString();
  const open = await q.findOpenSignIns(ctx.db, { email, now, maxFailures: MAX_CODE_FAILURES });
  const code = options.code.trim();
  const match = open.find((signIn) => sameHash(signIn.code_hash, codeHash(signIn.id, code)));
  const session = match === undefined ? undefined : await openSession(ctx, match, 'code', options.address);
  if (session) return session;
  if (open.length > 0) {
    await withTransaction(ctx, async (trx) => {
      await q.countCodeFailure(
        trx,
        open.map((signIn) => signIn.id),
      );
      for (const organizationId of new Set(open.map((signIn) => signIn.organization_id))) {
        const signIn = open.find((s) => s.organization_id === organizationId);
        await recordAudit(trx, ctx.clock, {
          organizationId,
          userId: signIn?.user_id ?? null,
          email,
          action: 'SIGN_IN_REFUSED',
          detail: { method: 'code', reason: 'wrong code' },
          address: options.address,
        });
      }
    });
  }
  throw fail('CONSOLE_SIGN_IN_INVALID');
}
