import type { Question, TemplateBody } from './schemas.js';

/** How a person signs: `draw`, with a finger, pen or mouse; `font`, their name typed and shown in a handwriting-like font. */
export const SIGNATURE_KINDS = ['draw', 'font'] as const;
export type SignatureKind = (typeof SIGNATURE_KINDS)[number];

/** The kinds a `signature` question lets people use (docs/real-service.md §2.3 `allow`): both when it says nothing. */
export function questionSignatureKinds(question: Pick<Question, 'allow'> | undefined): SignatureKind[] {
  const allow = question?.allow;
  return SIGNATURE_KINDS.filter((kind) => allow === undefined || allow.includes(kind));
}

/**
 * The kinds the template lets the signer of profile `signerType` use: those of the `signature`
 * question their profile points to (§2.4 `signatureProfile[].signature`), both when their profile
 * points to none or the signer is not one of the template's profiles.
 */
export function allowedSignatureKinds(body: Pick<TemplateBody, 'config' | 'signatureProfile'>, signerType: string | null | undefined): SignatureKind[] {
  const profile = signerType == null ? undefined : body.signatureProfile.find((p) => p.type === signerType);
  const question = profile?.signature === undefined ? undefined : body.config.find((q) => q.name === profile.signature && q.type === 'signature');
  return questionSignatureKinds(question);
}
