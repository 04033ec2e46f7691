import type { Insertable, Selectable } from 'kysely';
import type { ConsolePasskeysTable, Db } from '../../db/schema.js';

export type PasskeyRow = Selectable<ConsolePasskeysTable>;

export async function insertPasskey(db: Db, row: Insertable<ConsolePasskeysTable>): Promise<void> {
  await db.insertInto('console_passkeys').values(row).execute();
}

export async function listUserPasskeys(db: Db, options: { userId: string; organizationId: string }): Promise<PasskeyRow[]> {
  return db
    .selectFrom('console_passkeys')
    .selectAll()
    .where('user_id', '=', options.userId)
    .where('organization_id', '=', options.organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The passkeys of every user going by the e-mail, in every organization: the credentials a browser may offer. */
export async function listPasskeysOfEmail(db: Db, email: string): Promise<PasskeyRow[]> {
  return db
    .selectFrom('console_passkeys')
    .innerJoin('users', 'users.id', 'console_passkeys.user_id')
    .selectAll('console_passkeys')
    .where('users.email', '=', email)
    .execute();
}

export async function findPasskeyByCredential(db: Db, credentialId: string): Promise<PasskeyRow | undefined> {
  return db.selectFrom('console_passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
}

/** Moves the counter forward from the value the signature was checked against: false when another sign-in moved it meanwhile. */
export async function usePasskey(db: Db, options: { id: string; from: number; to: number; now: string }): Promise<boolean> {
  const result = await db
    .updateTable('console_passkeys')
    .set({ counter: options.to, last_used_at: options.now })
    .where('id', '=', options.id)
    .where('counter', '=', options.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deletePasskey(db: Db, options: { id: string; userId: string; organizationId: string }): Promise<boolean> {
  const result = await db
    .deleteFrom('console_passkeys')
    .where('id', '=', options.id)
    .where('user_id', '=', options.userId)
    .where('organization_id', '=', options.organizationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
