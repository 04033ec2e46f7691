import crypto from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { ServiceContext } from '../../context.js';
import { parseJson } from '../../db/json-column.js';
import { withTransaction } from '../../db/transaction.js';
import { fail } from '../../domain-error.js';
import { newObjectId } from '../../ids.js';
import { normalizeEmail } from '../../organizations/organizations.js';
import { recordAudit } from '../audit.js';
import { issueChallenge, useChallenge } from '../challenges.js';
import { findConsoleUser } from '../queries.js';
import type { ConsoleUser } from '../sessions.js';
import { beginSession, type NewSession } from '../sign-in.js';
import * as q from './queries.js';

/** A passkey's challenge answers once, within this long. */
export const PASSKEY_CHALLENGE_MINUTES = 5;

type Transport = NonNullable<RegistrationResponseJSON['response']['transports']>[number];

/** The site passkeys belong to: PUBLIC_URL's host (its RP ID) and its origin, the only one a passkey answers. */
function relyingParty(publicUrl: string): { id: string; origin: string } {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin };
}

function transportsOf(row: q.PasskeyRow): Transport[] {
  return parseJson<Transport[]>(row.transports) ?? [];
}

export interface PasskeyView {
  id: string;
  createdAt: string;
  lastUsedAt?: string;
}

function view(row: q.PasskeyRow): PasskeyView {
  return { id: row.id, createdAt: row.created_at, ...(row.last_used_at === null ? {} : { lastUsedAt: row.last_used_at }) };
}

export async function listPasskeys(ctx: ServiceContext, user: ConsoleUser): Promise<{ data: PasskeyView[] }> {
  return { data: (await q.listUserPasskeys(ctx.db, user)).map(view) };
}

/**
 * What the browser needs to make a passkey for the signed-in user: a discoverable credential the
 * authenticator unlocks with the user's PIN or biometrics (so it is a second factor in itself), not
 * one it holds already. Its user handle is the user's id, of one organization.
 */
export async function passkeyRegistrationOptions(ctx: ServiceContext, user: ConsoleUser): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const found = await findConsoleUser(ctx.db, user);
  if (!found) throw fail('CONSOLE_SIGN_IN_REQUIRED');
  const existing = await q.listUserPasskeys(ctx.db, user);
  const options = await generateRegistrationOptions({
    rpName: found.organization_name,
    rpID: relyingParty(ctx.publicUrl).id,
    userName: found.email,
    userID: new TextEncoder().encode(user.userId),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await issueChallenge(ctx.db, ctx.clock, {
    purpose: 'passkey-add',
    challenge: options.challenge,
    minutes: PASSKEY_CHALLENGE_MINUTES,
    userId: user.userId,
    organizationId: user.organizationId,
  });
  return options;
}

export async function addPasskey(
  ctx: ServiceContext,
  user: ConsoleUser,
  options: { response: RegistrationResponseJSON; address: string },
): Promise<PasskeyView> {
  const rp = relyingParty(ctx.publicUrl);
  const verified = await verifyRegistrationResponse({
    response: options.response,
    expectedChallenge: async (challenge) => (await useChallenge(ctx.db, ctx.clock, { purpose: 'passkey-add', challenge, userId: user.userId })) !== undefined,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  }).catch(() => undefined);
  if (!verified?.verified) throw fail('CONSOLE_PASSKEY_INVALID');
  const { credential } = verified.registrationInfo;
  const now = ctx.clock.now();
  const row: q.PasskeyRow = {
    id: newObjectId(now),
    credential_id: credential.id,
    user_id: user.userId,
    organization_id: user.organizationId,
    public_key: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: JSON.stringify(credential.transports ?? []),
    last_used_at: null,
    created_at: now.toISOString(),
  };
  await withTransaction(ctx, async (trx) => {
    if (await q.findPasskeyByCredential(trx, credential.id)) throw fail('CONSOLE_PASSKEY_INVALID');
    await q.insertPasskey(trx, { ...row, counter: credential.counter });
    await recordAudit(trx, ctx.clock, {
      organizationId: user.organizationId,
      userId: user.userId,
      email: user.email,
      action: 'PASSKEY_ADDED',
      detail: { passkey: row.id },
      address: options.address,
    });
  });
  return view(row);
}

export async function removePasskey(ctx: ServiceContext, user: ConsoleUser, options: { id: string; address: string }): Promise<{ removed: true }> {
  await withTransaction(ctx, async (trx) => {
    if (!(await q.deletePasskey(trx, { id: options.id, userId: user.userId, organizationId: user.organizationId }))) throw fail('CONSOLE_PASSKEY_NOT_FOUND');
    await recordAudit(trx, ctx.clock, {
      organizationId: user.organizationId,
      userId: user.userId,
      email: user.email,
      action: 'PASSKEY_REMOVED',
      detail: { passkey: options.id },
      address: options.address,
    });
  });
  return { removed: true };
}

/**
 * A credential id for an e-mail without passkeys, the same on every call (a keyed hash of the e-mail):
 * the options of an e-mail with passkeys and of one without look alike, so they tell nobody which
 * e-mails have an account.
 */
function standInCredential(ctx: ServiceContext, email: string): string {
  return crypto.createHmac('sha256', ctx.dataKey).update(`console-passkey:${email}`).digest().subarray(0, 32).toString('base64url');
}

/**
 * The sign-in's challenge. Without an e-mail the browser offers the passkeys it holds for the site
 * (discoverable credentials); with one, those of the users going by it.
 */
export async function passkeySignInOptions(ctx: ServiceContext, options: { email?: string }): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const email = options.email === undefined ? undefined : normalizeEmail(options.email);
  const known = email === undefined ? [] : await q.listPasskeysOfEmail(ctx.db, email);
  const allowCredentials =
    email === undefined
      ? undefined
      : known.length > 0
        ? known.map((row) => ({ id: row.credential_id, transports: transportsOf(row) }))
        : [{ id: standInCredential(ctx, email), transports: ['internal' as const, 'hybrid' as const] }];
  const request = await generateAuthenticationOptions({
    rpID: relyingParty(ctx.publicUrl).id,
    userVerification: 'required',
    ...(allowCredentials ? { allowCredentials } : {}),
  });
  await issueChallenge(ctx.db, ctx.clock, { purpose: 'passkey-sign-in', challenge: request.challenge, minutes: PASSKEY_CHALLENGE_MINUTES });
  return request;
}

