import type { Db } from '../db/database.js';
import type { SdkTokenRow } from '../db/schema.js';
import type { Language } from '../organizations/languages.js';

export async function insertSdkToken(db: Db, row: SdkTokenRow): Promise<void> {
  await db.insertInto('sdk_tokens').values(row).execute();
}

/** Tokens that can no longer be used, of one organization: deleted as it mints new ones. */
export async function deleteExpiredSdkTokens(db: Db, organizationId: string, now: string): Promise<void> {
  await db.deleteFrom('sdk_tokens').where('organization_id', '=', organizationId).where('expires_at', '<=', now).execute();
}

/**
 * Marks the token used if it is unused, unexpired and for exactly this organization, document and
 * origin; answers whether it was. One statement, so two requests with one token open one flow.
 */
export async function useSdkToken(
  db: Db,
  options: { tokenHash: string; organizationId: string; document: string; origin: string; now: string },
): Promise<boolean> {
  const used = await db
    .updateTable('sdk_tokens')
    .set({ used_at: options.now })
    .where('token_hash', '=', options.tokenHash)
    .where('organization_id', '=', options.organizationId)
    .where('document', '=', options.document)
    .where('origin', '=', options.origin)
    .where('expires_at', '>', options.now)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

/**
 * The SDK's language kept as the person's whose flow the frame opened (a participant's or a face
 * validation's, by the link token the lookup found in the organization), so that what is sent
 * to them afterwards (the code, the reminders, the end) speaks the language their frame speaks.
 */
export async function keepEmbeddedLanguage(db: Db, options: { flow: 'sign' | 'validation'; token: string; language: Language }): Promise<void> {
  const table = options.flow === 'sign' ? 'participants' : 'veriface_processes';
  await db.updateTable(table).set({ language: options.language }).where('link_token', '=', options.token).execute();
}
