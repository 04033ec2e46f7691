import type { Db } from '../../db/database.js';
import type { OrganizationRow } from '../../db/schema.js';
import type { Language } from '../../organizations/languages.js';
import { findOrganization } from '../../organizations/queries.js';
import { settingsOf } from '../../organizations/settings.js';

/** What the conversation says in one flow: the organization's language, name, and whom the person can write to. */
export interface FlowVoice {
  language: Language;
  organization: string;
  /** The address of whoever sent the process: the person's way to ask about it. */
  contact: string;
}

export async function voiceOf(ctx: { db: Db }, organizationId: string, contact: string): Promise<FlowVoice> {
  return voiceFrom(await findOrganization(ctx.db, organizationId), contact);
}

/** The voice of an organization the caller has read already. */
export function voiceFrom(organization: OrganizationRow | undefined, contact: string): FlowVoice {
  return { language: organization ? settingsOf(organization).language : 'es', organization: organization?.name ?? '', contact };
}
