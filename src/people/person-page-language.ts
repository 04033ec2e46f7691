import type { Db } from '../db/database.js';
import { findParticipantByToken, findProcessById } from '../documents/queries.js';
import { findReaderByToken } from '../documents/readers/queries.js';
import type { Language } from '../organizations/languages.js';
import { languageOfPerson, organizationLanguage } from '../organizations/settings.js';
import { findVerifaceByToken } from '../veriface/queries.js';

/** Tokens are random bytes in base64url; anything else opens nothing and is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * The language a person's page opens in (issue 41): the one stored for the person of the link
 * (a participant's, a face validation's), else their organization's, a reader's being always the
 * organization's. Undefined for a token that opens nothing: that page follows the browser.
 */
export async function linkLanguage(db: Db, mode: 'sign' | 'read' | 'validation', token: string): Promise<Language | undefined> {
  if (!TOKEN.test(token)) return undefined;
  if (mode === 'validation') {
    const veriface = await findVerifaceByToken(db, token);
    return veriface && languageOfPerson(db, veriface.organization_id, veriface.language);
  }
  if (mode === 'sign') {
    const participant = await findParticipantByToken(db, token);
    const process = participant && (await findProcessById(db, participant.process_id));
    if (!participant || !process) return undefined;
    return languageOfPerson(db, process.organization_id, participant.language);
  }
  const reader = await findReaderByToken(db, token);
  const process = reader && (await findProcessById(db, reader.process_id));
  return process && (await organizationLanguage(db, process.organization_id));
}
