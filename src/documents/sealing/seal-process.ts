import type { ServiceContext } from '../../context.js';
import type { ParticipantRow, ProcessDocumentRow, ProcessRow } from '../../db/schema.js';
import { readBlobBytes, writeOnce } from '../../files/blob-bytes.js';
import { contentTypeOf } from '../../files/blob-store.js';
import { templatedEmail } from '../../messages/message-templates.js';
import { readSettings } from '../../organizations/settings.js';
import { enqueue, type NewMessage } from '../../outbox/enqueue.js';
import { sha256, signedBytes, UnusableDocumentFile } from '../document-files.js';
import { participantLink } from '../notify-participants.js';
import { deletePreviews } from '../preview/document-preview.js';
import { findProcessById, listDocuments, listParticipants, listProcessEvents, markSealed } from '../queries.js';
import { recordFinalFile } from './final-file-queries.js';
import { type FinalFile, type SealEvidence, signingTrail } from './seal-evidence.js';
import { sealTemplateHtml } from './seal-html.js';
import { documentCertificate, drawableImages, finishCertificate, type SealContext, type SealJob, standaloneCertificate } from './seal-job.js';
import { sealLocale } from './seal-language.js';
import { signaturesSection, stampMarkup } from './seal-markup.js';
import { sealRenderedPdf, sealUploadedPdf } from './seal-pdf.js';

export type { SealContext } from './seal-job.js';

/** Where the final copy of a process's document at `position` lives. Every final file is a PDF. */
function finalDocumentKey(processId: string, position: number): string {
  return `processes/${processId}/final/${position}.pdf`;
}

/** Where the stand-alone evidence certificate of a process lives. */
function finalCertificateKey(processId: string): string {
  return `processes/${processId}/final/certificate.pdf`;
}

/** Where the final files of a process live; `documents[position]`. */
export function finalFileKeys(processId: string, documents: Pick<ProcessDocumentRow, 'position'>[]): { certificate: string; documents: string[] } {
  const keys: string[] = [];
  for (const document of documents) keys[document.position] = finalDocumentKey(processId, document.position);
  return { certificate: finalCertificateKey(processId), documents: keys };
}

/** The public page where anyone checks a final document of the process. */
export function verifyUrl(publicUrl: string, code: string): string {
  return `${publicUrl}/verify?code=${encodeURIComponent(code)}`;
}

/** The PNG each participant signed with, by participant id. */
async function signaturePngs(ctx: ServiceContext, participants: ParticipantRow[]): Promise<Map<string, Buffer>> {
  const read = await Promise.all(
    participants.map(async ({ participant_id, signature_key }) => [participant_id, signature_key && (await readBlobBytes(ctx.blobs, signature_key))] as const),
  );
  const pngs = new Map<string, Buffer>();
  for (const [participantId, bytes] of read) if (bytes) pngs.set(participantId, bytes);
  return pngs;
}

