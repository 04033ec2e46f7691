import type { Updateable } from 'kysely';
import type { CursorPosition } from '../db/cursor.js';
import type { Db } from '../db/database.js';
import { olderThan } from '../db/keyset.js';
import { reusableQuery } from '../db/reusable-query.js';
import type { ReferenceLinkRow, ReferenceLinksTable, ReferenceLinkUseRow } from '../db/schema.js';

export async function insertReferenceLink(db: Db, row: ReferenceLinkRow): Promise<void> {
  await db.insertInto('reference_links').values(row).execute();
}

export async function findReferenceLink(db: Db, organizationId: string, id: string): Promise<ReferenceLinkRow | undefined> {
  return db.selectFrom('reference_links').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
}

/** The link a token opens, of whichever organization: the token is the whole secret. */
export async function findReferenceLinkByToken(db: Db, token: string): Promise<ReferenceLinkRow | undefined> {
  return db.selectFrom('reference_links').selectAll().where('token', '=', token).executeTakeFirst();
}

export async function updateReferenceLink(
  db: Db,
  organizationId: string,
  id: string,
  patch: Updateable<ReferenceLinksTable>,
): Promise<ReferenceLinkRow | undefined> {
  return db.updateTable('reference_links').set(patch).where('id', '=', id).where('organization_id', '=', organizationId).returningAll().executeTakeFirst();
}

export async function listReferenceLinks(db: Db, organizationId: string, templateId: string): Promise<ReferenceLinkRow[]> {
  return db
    .selectFrom('reference_links')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('template_id', '=', templateId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function deleteReferenceLink(db: Db, organizationId: string, id: string): Promise<number> {
  await db.deleteFrom('reference_link_uses').where('reference_link_id', '=', id).where('organization_id', '=', organizationId).execute();
  const result = await db.deleteFrom('reference_links').where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

const usesOfTemplateDelete = reusableQuery((db, p: { templateId: string }) =>
  db.deleteFrom('reference_link_uses').where('reference_link_id', 'in', db.selectFrom('reference_links').select('id').where('template_id', '=', p.templateId)),
);

const linksOfTemplateDelete = reusableQuery((db, p: { templateId: string }) =>
  db.deleteFrom('reference_links').where('template_id', '=', p.templateId).returning('id'),
);

/** A template's links and the record of their uses (the processes stay). */
export async function deleteReferenceLinksOfTemplate(db: Db, templateId: string): Promise<number> {
  await usesOfTemplateDelete(db, { templateId });
  return (await linksOfTemplateDelete(db, { templateId })).length;
}

export async function insertReferenceLinkUse(db: Db, row: ReferenceLinkUseRow): Promise<void> {
  await db.insertInto('reference_link_uses').values(row).execute();
}

export async function findReferenceLinkUse(db: Db, linkId: string, idempotencyKey: string): Promise<ReferenceLinkUseRow | undefined> {
  return db
    .selectFrom('reference_link_uses')
    .selectAll()
    .where('reference_link_id', '=', linkId)
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

export async function listReferenceLinkUses(
  db: Db,
  options: { organizationId: string; linkId: string; limit: number; after?: CursorPosition },
): Promise<ReferenceLinkUseRow[]> {
  let query = db
    .selectFrom('reference_link_uses')
    .selectAll()
    .where('organization_id', '=', options.organizationId)
    .where('reference_link_id', '=', options.linkId);
  if (options.after) query = query.where(olderThan(options.after));
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}

/** The link token of the participant who filled a form that signs now, to answer a retried submission. */
export async function fillerLinkToken(db: Db, participantRowId: string): Promise<string | undefined> {
  const row = await db.selectFrom('participants').select('link_token').where('id', '=', participantRowId).executeTakeFirst();
  return row?.link_token;
}

/**
 * Counts one more use of the link unless it made its `max_uses` already, and answers its hourly cap
 * as it is now; undefined when it is used up. The UPDATE keeps the link's row locked to the commit
 * on PostgreSQL, so uses of one link are counted one transaction after the other.
 */
export async function takeReferenceLinkUse(db: Db, linkId: string): Promise<{ hourlyCap: number } | undefined> {
  const row = await db
    .updateTable('reference_links')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('id', '=', linkId)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
    .returning('hourly_cap')
    .executeTakeFirst();
  return row && { hourlyCap: row.hourly_cap };
}

/** The processes one link made since `since`, and the earliest of their times. */
export async function countLinkUsesSince(db: Db, linkId: string, since: string): Promise<{ count: number; earliest: string | null }> {
  const row = await db
    .selectFrom('reference_link_uses')
    .select((eb) => [eb.fn.countAll<string | number>().as('count'), eb.fn.min('created_at').as('earliest')])
    .where('reference_link_id', '=', linkId)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), earliest: row.earliest };
}

/** The processes the organization's reference links made since `since`, and the earliest of their times. */
export async function countReferenceUsesSince(db: Db, organizationId: string, since: string): Promise<{ count: number; earliest: string | null }> {
  const row = await db
    .selectFrom('reference_link_uses')
    .select((eb) => [eb.fn.countAll<string | number>().as('count'), eb.fn.min('created_at').as('earliest')])
    .where('organization_id', '=', organizationId)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), earliest: row.earliest };
}
