import type { ServiceContext } from '../../context.js';
import type { ParticipantRow, ProcessDocumentRow, ProcessRow } from '../../db/schema.js';
import { readBlobBytes, writeBlobBytes } from '../../files/blob-bytes.js';
import { contentTypeOf } from '../../files/blob-store.js';
import { templatedEmail } from '../../messages/message-templates.js';
import { enqueue, type NewMessage } from '../../outbox/enqueue.js';
import { sha256 } from '../document-files.js';
import { participantLink } from '../notify-participants.js';
import { findProcessById, listDocuments, listParticipants, listProcessEvents, markSealed } from '../queries.js';
import { type CertificateBlock, certificateBlocks, type FinalFile, type SealEvidence, signingTrail, spanishSigningDate } from './seal-evidence.js';
import { sealTemplateHtml } from './seal-html.js';
import { certificateDocument, certificateSection, signaturesSection, stampMarkup } from './seal-markup.js';
import { appendCertificatePages } from './seal-pdf.js';

/** Where the final files of a process live; `documents[position]`. */
export function finalFileKeys(processId: string, documents: Pick<ProcessDocumentRow, 'position' | 'source'>[]): { certificate: string; documents: string[] } {
  const folder = `processes/${processId}/final`;
  const keys: string[] = [];
  for (const document of documents) keys[document.position] = `${folder}/${document.position}.${document.source === 'pdf' ? 'pdf' : 'html'}`;
  return { certificate: `${folder}/certificate.html`, documents: keys };
}

/** The bytes the participants signed, refused if they no longer match the hash recorded when the process was created. */
async function signedBytes(ctx: ServiceContext, document: ProcessDocumentRow): Promise<{ bytes: Buffer; sha256: string }> {
  if (document.file_key === null || document.file_ready !== 1) throw new Error(`document ${document.id} of a finished process has no file`);
  const bytes = await readBlobBytes(ctx.blobs, document.file_key);
  if (!bytes) throw new Error(`document ${document.id}: file ${document.file_key} is missing`);
  const hash = sha256(bytes);
  if (document.sha256 !== null && document.sha256 !== hash) throw new Error(`document ${document.id}: file ${document.file_key} changed after signing`);
  return { bytes, sha256: hash };
}

/** The signed copy of one document, carrying `embedded`, the certificate without the final files' hashes. */
async function sealDocument(
  evidence: SealEvidence,
  embedded: CertificateBlock[],
  document: ProcessDocumentRow,
  original: Buffer,
): Promise<{ bytes: Buffer; evidenceAppended: boolean }> {
  if (document.source === 'pdf') {
    const sealed = await appendCertificatePages(original, {
      title: document.name,
      subject: evidence.process.code,
      modifiedAt: new Date(evidence.finishedAt),
      footer: `Evidence certificate ${evidence.process.code}`,
      blocks: embedded,
    });
    // A PDF pdf-lib cannot open stays as it was, rather than leave the process unsealed for ever;
    // the stand-alone certificate says so.
    return sealed ? { bytes: sealed, evidenceAppended: true } : { bytes: original, evidenceAppended: false };
  }
  const html = sealTemplateHtml({
    html: original.toString('utf8'),
    signDate: spanishSigningDate(evidence.finishedAt),
    stamps: evidence.participants
      .filter((participant) => participant.signed_at !== null)
      .map((participant) => ({ signerType: participant.signer_type, markup: stampMarkup(participant) })),
    unplaced: signaturesSection,
    appendix: certificateSection(embedded, { embedded: true }),
  });
  return { bytes: Buffer.from(html, 'utf8'), evidenceAppended: true };
}

function finishedEmails(ctx: ServiceContext, process: ProcessRow, participants: ParticipantRow[]): NewMessage[] {
  return participants
    .filter((participant) => participant.notification === 1)
    .map((participant) => ({
      kind: 'email' as const,
      organizationId: process.organization_id,
      payload: templatedEmail(participant.email, 'process-finished', { processName: process.name, link: participantLink(ctx, participant) }),
    }));
}

/**
 * Writes the signed documents and the evidence certificate of a FINISHED process, marks it sealed
 * and tells the participants; idempotent. Answers whether this call sealed it.
 *
 * The files are written before the mark: a crash in between leaves the process unsealed and the
 * next run writes the same keys again. Their contents depend only on the finished process, never
 * on the time of the run, so two runs racing write identical bytes and only one marks it.
 */
export async function sealProcess(ctx: ServiceContext, options: { processId: string }): Promise<boolean> {
  const process = await findProcessById(ctx.db, options.processId);
  if (process?.status !== 'FINISH' || process.sealed_at !== null) return false;
  const [documents, participants, allEvents] = await Promise.all([
    listDocuments(ctx.db, process.id),
    listParticipants(ctx.db, process.id),
    listProcessEvents(ctx.db, process.id),
  ]);
  const signed: { row: ProcessDocumentRow; bytes: Buffer; sha256: string }[] = [];
  for (const row of documents) signed.push({ row, ...(await signedBytes(ctx, row)) });

  const trail = signingTrail(allEvents);
  const evidence: SealEvidence = {
    process,
    finishedAt: trail.finish?.at ?? process.updated_at,
    documents: signed.map(({ row, sha256: hash }) => ({ row, sha256: hash })),
    participants,
    events: trail.events,
  };

  const keys = finalFileKeys(process.id, documents);
  const embedded = certificateBlocks(evidence);
  const finalFiles: FinalFile[] = [];
  for (const { row: document, bytes } of signed) {
    const key = keys.documents[document.position];
    if (key === undefined) throw new Error(`document ${document.id} has no final key`);
    const final = await sealDocument(evidence, embedded, document, bytes);
    await writeBlobBytes(ctx.blobs, key, final.bytes, contentTypeOf(key));
    finalFiles.push({ document, file: key.slice(key.lastIndexOf('/') + 1), sha256: sha256(final.bytes), evidenceAppended: final.evidenceAppended });
  }
  const certificate = certificateDocument(certificateBlocks(evidence, finalFiles), process.code);
  await writeBlobBytes(ctx.blobs, keys.certificate, Buffer.from(certificate, 'utf8'), contentTypeOf(keys.certificate));

  const sealed = await ctx.db.transaction().execute(async (trx) => {
    if (!(await markSealed(trx, process.id, ctx.clock.now().toISOString()))) return false;
    await enqueue(trx, ctx.clock, finishedEmails(ctx, process, participants));
    return true;
  });
  if (sealed) ctx.outbox.wake();
  return sealed;
}
