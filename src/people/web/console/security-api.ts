/*
 * The console's calls for the stronger ways to sign in and the user's own passkeys and TOTP
 * (src/console/passkeys, totp, oidc). Refusals are the console's RefusedError, as in api.ts.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import type { ConsoleWordKey } from '../../words-console.js';
import { call, type Me } from './api.js';

/**
 * Why passkeys cannot be used on this page, or undefined when they can: a passkey belongs to a
 * domain name, so a console opened at an IP address (PUBLIC_URL's host) has none to offer.
 */
export function noPasskeysHere(): ConsoleWordKey | undefined {
  if (!browserSupportsWebAuthn()) return 'noWebAuthn';
  if (/^[\d.]+$/.test(location.hostname) || location.hostname.startsWith('[')) return 'noPasskeysAtAddress';
  return undefined;
}

export interface Passkey {
  id: string;
  createdAt: string;
  lastUsedAt?: string;
}

export interface TotpEnrolment {
  secret: string;
  uri: string;
  /** The QR code of the URI, a data: URL of an SVG image. */
  qr: string;
}

/** Without an e-mail the browser offers any passkey it holds for the site. */
export async function passkeySignInOptions(email?: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return (await call('/console/api/sign-in/passkey/options', email === undefined ? {} : { email })).json();
}

export async function signInWithPasskey(response: AuthenticationResponseJSON): Promise<Me> {
  return (await call('/console/api/sign-in/passkey', { response })).json();
}

/** The identity provider's sign-in page for the e-mail's organization, or null when it has no single sign-on. */
export async function oidcSignIn(email: string): Promise<string | null> {
  return ((await (await call('/console/api/sign-in/oidc', { email })).json()) as { url: string | null }).url;
}

export async function signInWithTotp(code: string): Promise<Me> {
  return (await call('/console/api/sign-in/totp', { code })).json();
}

export async function passkeys(): Promise<Passkey[]> {
  return ((await (await call('/console/api/passkeys')).json()) as { data: Passkey[] }).data;
}

export async function passkeyOptions(): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return (await call('/console/api/passkeys/options', {})).json();
}

export async function addPasskey(response: RegistrationResponseJSON): Promise<Passkey> {
  return (await call('/console/api/passkeys', { response })).json();
}

export async function removePasskey(id: string): Promise<void> {
  await call('/console/api/passkeys/remove', { id });
}

export async function totpEnabled(): Promise<boolean> {
  return ((await (await call('/console/api/totp')).json()) as { enabled: boolean }).enabled;
}

export async function enrolTotp(): Promise<TotpEnrolment> {
  return (await call('/console/api/totp/enrol', {})).json();
}

export async function confirmTotp(code: string): Promise<void> {
  await call('/console/api/totp/confirm', { code });
}
