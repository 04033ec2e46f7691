import type { TemplateBody } from '../../templates/schemas.js';

/**
 * Who fills the form among the template's signers: the one whose signature the template asks in
 * the form (`signatureProfile[].signature`, the real service's "sign now" convention), else the first.
 */
export function fillerPosition(body: TemplateBody): number {
  const signing = body.signatureProfile.findIndex((profile) => profile.signature !== undefined);
  return signing === -1 ? 0 : signing;
}
