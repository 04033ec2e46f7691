import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The console's four roles (src/organizations/user-roles.ts): `member` becomes `sender`, who keeps
 * every right a member had (follow, remind, cancel and reactivate processes; make templates and
 * reference links); `viewer`, who only reads, is new and nobody is one yet. The column's
 * varchar(8) holds every name.
 */
export const userRoles: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`UPDATE users SET role = 'sender' WHERE role = 'member'`.execute(db);
  },
};
