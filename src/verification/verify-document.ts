import type { ServiceContext } from '../context.js';
import type { ProcessRow } from '../db/schema.js';
import { sha256 } from '../documents/document-files.js';
import { listDocuments, listParticipants } from '../documents/queries.js';
import { findSealedByCode, findSealedByFileHash } from '../documents/sealing/final-file-queries.js';
import type { Language } from '../organizations/languages.js';
import { findOrganization } from '../organizations/queries.js';
import { settingsOf } from '../organizations/settings.js';
import { carriesSignature } from '../pdf-signing/incremental-update.js';
import { type SealReport, sealReport } from '../pdf-signing/seal-report.js';

/** What /verify tells anyone about a sealed process: names and dates, never e-mails or phones. */
export interface PublicProcess {
  code: string;
  name: string;
  status: ProcessRow['status'];
  createdAt: string;
  sealedAt: string;
  documents: { name: string }[];
  participants: { name: string; role: 'SIGNER' | 'APPROVER'; signedAt: string | null }[];
  /** The organization's language and time zone: the page writes the dates in them. */
  dates: { language: Language; timeZone: string };
}

/**
 * - `unchanged`: the file is, byte for byte, a signed final file this instance wrote; `seal` says
 *   what its signature reached (PAdES level, chain, timestamps, revocation data);
 * - `changed`: it names a sealed process of this instance, but its bytes are not a final file;
 * - `found`: a code was given and it is a sealed process's;
 * - `unknown`: nothing of this instance.
 */
export type Verification =
  | { result: 'unchanged'; sha256: string; file: string; process: PublicProcess; seal?: SealReport }
  | { result: 'changed'; sha256: string; process: PublicProcess }
  | { result: 'found'; process: PublicProcess }
  | { result: 'unknown'; sha256?: string };

/** Codes are upper-case letters and digits; anything else is not looked up. */
const CODE = /^[A-Z0-9]{4,16}$/;

/** The code a final file names in its signature dictionary (its /verify link), read from the raw bytes. */
const NAMED_CODE = /\/verify\?code=([A-Z0-9]{4,16})\)/g;

async function publicProcess(ctx: ServiceContext, process: ProcessRow): Promise<PublicProcess> {
  const [documents, participants, organization] = await Promise.all([
    listDocuments(ctx.db, process.id),
    listParticipants(ctx.db, process.id),
    findOrganization(ctx.db, process.organization_id),
  ]);
  const settings = organization ? settingsOf(organization) : undefined;
  return {
    code: process.code,
    name: process.name,
    status: process.status,
    createdAt: process.created_at,
    sealedAt: process.sealed_at ?? process.updated_at,
    documents: documents.map((document) => ({ name: document.name })),
    participants: participants.map((participant) => ({ name: participant.name, role: participant.role, signedAt: participant.signed_at })),
    dates: { language: settings?.language ?? 'es', timeZone: settings?.timeZone ?? 'UTC' },
  };
}

export async function verifyCode(ctx: ServiceContext, options: { code: string }): Promise<Verification> {
  const code = options.code.trim().toUpperCase();
  const process = CODE.test(code) ? await findSealedByCode(ctx.db, code) : undefined;
  return process ? { result: 'found', process: await publicProcess(ctx, process) } : { result: 'unknown' };
}

/**
 * A signed file is checked by its SHA-256 against every final file written; one that matches none
 * is checked for the code its signature names (the last one, as a later change may add its own).
 * Unsigned bytes are nothing of the service, whatever their hash: an upload certifies nothing.
 */
export async function verifyFile(ctx: ServiceContext, options: { bytes: Buffer }): Promise<Verification> {
  const hash = sha256(options.bytes);
  // Every final file carries the instance's signature: a file without any signature dictionary is none.
  if (!carriesSignature(options.bytes)) return { result: 'unknown', sha256: hash };
  const sealed = await findSealedByFileHash(ctx.db, hash);
  if (sealed) {
    const seal = await sealReport(options.bytes);
    return {
      result: 'unchanged',
      sha256: hash,
      file: sealed.fileKey.slice(sealed.fileKey.lastIndexOf('/') + 1),
      process: await publicProcess(ctx, sealed.process),
      ...(seal ? { seal } : {}),
    };
  }
  const named = [...options.bytes.toString('latin1').matchAll(NAMED_CODE)].map((match) => match[1]);
  for (const code of named.reverse()) {
    const process = code === undefined ? undefined : await findSealedByCode(ctx.db, code);
    if (process) return { result: 'changed', sha256: hash, process: await publicProcess(ctx, process) };
  }
  return { result: 'unknown', sha256: hash };
}
