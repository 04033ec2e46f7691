import type { UserRole } from '../db/schema.js';

/** Every role a user may have, the widest first (docs/console.md, "Users and roles"). */
export const USER_ROLES = ['admin', 'reviewer', 'member'] as const satisfies readonly UserRole[];

export function isUserRole(value: string): value is UserRole {
  return USER_ROLES.some((role) => role === value);
}

/** Who may view identity data in the console (ID and face photos, ID numbers, phones): never a member. */
export function mayViewIdentity(role: UserRole): boolean {
  return role === 'admin' || role === 'reviewer';
}
