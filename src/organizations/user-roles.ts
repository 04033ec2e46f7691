/*
 * What each console user may do, as one table (docs/console.md, "Users and roles"). The console's
 * page imports it too, to leave out what the user's role may not do, so this module imports nothing.
 */

/**
 * What a console route may want of its user's role:
 * - `account.self`: the user's own account (who they are, their language, sign-out, passkeys, TOTP);
 * - `processes.read`: read the organization's processes, their files and timelines, its templates
 *   and reference links;
 * - `processes.write`: remind, cancel and reactivate processes;
 * - `templates.write`: create and change templates and reference links;
 * - `identity.view`: view identity data (ID and face photos, ID numbers, phones in full), each view
 *   in the audit log: the review queue and its photos;
 * - `review.decide`: decide the review queue's items;
 * - `settings.admin`: what is the organization's to manage: keys, settings, webhooks, the audit log.
 */
export type Permission = 'account.self' | 'processes.read' | 'processes.write' | 'templates.write' | 'identity.view' | 'review.decide' | 'settings.admin';

/**
 * Each role's permissions. `sender` is what `member` was (migration 047): they made documents and
 * followed processes. A reviewer keeps what a member had and adds identity data; a viewer reads.
 */
export const ROLE_PERMISSIONS = {
  admin: ['account.self', 'processes.read', 'processes.write', 'templates.write', 'identity.view', 'review.decide', 'settings.admin'],
  reviewer: ['account.self', 'processes.read', 'processes.write', 'templates.write', 'identity.view', 'review.decide'],
  sender: ['account.self', 'processes.read', 'processes.write', 'templates.write'],
  viewer: ['account.self', 'processes.read'],
} as const satisfies Record<string, readonly Permission[]>;

export type UserRole = keyof typeof ROLE_PERMISSIONS;

/** Every role a user may have, the widest first. */
export const USER_ROLES = ['admin', 'reviewer', 'sender', 'viewer'] as const satisfies readonly UserRole[];

type HeldBy<R extends UserRole> = (typeof ROLE_PERMISSIONS)[R][number];

/** The permissions some role lacks: a route that wants one refuses the others by a code of its own (src/auth/console-refusals.ts). */
export type RefusablePermission = Exclude<Permission, HeldBy<'admin'> & HeldBy<'reviewer'> & HeldBy<'sender'> & HeldBy<'viewer'>>;

export function isUserRole(value: string): value is UserRole {
  return USER_ROLES.some((role) => role === value);
}

export function may(role: UserRole, permission: Permission): boolean {
  const held: readonly Permission[] = ROLE_PERMISSIONS[role];
  return held.includes(permission);
}
