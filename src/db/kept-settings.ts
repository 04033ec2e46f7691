import type { Db } from './schema.js';

/**
 * A secret the first instance makes and every other reads: instances starting together may each
 * make one, and the first to insert it wins; all then read that one.
 */
export async function keptSetting(db: Db, key: string, make: () => string | Promise<string>): Promise<string> {
  const existing = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  if (existing) return existing.value;
  await db
    .insertInto('settings')
    .values({ key, value: await make() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}

/** Replaces a kept setting that still holds `current`; instances doing it together all read the one that won. */
export async function replaceKeptSetting(db: Db, key: string, current: string, make: () => Promise<string>): Promise<string> {
  await db
    .updateTable('settings')
    .set({ value: await make() })
    .where('key', '=', key)
    .where('value', '=', current)
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}
