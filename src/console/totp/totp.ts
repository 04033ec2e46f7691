import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Clock } from '../../clock.js';
import type { ServiceContext } from '../../context.js';
import type { Db } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { fail } from '../../domain-error.js';
import { normalizeEmail, OrganizationError } from '../../organizations/organizations.js';
import { findUserByEmail } from '../../organizations/queries.js';
import { recordAudit } from '../audit.js';
import * as sessionQueries from '../queries.js';
import { openSecret, sealSecret } from '../secret-at-rest.js';
import { type ConsoleUser, completeFactor, resolvePendingSession } from '../sessions.js';
import * as q from './queries.js';

/** Wrong codes a waiting session, or an enrolment, takes before it ends. */
export const MAX_TOTP_FAILURES = 5;
/** Seconds either side of now a code is accepted at: the step before and after, for a clock a little off. */
const TOLERANCE_SECONDS = 30;

/** The step a code matched at, after `lastStep`; undefined for a wrong code, or one of a step already used. */
async function matchedStep(options: { secret: string; code: string; clock: Clock; lastStep: number | null }): Promise<number | undefined> {
  const code = options.code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(code)) return undefined;
  const result = await verify({
    secret: options.secret,
    token: code,
    epoch: Math.floor(options.clock.now().getTime() / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    ...(options.lastStep === null ? {} : { afterTimeStep: options.lastStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

function lastStepOf(row: q.ConsoleTotpRow): number | null {
  return row.last_step === null ? null : Number(row.last_step);
}

/** Whether the user's sign-ins ask for a TOTP code. */
export async function totpStatus(ctx: ServiceContext, user: ConsoleUser): Promise<{ enabled: boolean }> {
  const row = await q.findTotp(ctx.db, user);
  return { enabled: row?.confirmed_at !== null && row !== undefined };
}

/**
 * A new secret for the user's authenticator app, shown this once: as text, as an otpauth URI and
 * as its QR code. Nothing changes at sign-in until a first code confirms it (confirmTotp).
 */
export async function startTotp(ctx: ServiceContext, user: ConsoleUser): Promise<{ secret: string; uri: string; qr: string }> {
  const found = await sessionQueries.findConsoleUser(ctx.db, user);
  if (!found) throw fail('CONSOLE_SIGN_IN_REQUIRED');
  if ((await q.findTotp(ctx.db, user))?.confirmed_at) throw fail('CONSOLE_TOTP_ALREADY_ON');
  const secret = generateSecret();
  const uri = generateURI({ issuer: found.organization_name, label: found.email, secret });
  await withTransaction(ctx, (trx) =>
    q.replaceUnconfirmedTotp(trx, {
      user_id: user.userId,
      organization_id: user.organizationId,
      secret: sealSecret(ctx.dataKey, { totpOf: user.userId }, secret),
      confirmed_at: null,
      last_step: null,
      failures: 0,
      created_at: ctx.clock.now().toISOString(),
    }),
  );
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, uri, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** The first code from the app turns TOTP on; MAX_TOTP_FAILURES wrong ones drop the enrolment. */
export async function confirmTotp(ctx: ServiceContext, user: ConsoleUser, options: { code: string; address: string }): Promise<{ enabled: true }> {
  const row = await q.findTotp(ctx.db, user);
  if (!row || row.confirmed_at !== null) throw fail('CONSOLE_TOTP_NOT_STARTED');
  const secret = openSecret(ctx.dataKey, { totpOf: user.userId }, row.secret);
  const step = secret === undefined ? undefined : await matchedStep({ secret, code: options.code, clock: ctx.clock, lastStep: lastStepOf(row) });
  const now = ctx.clock.now().toISOString();
  if (step !== undefined && (await q.useTimeStep(ctx.db, { userId: user.userId, step, confirmedAt: now }))) {
    await recordAudit(ctx.db, ctx.clock, {
      organizationId: user.organizationId,
      userId: user.userId,
      email: user.email,
      action: 'TOTP_ENROLLED',
      address: options.address,
    });
    return { enabled: true };
  }
  if ((await q.countEnrolmentFailure(ctx.db, user.userId)) >= MAX_TOTP_FAILURES) await q.deleteTotp(ctx.db, user);
  throw fail('CONSOLE_TOTP_INVALID');
}

/**
 * The second factor of a waiting session: the code opens it once. A code (or any code of an earlier
 * step) already used opens nothing, and MAX_TOTP_FAILURES wrong codes end the session.
 */
export async function signInWithTotp(
  ctx: ServiceContext,
  options: { token: string | undefined; code: string; address: string },
): Promise<{ user: { email: string; role: ConsoleUser['role']; organization: { id: string; name: string } }; token: string; maxAgeSeconds: number }> {
  const session = options.token === undefined ? undefined : await resolvePendingSession(ctx.db, ctx.clock, options.token);
  if (!session || options.token === undefined) throw fail('CONSOLE_SECOND_FACTOR_OVER');
  const [row, user] = await Promise.all([q.findTotp(ctx.db, session), sessionQueries.findConsoleUser(ctx.db, session)]);
  if (!row?.confirmed_at || !user) throw fail('CONSOLE_SECOND_FACTOR_OVER');
  const secret = openSecret(ctx.dataKey, { totpOf: session.userId }, row.secret);
  const step = secret === undefined ? undefined : await matchedStep({ secret, code: options.code, clock: ctx.clock, lastStep: lastStepOf(row) });
  const audit = { organizationId: session.organizationId, userId: session.userId, email: session.email, address: options.address };
  const opened = await withTransaction(ctx, async (trx) => {
    if (step === undefined || !(await q.useTimeStep(trx, { userId: session.userId, step }))) {
      const ended = await sessionQueries.countFactorFailure(trx, { id: session.sessionId, now: ctx.clock.now().toISOString(), maxFailures: MAX_TOTP_FAILURES });
      await recordAudit(trx, ctx.clock, { ...audit, action: 'SIGN_IN_REFUSED', detail: { method: 'totp', reason: 'wrong or used code' } });
      return ended ? 'over' : 'wrong';
    }
    const completed = await completeFactor(trx, ctx.clock, session.sessionId);
    await recordAudit(trx, ctx.clock, { ...audit, action: 'SIGN_IN', detail: { method: 'totp' } });
    return completed;
  });
  if (opened === 'over') throw fail('CONSOLE_SECOND_FACTOR_OVER');
  if (opened === 'wrong') throw fail('CONSOLE_TOTP_INVALID');
  return {
    user: { email: user.email, role: user.role, organization: { id: user.organization_id, name: user.organization_name } },
    token: opened.token,
    maxAgeSeconds: opened.maxAgeSeconds,
  };
}

/** The admin command's recovery: the user signs in without TOTP again, and may enrol anew. */
export async function resetTotp(db: Db, clock: Clock, options: { organizationId: string; email: string }): Promise<{ email: string; totpReset: boolean }> {
  const email = normalizeEmail(options.email);
  const user = await findUserByEmail(db, options.organizationId, email);
  if (!user) throw new OrganizationError('USER_NOT_FOUND');
  const removed = await q.deleteTotp(db, { userId: user.id, organizationId: options.organizationId });
  if (removed) {
    await recordAudit(db, clock, {
      organizationId: options.organizationId,
      userId: user.id,
      email,
      action: 'TOTP_RESET',
      detail: { by: 'admin command' },
      address: 'admin command',
    });
  }
  return { email, totpReset: removed };
}