/**
 * Signs in with a passkey: the credential must be known, its user handle its user's, the challenge
 * one this service issued and not yet used, the signature good, and its counter past the stored one
 * (a cloned authenticator's shows up as a counter that went back). The passkey's user, of its
 * organization, is who signs in: a passkey never opens another organization's user.
 */
export async function signInWithPasskey(ctx: ServiceContext, options: { response: AuthenticationResponseJSON; address: string }): Promise<NewSession> {
  const passkey = await q.findPasskeyByCredential(ctx.db, options.response.id);
  const handle = options.response.response.userHandle;
  const sameUser = passkey !== undefined && (handle === undefined || Buffer.from(handle, 'base64url').toString('utf8') === passkey.user_id);
  const user = passkey && sameUser ? await findConsoleUser(ctx.db, { userId: passkey.user_id, organizationId: passkey.organization_id }) : undefined;
  if (!passkey || !user) throw fail('CONSOLE_SIGN_IN_INVALID');
  const rp = relyingParty(ctx.publicUrl);
  const counter = Number(passkey.counter);
  const verified = await verifyAuthenticationResponse({
    response: options.response,
    expectedChallenge: async (challenge) => (await useChallenge(ctx.db, ctx.clock, { purpose: 'passkey-sign-in', challenge })) !== undefined,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: passkey.credential_id,
      publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
      counter,
      transports: transportsOf(passkey),
    },
    requireUserVerification: true,
  }).catch((error: unknown) => (error instanceof Error ? error.message : 'refused'));
  const session =
    typeof verified === 'string' || !verified.verified
      ? undefined
      : await withTransaction(ctx, async (trx) => {
          const now = ctx.clock.now().toISOString();
          if (!(await q.usePasskey(trx, { id: passkey.id, from: counter, to: verified.authenticationInfo.newCounter, now }))) return undefined;
          return beginSession(trx, ctx, { user, method: 'passkey', address: options.address });
        });
  if (session) return session;
  await recordAudit(ctx.db, ctx.clock, {
    organizationId: user.organization_id,
    userId: user.id,
    email: user.email,
    action: 'SIGN_IN_REFUSED',
    detail: { method: 'passkey', reason: typeof verified === 'string' ? verified.slice(0, 200) : 'not verified' },
    address: options.address,
  });
  throw fail('CONSOLE_SIGN_IN_INVALID');
}
