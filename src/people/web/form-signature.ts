import type { SignatureKind } from '../contract.js';

/** A signature made in a form that signs now, waiting for its signer's page: the PNG in base64, and how it was made. */
export interface FormSignature {
  png: string;
  kind: SignatureKind;
}

const key = (signingToken: string) => `form-signature:${signingToken}`;

/**
 * Kept for this tab only (sessionStorage), under the signing link it belongs to: the form goes on to
 * that page in the same tab (or frame), which offers it once the person's identity is checked.
 */
export function keepFormSignature(signingToken: string, signature: FormSignature): void {
  try {
    sessionStorage.setItem(key(signingToken), JSON.stringify(signature));
  } catch {
    // No storage: the signing page asks for the signature again.
  }
}

/**
 * The signature made in the form for this signing link, if any. Read as often as the page draws
 * its last step (it draws it again as the person's steps change), and forgotten once they signed
 * or chose to sign another way.
 */
export function formSignatureFor(signingToken: string): FormSignature | undefined {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(key(signingToken)) ?? 'null');
    if (typeof stored !== 'object' || stored === null || !('png' in stored) || !('kind' in stored)) return undefined;
    const { png, kind } = stored;
    return typeof png === 'string' && (kind === 'draw' || kind === 'font') ? { png, kind } : undefined;
  } catch {
    return undefined;
  }
}

export function forgetFormSignature(signingToken: string): void {
  try {
    sessionStorage.removeItem(key(signingToken));
  } catch {
    // No storage: nothing was kept.
  }
}
