import { invalid } from '../../domain-error.js';
import type { TemplateBody } from '../../templates/schemas.js';
import { allowedSignatureKinds, SIGNATURE_KINDS } from '../../templates/signature-kinds.js';
import type { SignerInput } from '../schemas.js';

export type TemplateSignersResult = { ok: true; signers: SignerInput[] } | { ok: false; message: string };

/** An `identification` question's answer is the document type and the number: `CC 1084340519`. */
function splitIdentification(value: string): { identificationType: string; identification: string } | undefined {
  const match = /^(\S+)\s+(.+)$/.exec(value.trim());
  return match?.[1] && match[2] ? { identificationType: match[1].toUpperCase(), identification: match[2].trim() } : undefined;
}

/**
 * The participants of a process created from a template without `signProfile`: each entry of the
 * template's signatureProfile names the questions holding its data, and the answers supply it.
 * An identification field may list several questions with `|`; the first one answered is used.
 */
export function signersFromTemplate(body: TemplateBody, answers: Record<string, string>): TemplateSignersResult {
  const typeOf = new Map(body.config.map((q) => [q.name, q]));
  const signers: SignerInput[] = [];
  for (const profile of body.signatureProfile) {
    const answer = (question: string | undefined) => (question ? answers[question]?.trim() || undefined : undefined);
    const missing = (field: string, question: string | undefined) => ({
      ok: false as const,
      message: `SIGNER_DATA_MISSING: the template signer "${profile.type}" needs an answer for ${question ? `"${question}"` : `a "${field}" question`}`,
    });
    const name = answer(profile.name);
    if (!name) return missing('name', profile.name);
    const email = answer(profile.email);
    if (!email) return missing('email', profile.email);
    const signer: SignerInput = {
      name,
      email: email.toLowerCase(),
      role: profile.role ?? 'SIGNER',
      order: profile.order ?? 0,
      type: profile.type,
    };
    const phone = answer(profile.phone);
    if (phone) signer.phone = phone;
    if (profile.notification !== undefined) signer.notification = profile.notification;
    // The template's `files` are asked of the signer it marks `package: true` (docs/real-service.md §2.2).
    if (profile.package && body.files && body.files.length > 0)
      signer.files = body.files.map((file) => ({ name: file.name, optional: file.optional === true }));
    const identificationQuestion = profile.identification?.split('|').find((question) => answer(question) !== undefined);
    const identificationValue = answer(identificationQuestion);
    if (identificationQuestion && identificationValue) {
      const question = typeOf.get(identificationQuestion);
      const split = question?.type === 'identification' ? splitIdentification(identificationValue) : undefined;
      if (split) {
        Object.assign(signer, split, { country: (question?.country ?? profile.country ?? 'CO').toUpperCase() });
      } else {
        signer.identification = identificationValue;
        if (profile.identificationType) signer.identificationType = profile.identificationType.toUpperCase();
        if (profile.country) signer.country = profile.country.toUpperCase();
      }
    }
    signers.push(signer);
  }
  if (signers.length === 0) return { ok: false, message: 'SIGNERS_REQUIRED: the template has no signatureProfile; send "signProfile"' };
  return { ok: true, signers };
}

/**
 * What a participant of type `signerType` may sign with, kept on their row (null: any kind): the
 * kinds every template document of the process allows them (one signature goes on them all).
 */
export function keptSignatureKinds(bodies: readonly TemplateBody[], signerType: string | undefined): string | null {
  const allowed = SIGNATURE_KINDS.filter((kind) => bodies.every((body) => allowedSignatureKinds(body, signerType).includes(kind)));
  if (allowed.length === 0) throw invalid(`"signProfile" signer "${signerType}" cannot sign: the templates allow it no signature kind in common`);
  return allowed.length === SIGNATURE_KINDS.length ? null : JSON.stringify(allowed);
}
