import crypto from 'node:crypto';
import * as client from 'openid-client';
import type { ServiceContext } from '../../context.js';
import type { OrganizationRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { fail } from '../../domain-error.js';
import { newToken } from '../../ids.js';
import { normalizeEmail } from '../../organizations/organizations.js';
import { findOrganization } from '../../organizations/queries.js';
import { recordAudit } from '../audit.js';
import { issueChallenge, useChallenge } from '../challenges.js';
import { isPlainLoopback } from '../cookie.js';
import { findOrganizationUser, findUsersByEmail } from '../queries.js';
import { openSecret } from '../secret-at-rest.js';
import { secretHash } from '../sessions.js';
import { beginSession, type NewSession } from '../sign-in.js';

/** An OpenID Connect sign-in's state answers once, within this long. */
export const OIDC_MINUTES = 10;

/** Where the identity provider sends the browser back: the one redirect URI an organization registers there. */
export function oidcCallbackUrl(publicUrl: string): string {
  return `${publicUrl}/console/api/sign-in/oidc/callback`;
}

interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** The organization's provider; none when its client secret does not open with this data key (a key changed since). */
function settingsOf(dataKey: Buffer, row: OrganizationRow | undefined): OidcSettings | undefined {
  if (!row?.oidc_issuer || !row.oidc_client_id || !row.oidc_client_secret) return undefined;
  const clientSecret = openSecret(dataKey, { oidcOf: row.id }, row.oidc_client_secret);
  return clientSecret === undefined ? undefined : { issuer: row.oidc_issuer, clientId: row.oidc_client_id, clientSecret };
}

/** The provider's configuration, by its discovery document; plain http only for a provider on this machine. */
async function providerOf(settings: OidcSettings): Promise<client.Configuration> {
  const issuer = new URL(settings.issuer);
  return client.discovery(
    issuer,
    settings.clientId,
    settings.clientSecret,
    undefined,
    isPlainLoopback(issuer) ? { execute: [client.allowInsecureRequests] } : {},
  );
}

/**
 * Starts single sign-on for the e-mail: when one of its users' organizations has an OpenID Connect
 * provider, the provider's authorization URL (code flow with PKCE, state and nonce), and the value
 * of the cookie that ties the sign-in to this browser; `url: null` otherwise.
 */
export async function startOidcSignIn(ctx: ServiceContext, options: { email: string; address: string }): Promise<{ url: string | null; binding?: string }> {
  const email = normalizeEmail(options.email);
  for (const user of await findUsersByEmail(ctx.db, email)) {
    const settings = settingsOf(ctx.dataKey, await findOrganization(ctx.db, user.organization_id));
    if (!settings) continue;
    const provider = await providerOf(settings).catch(() => undefined);
    if (!provider) continue;
    const state = client.randomState();
    const nonce = client.randomNonce();
    const verifier = client.randomPKCECodeVerifier();
    const binding = newToken(32);
    await issueChallenge(ctx.db, ctx.clock, {
      purpose: 'oidc',
      challenge: state,
      minutes: OIDC_MINUTES,
      organizationId: user.organization_id,
      data: { verifier, nonce, binding: secretHash(binding) },
    });
    const url = client.buildAuthorizationUrl(provider, {
      redirect_uri: oidcCallbackUrl(ctx.publicUrl),
      scope: 'openid email',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      login_hint: email,
    });
    return { url: url.href, binding };
  }
  return { url: null };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/**
 * The identity provider's redirect back: the state must be one this service issued, unused, to this
 * browser; the code is exchanged with the PKCE verifier, the ID token's nonce checked by the library,
 * and its verified e-mail must be a user of the organization whose provider it is. Nobody is made a
 * user by signing in: the organization's users are the ones its admins added.
 */
export async function finishOidcSignIn(ctx: ServiceContext, options: { callbackUrl: URL; binding: string | undefined; address: string }): Promise<NewSession> {
  const state = options.callbackUrl.searchParams.get('state');
  const issued = state === null ? undefined : await useChallenge(ctx.db, ctx.clock, { purpose: 'oidc', challenge: state });
  const { verifier, nonce, binding } = issued?.data ?? {};
  const organization = issued?.organizationId ? await findOrganization(ctx.db, issued.organizationId) : undefined;
  const settings = settingsOf(ctx.dataKey, organization);
  if (
    state === null ||
    !organization ||
    !settings ||
    typeof verifier !== 'string' ||
    typeof nonce !== 'string' ||
    typeof binding !== 'string' ||
    options.binding === undefined ||
    !sameText(binding, secretHash(options.binding))
  ) {
    throw fail('CONSOLE_SIGN_IN_INVALID');
  }
  const refuse = async (reason: string, email: string): Promise<never> => {
    await recordAudit(ctx.db, ctx.clock, {
      organizationId: organization.id,
      userId: null,
      email,
      action: 'SIGN_IN_REFUSED',
      detail: { method: 'oidc', reason },
      address: options.address,
    });
    throw fail('CONSOLE_SIGN_IN_INVALID');
  };
  const claims = await providerOf(settings)
    .then((provider) =>
      client.authorizationCodeGrant(provider, options.callbackUrl, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      }),
    )
    .then((tokens) => tokens.claims())
    .catch((error: unknown) => (error instanceof Error ? error.message : 'refused'));
  if (typeof claims === 'string' || claims === undefined) return refuse(`the provider's answer does not check out: ${String(claims).slice(0, 160)}`, '');
  const email = typeof claims.email === 'string' ? normalizeEmail(claims.email) : '';
  if (email === '' || claims.email_verified !== true) return refuse('no verified e-mail in the ID token', email);
  const user = await findOrganizationUser(ctx.db, { email, organizationId: organization.id });
  if (!user) return refuse('no user of the organization goes by this e-mail', email);
  return withTransaction(ctx, (trx) => beginSession(trx, ctx, { user, method: 'oidc', address: options.address }));
}
