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
