import type { ServiceContext } from '../../context.js';
import type { FinalFileRow, ParticipantRow, ProcessDocumentRow, ProcessRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { readBlobBytes } from '../../files/blob-bytes.js';
import { listAttempts } from '../../identity-attempts/queries.js';
import { newObjectId } from '../../ids.js';
import { templatedEmail } from '../../messages/message-templates.js';
import { type Language, personLanguage } from '../../organizations/languages.js';
import { readSettings } from '../../organizations/settings.js';
import type { Claim } from '../../outbox/claim.js';
import { enqueue, type NewMessage } from '../../outbox/enqueue.js';
import { chainNames } from '../../pdf-signing/seal-report.js';
import { RevocationAnswers } from '../../pdf-signing/validation-data.js';
import { queueSignedDocuments } from '../../whatsapp/conversation/invitations.js';
import { listProcessAttachments } from '../attachments/queries.js';
import { documentLabel, sha256, signedBytes, UnusableDocumentFile } from '../document-files.js';
import { documentLayout } from '../document-layout.js';
import { participantLink, validationsOf } from '../notify-participants.js';
import { listSignatureBoxes } from '../placement/box-queries.js';
import { deletePreviews } from '../preview/document-preview.js';
import { recordProcessEvent } from '../process-events.js';
import { findProcessById, listDocuments, listParticipants, listProcessEvents, markSealed } from '../queries.js';
import { finalCopies } from '../readers/notify-readers.js';
import { recordFinalFiles } from './final-file-queries.js';
import { ClaimLostError, FinalFileWriter } from './final-file-writer.js';
import { placedStamps } from './placed-stamps.js';
import { type FinalFile, type SealEvidence, signingTrail } from './seal-evidence.js';
import { sealTemplateHtml } from './seal-html.js';
import { documentCertificate, drawableImages, finishCertificate, type SealContext, type SealJob, standaloneCertificate } from './seal-job.js';
import { finalFilesLanguage, sealLocale } from './seal-language.js';
import { signaturesSection, stampMarkup } from './seal-markup.js';
import { sealRenderedPdf, sealUploadedPdf } from './seal-pdf.js';
import { startEarly } from './start-early.js';

export type { SealContext } from './seal-job.js';

/** Each OCSP responder or CRL a B-LT seal asks gets this long before the next is tried. */
const REVOCATION_TIMEOUT_MS = 5_000;

/**
 * Where one seal run writes the final files of a process: a folder of its own (the run's id), so
 * no run ever writes over another's files. Which run's files are final is what the mark records.
 */
function runFolder(processId: string, runId: string): string {
  return `processes/${processId}/final/${runId}`;
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
async function sealDocument(job: SealJob, document: ProcessDocumentRow, original: Buffer): Promise<Buffer> {
  const { ctx, evidence } = job;
  const { locale } = evidence;
  if (document.source === 'pdf') {
    const stamps = job.boxes.length === 0 ? [] : placedStamps(evidence, job.boxes, document.position, await job.images);
    const sealed = await sealUploadedPdf(original, { certificate: await documentCertificate(job), mark: job.mark, seal: job.seal, stamps });
    // Never an unsigned final file: a copy of the upload would be certified as sealed. Only PDFs
    // accepted before intake opened them as the seal does can get here.
    if (!sealed) throw new UnusableDocumentFile(`${documentLabel(document)} is a PDF the seal cannot open`);
    return sealed;
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
  const layout = documentLayout(document);
  const rendered = await ctx.renderer.render(html, layout);
  // A template's own footer takes the place of the verification mark on its pages (docs/real-service.md §2.2).
  return sealRenderedPdf(rendered, { certificate: await documentCertificate(job), mark: job.mark, seal: job.seal, markDocument: !layout?.footer });
}

/** Each participant is told in their own language (`organization`'s when none was given for them). */
function finishedEmails(ctx: ServiceContext, process: ProcessRow, participants: ParticipantRow[], organization: Language, withDocument: boolean): NewMessage[] {
  // A process without a document (POST /package/upload) ends when its files are approved: nobody signed anything.
  const template = withDocument ? 'process-finished' : 'attachments-approved';
  return participants
    .filter((participant) => participant.notification === 1)
    .map((participant) => ({
      kind: 'email' as const,
      organizationId: process.organization_id,
      payload: templatedEmail(
        participant.email,
        template,
        { processName: process.name, link: participantLink(ctx, participant) },
        personLanguage(participant.language, organization),
      ),
    }));
}

/**
 * Writes the sealed documents and the evidence certificate of a FINISHED process (PDFs signed by
 * the instance), marks it sealed and tells the participants, readers and CC addresses; idempotent. Answers whether this
 * call sealed it.
 *
 * Each run writes a whole set of final files under keys of its own (runFileKeys) and records them
 * with the mark, in its one transaction: the first mark wins, and only recorded files are ever
 * handed out or certified (`finalFileKeys`), so a run that resumes late can never replace them.
 * `claim`, the outbox's hold on the seal job, is renewed before each write and in the mark: a
 * run that lost it stops without writing more. A run that stopped half-way recorded nothing; the
 * next makes a whole set again rather than reuse files no record vouches for.
 */
export async function sealProcess(ctx: SealContext, options: { processId: string; claim?: Claim }): Promise<boolean> {
  const process = await findProcessById(ctx.db, options.processId);
  if (process?.status !== 'FINISH' || process.sealed_at !== null) return false;
  const [documents, participants, allEvents, settings, boxes, attempts, attachments] = await Promise.all([
    listDocuments(ctx.db, process.id),
    listParticipants(ctx.db, process.id),
    listProcessEvents(ctx.db, process.id),
    readSettings(ctx.db, process.organization_id),
    listSignatureBoxes(ctx.db, process.id),
    listAttempts(ctx.db, { organizationId: process.organization_id, ownerId: process.id }),
    listProcessAttachments(ctx.db, process.id),
  ]);
  const signed: { row: ProcessDocumentRow; bytes: Buffer; sha256: string }[] = [];
  for (const row of documents) signed.push({ row, ...(await signedBytes(ctx, row)) });

  const organizationLanguage = settings?.language ?? 'es';
  const locale = sealLocale(finalFilesLanguage(participants, organizationLanguage), settings?.timeZone ?? 'UTC');
  const trail = signingTrail(allEvents);
  const level = settings?.padesLevel ?? ctx.documentSigner.defaultLevel;
  const { identity } = ctx.documentSigner;
  const evidence: SealEvidence = {
    process,
    finishedAt: trail.finish?.at ?? process.updated_at,
    documents: signed.map(({ row, sha256: hash }) => ({ row, sha256: hash })),
    participants,
    attempts,
    attachments,
    events: trail.events,
    signaturePngs: await signaturePngs(ctx, participants),
    locale,
    seal: { level, chain: chainNames(identity.certificate, [identity.certificate, ...identity.chain]) },
  };
  const url = verifyUrl(ctx.publicUrl, process.code);
  const job: SealJob = {
    ctx,
    evidence,
    images: startEarly(drawableImages(evidence.signaturePngs)),
    boxes,
    mark: {
      url,
      lines: [`${locale.labels.verifyAt} ${url}`, `${locale.labels.code}: ${process.code}`],
      pageNumber: (page, pages) => `${locale.labels.page} ${page} ${locale.labels.of} ${pages}`,
    },
    seal: {
      signer: ctx.documentSigner,
      level,
      revocations: new RevocationAnswers(REVOCATION_TIMEOUT_MS),
      signedAt: new Date(evidence.finishedAt),
      reason: locale.labels.sealReason,
      location: ctx.publicUrl,
      verifyUrl: url,
    },
  };

  const folder = runFolder(process.id, newObjectId(ctx.clock.now()));
  const writer = new FinalFileWriter(ctx, options.claim);
  // Drawn while Chromium renders the first document.
  const certificate = startEarly(standaloneCertificate(job));
  startEarly(documentCertificate(job));

  let marking = false;
  try {
    // Each document's final file is written while the next one is made and the certificate finished.
    const made: FinalFile[] = [];
    const files: Omit<FinalFileRow, 'created_at'>[] = [];
    for (const { row: document, bytes } of signed) {
      if (writer.stopped) break;
      const file = `${document.position}.pdf`;
      const sealed = await sealDocument(job, document, bytes);
      const hash = sha256(sealed);
      // A failed write stops the loop (writer.stopped) and fails the certificate's write after it.
      startEarly(writer.write(`${folder}/${file}`, sealed));
      made.push({ document, file, sha256: hash });
      files.push({ process_id: process.id, file_key: `${folder}/${file}`, sha256: hash, document_position: document.position });
    }
    const certificateBytes = await finishCertificate(job, await certificate, made);
    await writer.write(`${folder}/certificate.pdf`, certificateBytes);
    files.push({ process_id: process.id, file_key: `${folder}/certificate.pdf`, sha256: sha256(certificateBytes), document_position: null });

    marking = true;
    const marked = await withTransaction(ctx, async (trx) => {
      if (options.claim && !(await options.claim.renew(trx))) return false;
      const now = ctx.clock.now().toISOString();
      if (!(await markSealed(trx, process.id, now))) return false;
      await recordFinalFiles(
        trx,
        files.map((file) => ({ ...file, created_at: now })),
      );
      // Told once: only the run whose mark commits gets here, and its files are recorded just above.
      await recordProcessEvent(trx, ctx.clock, { process, action: 'SIGNED_FILES_READY' });
      await enqueue(trx, ctx.clock, [
        ...finishedEmails(ctx, process, participants, organizationLanguage, documents.length > 0),
        // Readers and CC addresses are nobody's participants: they read the organization's language.
        ...(await finalCopies(trx, ctx, { process, language: organizationLanguage })),
      ]);
      await queueSignedDocuments(trx, ctx, {
        process,
        recipients: participants.filter((participant) => participant.notification === 1 && validationsOf(participant).options.whatsapp),
        documents,
        files,
        organizationLanguage,
      });
      return true;
    });
    if (!marked) {
      await writer.removeWritten();
      return false;
    }
  } catch (error) {
    // A mark that failed may still have committed: its files stay. Otherwise nothing recorded them.
    if (!marking) await writer.removeWritten();
    if (error instanceof ClaimLostError) return false;
    throw error;
  }
  // Best effort: a preview left behind is a spare copy, never read once the final files exist.
  await deletePreviews(ctx, documents).catch(() => undefined);
  return true;
}