/** The sealed copy of one document, carrying the certificate. */
async function sealDocument(job: SealJob, document: ProcessDocumentRow, original: Buffer): Promise<{ bytes: Buffer; evidenceAppended: boolean }> {
  const { ctx, evidence } = job;
  const { locale } = evidence;
  if (document.source === 'pdf') {
    const sealed = await sealUploadedPdf(original, { certificate: await documentCertificate(job), mark: job.mark, seal: job.seal });
    // Never an unsigned final file: a copy of the upload would be certified as sealed. Only PDFs
    // accepted before intake opened them as the seal does can get here.
    if (!sealed) throw new UnusableDocumentFile(`document ${document.position} ("${document.name}") is a PDF the seal cannot open`);
    return { bytes: sealed, evidenceAppended: true };
  }
  const html = sealTemplateHtml({
    html: original.toString('utf8'),
    signDate: locale.signDate(evidence.finishedAt),
    stamps: evidence.participants
      .filter((participant) => participant.signed_at !== null)
      .map((participant) => ({
        signerType: participant.signer_type,
        markup: stampMarkup(participant, locale, evidence.signaturePngs.get(participant.participant_id)),
      })),
    unplaced: (stamps) => signaturesSection(stamps, locale),
  });
  const rendered = await ctx.renderer.render(html);
  return { bytes: await sealRenderedPdf(rendered, { certificate: await documentCertificate(job), mark: job.mark, seal: job.seal }), evidenceAppended: true };
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
 * Writes the sealed documents and the evidence certificate of a FINISHED process (PDFs signed by
 * the instance), marks it sealed and tells the participants; idempotent. Answers whether this
 * call sealed it.
 *
 * Each file is written once and its hash recorded from the bytes stored, and the mark comes last:
 * a run that stopped half-way leaves the process unsealed, and the next run keeps every file
 * already written (rendering and timestamps differ from run to run, so a file is never made
 * twice), then writes the rest; two runs at once end with the same files and records.
 */
export async function sealProcess(ctx: SealContext, options: { processId: string }): Promise<boolean> {
  const process = await findProcessById(ctx.db, options.processId);
  if (process?.status !== 'FINISH' || process.sealed_at !== null) return false;
  const [documents, participants, allEvents, settings] = await Promise.all([
    listDocuments(ctx.db, process.id),
    listParticipants(ctx.db, process.id),
    listProcessEvents(ctx.db, process.id),
    readSettings(ctx.db, process.organization_id),
  ]);
  const signed: { row: ProcessDocumentRow; bytes: Buffer; sha256: string }[] = [];
  for (const row of documents) signed.push({ row, ...(await signedBytes(ctx, row)) });

  const locale = sealLocale(settings?.language ?? 'es', settings?.timeZone ?? 'UTC');
  const trail = signingTrail(allEvents);
  const evidence: SealEvidence = {
    process,
    finishedAt: trail.finish?.at ?? process.updated_at,
    documents: signed.map(({ row, sha256: hash }) => ({ row, sha256: hash })),
    participants,
    events: trail.events,
    signaturePngs: await signaturePngs(ctx, participants),
    locale,
  };
  const url = verifyUrl(ctx.publicUrl, process.code);
  const job: SealJob = {
    ctx,
    evidence,
    images: drawableImages(evidence.signaturePngs),
    mark: {
      url,
      lines: [`${locale.labels.verifyAt} ${url}`, `${locale.labels.code}: ${process.code}`],
      pageNumber: (page, pages) => `${locale.labels.page} ${page} ${locale.labels.of} ${pages}`,
    },
    seal: { signer: ctx.documentSigner, signedAt: new Date(evidence.finishedAt), reason: locale.labels.sealReason, location: ctx.publicUrl, verifyUrl: url },
  };

  /**
   * A final file is written once: the first run to write it wins, and any other run (a rerun after
   * a stop half-way, or a second run after a job's lease expired) takes the bytes that are there,
   * so what is stored and what is recorded never differ. The hashes are recorded with the mark, in
   * its one transaction: a run that stops before it leaves nothing recorded, and the next run finds
   * the files.
   */
  const recorded = new Map<string, string>();
  const stored = async (key: string): Promise<string | undefined> => {
    const bytes = await readBlobBytes(ctx.blobs, key);
    if (!bytes) return undefined;
    const hash = sha256(bytes);
    recorded.set(key, hash);
    return hash;
  };
  const write = async (key: string, bytes: Buffer, hash: string): Promise<string> => {
    const there = await writeOnce(ctx.blobs, key, bytes, contentTypeOf(key));
    const storedHash = there === bytes ? hash : sha256(there);
    recorded.set(key, storedHash);
    return storedHash;
  };

  const certificateKey = finalCertificateKey(process.id);
  // A rerun finds files written: those are kept, and nothing of them is made again.
  const [certificateHash, ...documentHashes] = await Promise.all(
    [certificateKey, ...documents.map((row) => finalDocumentKey(process.id, row.position))].map(stored),
  );
  const certificateKept = certificateHash !== undefined;
  // Drawn while Chromium renders the first document.
  const certificate = certificateKept ? undefined : standaloneCertificate(job);
  certificate?.catch(() => undefined);
  if (!certificateKept) documentCertificate(job).catch(() => undefined);

  /**
   * Each document's final file is written while the next one is made and the certificate finished:
   * the certificate lists the hash of the bytes this run made, and is made again below when the
   * store kept another run's file instead.
   */
  const files: { final: FinalFile; stored: Promise<string> }[] = [];
  for (const [index, { row: document, bytes, sha256: signedHash }] of signed.entries()) {
    const key = finalDocumentKey(process.id, document.position);
    const file = key.slice(key.lastIndexOf('/') + 1);
    const existing = documentHashes[index];
    if (existing !== undefined) {
      files.push({ final: { document, file, sha256: existing, evidenceAppended: existing !== signedHash }, stored: Promise.resolve(existing) });
      continue;
    }
    const sealed = await sealDocument(job, document, bytes);
    const hash = sha256(sealed.bytes);
    const storedHash = write(key, sealed.bytes, hash);
    storedHash.catch(() => undefined);
    files.push({ final: { document, file, sha256: hash, evidenceAppended: sealed.evidenceAppended }, stored: storedHash });
  }
  const made = files.map((file) => file.final);
  const certificateBytes = certificate && finishCertificate(job, await certificate, made);
  certificateBytes?.catch(() => undefined);
  const kept = await Promise.all(files.map((file) => file.stored));
  if (certificateBytes) {
    const raced = kept.some((hash, index) => hash !== made[index]?.sha256);
    const listed = made.map((final, index) => ({ ...final, sha256: kept[index] ?? final.sha256 }));
    const bytes = raced ? await finishCertificate(job, await standaloneCertificate(job), listed) : await certificateBytes;
    await write(certificateKey, bytes, sha256(bytes));
  }

  const sealed = await ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.now().toISOString();
    if (!(await markSealed(trx, process.id, now))) return false;
    for (const [key, hash] of recorded) await recordFinalFile(trx, { process_id: process.id, file_key: key, sha256: hash, created_at: now });
    await enqueue(trx, ctx.clock, finishedEmails(ctx, process, participants));
    return true;
  });
  if (sealed) {
    ctx.outbox.wake();
    // Best effort: a preview left behind is a spare copy, never read once the final files exist.
    await deletePreviews(ctx, documents).catch(() => undefined);
  }
  return sealed;
}
