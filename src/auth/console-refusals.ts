import type { ConsoleAction } from '../console/audit-contract.js';
import type { ErrorCode } from '../error-catalogue.js';
import type { Permission, RefusablePermission } from '../organizations/user-roles.js';

/** What a console route answers, and the audit log records, when the user's role lacks the permission it wants. */
export interface RoleRefusal {
  readonly code: ErrorCode;
  readonly action: ConsoleAction;
}

/**
 * One refusal per permission some role lacks, named by the least role that holds it; a permission
 * every role holds is never refused, and one that stops being so wants its line here.
 */
export const ROLE_REFUSALS: Readonly<Record<RefusablePermission, RoleRefusal>> = {
  'processes.write': { code: 'CONSOLE_SENDER_REQUIRED', action: 'SENDER_REQUIRED' },
  'templates.write': { code: 'CONSOLE_SENDER_REQUIRED', action: 'SENDER_REQUIRED' },
  'identity.view': { code: 'CONSOLE_REVIEWER_REQUIRED', action: 'REVIEWER_REQUIRED' },
  'review.decide': { code: 'CONSOLE_REVIEWER_REQUIRED', action: 'REVIEWER_REQUIRED' },
  'settings.admin': { code: 'CONSOLE_ADMIN_REQUIRED', action: 'ADMIN_REQUIRED' },
};

function isRefusable(permission: Permission): permission is RefusablePermission {
  return Object.hasOwn(ROLE_REFUSALS, permission);
}

/** The refusal of a route that wants `permission`, or none when every role holds it. */
export function refusalOf(permission: Permission): RoleRefusal | undefined {
  return isRefusable(permission) ? ROLE_REFUSALS[permission] : undefined;
}
