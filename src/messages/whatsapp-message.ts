import type { WhatsAppAbout, WhatsAppPayload } from '../outbox/types.js';
import type { WhatsAppTemplates } from '../whatsapp/message/approved-templates.js';

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
