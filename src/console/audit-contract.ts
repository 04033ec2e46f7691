/*
 * What the audit log records and what its route answers: the console's page imports them (the
 * actions' words, src/people/words-console-audit.ts; src/people/web/console/admin-api.ts), so this
 * module imports nothing of the server.
 */

/**
 * What the console's audit log records: each sign-in asked for, started (the first factor given, the
 * TOTP code awaited), made or refused, each sign-out, each refusal of an admin's route to another
 * role, each passkey added or removed and each TOTP enrolment or reset, every change made from the
 * console (templates, reference links, resends, keys, settings) and each decision taken there (a
 * review, a process cancelled, reminded or reactivated), with who made it; each refusal of a change
 * to a viewer; and each view of identity data (a photo, an ID number, a phone: identity-views.ts)
 * and each refusal of it to a sender or a viewer.
 */
export const CONSOLE_ACTIONS = [
  'SIGN_IN_REQUESTED',
  'SIGN_IN_STARTED',
  'SIGN_IN',
  'SIGN_IN_REFUSED',
  'SIGN_OUT',
  'ADMIN_REQUIRED',
  'TEMPLATE_CREATED',
  'TEMPLATE_UPDATED',
  'REFERENCE_CREATED',
  'REFERENCE_UPDATED',
  'DELIVERY_RESENT',
  'KEY_CREATED',
  'KEY_REVOKED',
  'SETTINGS_CHANGED',
  'REVIEW_DECIDED',
  'PROCESS_CANCELLED',
  'PARTICIPANT_REMINDED',
  'PROCESS_REACTIVATED',
  'PASSKEY_ADDED',
  'PASSKEY_REMOVED',
  'TOTP_ENROLLED',
  'TOTP_RESET',
  'REVIEWER_REQUIRED',
  'SENDER_REQUIRED',
  'PHOTO_VIEWED',
  'IDENTITY_VIEWED',
] as const;
export type ConsoleAction = (typeof CONSOLE_ACTIONS)[number];

/** One entry of the organization's console audit log. */
export interface AuditView {
  id: string;
  at: string;
  action: string;
  email: string;
  address?: string;
  detail?: Record<string, unknown>;
}
