import type { Db } from '../../db/database.js';
import type { OrganizationRow } from '../../db/schema.js';
import { type Language, personLanguage } from '../../organizations/languages.js';
import { findOrganization } from '../../organizations/queries.js';
import { settingsOf } from '../../organizations/settings.js';

/** What the conversation says in one flow: the person's language (else the organization's), the organization's name, and whom the person can write to. */
export interface FlowVoice {
  language: Language;
  organization: string;
  /** The address of whoever sent the process: the person's way to ask about it. */
  contact: string;
}

/** `stored` is the language kept with the person (participant or face validation), null for the organization's. */
export async function voiceOf(ctx: { db: Db }, organizationId: string, contact: string, stored: string | null): Promise<FlowVoice> {
  return voiceFrom(await findOrganization(ctx.db, organizationId), contact, stored);
}

/** The voice of an organization the caller has read already. */
export function voiceFrom(organization: OrganizationRow | undefined, contact: string, stored: string | null): FlowVoice {
  const language = personLanguage(stored, organization ? settingsOf(organization).language : 'es');
  return { language, organization: organization?.name ?? '', contact };
}
