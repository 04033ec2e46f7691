import type { Db } from '../db/database.js';
import { fail } from '../domain-error.js';
import { listWebhooks } from '../webhooks/queries.js';
import { normalizeEmail } from './organizations.js';
import { findUserByEmail } from './queries.js';

/** The real service: an expiration date must be later than three days after the process is created. */
export const MIN_EXPIRY_MS = 3 * 24 * 60 * 60 * 1000;

/**
 * What every process creation checks before anything is stored: the expiry date, the creator (a
 * registered user of the organization) and the webhooks named to receive its events.
 */
export async function checkCreation(
  db: Db,
  options: { organizationId: string; now: Date; creatorEmail: string; expiredDate?: Date; targetWebhooks?: string[] },
): Promise<void> {
  const { organizationId, now, expiredDate, targetWebhooks } = options;
  if (expiredDate && expiredDate.getTime() <= now.getTime() + MIN_EXPIRY_MS) throw fail('EXPIRED_DATE_INVALID');
  if (!(await findUserByEmail(db, organizationId, normalizeEmail(options.creatorEmail)))) throw fail('USER_NOTFOUND');
  if (targetWebhooks) {
    const known = new Set((await listWebhooks(db, organizationId)).map((w) => w.name));
    const missing = targetWebhooks.find((name) => !known.has(name));
    if (missing !== undefined) throw fail('WEBHOOK_NOT_FOUND', missing);
  }
}
