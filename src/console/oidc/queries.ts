import type { Db } from '../../db/schema.js';

export async function setOidcColumns(
  db: Db,
  organizationId: string,
  values: { oidc_issuer: string | null; oidc_client_id: string | null; oidc_client_secret: string | null },
): Promise<boolean> {
  const result = await db.updateTable('organizations').set(values).where('id', '=', organizationId).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
