import type { ReaderRow } from '../../db/schema.js';
import { invalid } from '../../domain-error.js';
import { newObjectId, newToken } from '../../ids.js';
import { normalizeEmail } from '../../organizations/organizations.js';
import type { ProcessFieldsInput } from '../schemas.js';

/**
 * The rows of a process's readers and CC addresses, refused when one repeats (whatever its case) or
 * is a participant's: a reader never signs, and a participant or reader already gets the final
 * files, so a CC copy to them would be a second one.
 */
export function readerRows(options: {
  processId: string;
  fields: Pick<ProcessFieldsInput, 'readers' | 'cc'>;
  participantEmails: string[];
  now: string;
}): ReaderRow[] {
  const { processId, fields, now } = options;
  const participants = new Set(options.participantEmails.map(normalizeEmail));
  const seen = new Map<string, ReaderRow['kind']>();
  const rows: ReaderRow[] = [];
  const add = (kind: ReaderRow['kind'], name: string | null, email: string) =>
    rows.push({ id: newObjectId(new Date(now)), process_id: processId, position: rows.length, kind, name, email, link_token: newToken(), created_at: now });
  for (const [i, reader] of (fields.readers ?? []).entries()) {
    const email = normalizeEmail(reader.email);
    if (participants.has(email)) throw invalid(`"readers[${i}].email" is a participant's: a reader follows the process and never signs in it`);
    if (seen.has(email)) throw invalid(`"readers[${i}].email" is given twice`);
    seen.set(email, 'READER');
    add('READER', reader.name, email);
  }
  for (const [i, address] of (fields.cc ?? []).entries()) {
    const email = normalizeEmail(address);
    if (participants.has(email)) throw invalid(`"cc[${i}]" is a participant's, who gets the final files already`);
    const before = seen.get(email);
    if (before === 'READER') throw invalid(`"cc[${i}]" is a reader's, who gets the final files already`);
    if (before === 'CC') throw invalid(`"cc[${i}]" is given twice`);
    seen.set(email, 'CC');
    add('CC', null, email);
  }
  return rows;
}
