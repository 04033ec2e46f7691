/*
 * What the audit log's route answers, as types only: the console's page imports them type-only
 * (src/people/web/console/admin-api.ts), so this module imports nothing of the server.
 */

/** One entry of the organization's console audit log. */
export interface AuditView {
  id: string;
  at: string;
  action: string;
  email: string;
  address?: string;
  detail?: Record<string, unknown>;
}
