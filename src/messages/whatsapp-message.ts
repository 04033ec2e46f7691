import type { WhatsAppTemplates } from '../config.js';
import type { WhatsAppPayload } from '../outbox/types.js';

/**
 * A business-initiated WhatsApp message: the operator's approved template when one is configured
 * for this purpose (its parameters in order), otherwise the same words as free text.
 */
export function whatsAppMessage(
  templates: WhatsAppTemplates,
  options: { to: string; purpose: Exclude<keyof WhatsAppTemplates, 'language'>; parameters: string[]; text: string },
): WhatsAppPayload {
  const name = templates[options.purpose];
  return name ? { to: options.to, template: { name, language: templates.language, parameters: options.parameters } } : { to: options.to, text: options.text };
}
