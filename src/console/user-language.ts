import type { Db } from '../db/database.js';
import { fail } from '../domain-error.js';
import { isLanguage, type Language, personLanguage } from '../organizations/languages.js';
import { readSettings } from '../organizations/settings.js';
import * as q from './queries.js';
import type { ConsoleUser } from './sessions.js';

/**
 * The console's language for one user (issue 41): the one they chose (`chosen`), else their
 * organization's; and the organization's time zone, which every time the console shows is in.
 */
export interface ConsoleLanguage {
  language: Language;
  chosen: boolean;
  timeZone: string;
}

export async function readConsoleLanguage(db: Db, user: Pick<ConsoleUser, 'userId' | 'organizationId'>): Promise<ConsoleLanguage> {
  const [row, settings] = await Promise.all([q.findConsoleUser(db, user), readSettings(db, user.organizationId)]);
  if (!row || !settings) throw fail('ORGANIZATION_NOT_FOUND');
  return { language: personLanguage(row.language, settings.language), chosen: isLanguage(row.language), timeZone: settings.timeZone };
}

/** Keeps the user's choice; null goes back to following the organization's language. */
export async function chooseConsoleLanguage(
  db: Db,
  options: { user: Pick<ConsoleUser, 'userId' | 'organizationId'>; language: Language | null },
): Promise<ConsoleLanguage> {
  if (!(await q.setUserLanguage(db, { ...options.user, language: options.language }))) throw fail('ORGANIZATION_NOT_FOUND');
  return readConsoleLanguage(db, options.user);
}
