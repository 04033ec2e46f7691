import type { WhatsAppAbout, WhatsAppPayload } from '../outbox/types.js';

/**
 * Meta delivers business-initiated WhatsApp messages only through approved templates: the names of
 * ours, when the operator has them approved (otherwise free text, fine for the local mailbox).
 */
export interface WhatsAppTemplates {
  /** Parameters: the person's name, the link. */
  verifaceInvitation: string | undefined;
  /** Parameters: the signer's name, the process name, the link. */
  signingInvitation: string | undefined;
  /** An authentication template; parameter: the code. */
  otpCode: string | undefined;
  language: string;
}

/**
 * A business-initiated WhatsApp message: the operator's approved template when one is configured
 * for this purpose (its parameters in order), otherwise the same words as free text. `about` says
 * whom and why it is for, in its record (src/whatsapp/records).
 */
export function whatsAppMessage(
  templates: WhatsAppTemplates,
  options: { to: string; purpose: Exclude<keyof WhatsAppTemplates, 'language'>; parameters: string[]; text: string; about: WhatsAppAbout },
): WhatsAppPayload {
  const name = templates[options.purpose];
  const { to, about } = options;
  return name ? { to, about, template: { name, language: templates.language, parameters: options.parameters } } : { to, about, text: options.text };
}
