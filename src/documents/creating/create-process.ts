import type { Transaction } from 'kysely';
import type { ServiceContext } from '../../context.js';
import type { Database, ParticipantRow, ProcessDocumentRow, ProcessKind, ProcessRow, TemplateRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { DomainError, fail, invalid } from '../../domain-error.js';
import { answerMessage } from '../../error-catalogue.js';
import { writeBlobBytes } from '../../files/blob-bytes.js';
import { DOCUMENT_URL_LIFETIME_SECONDS } from '../../files/document-url-lifetime.js';
import { newCode, newObjectId, newToken } from '../../ids.js';
import { checkCreation } from '../../organizations/creation-checks.js';
import { normalizeEmail } from '../../organizations/organizations.js';
import { enqueue } from '../../outbox/enqueue.js';
import { layoutToKeep } from '../../templates/page-layout.js';
import { lockTemplateExists } from '../../templates/queries.js';
import { findTemplate } from '../../templates/read-templates.js';
import type { TemplateBody } from '../../templates/schemas.js';
import { attachmentRows } from '../attachments/attachment-rows.js';
import { insertAttachments } from '../attachments/queries.js';
import { documentFileKey, sha256 } from '../document-files.js';
import { findEditedProcess } from '../editing/edit-mode.js';
import { clearProcessContent, ensureFolder, replaceProcessFields } from '../editing/queries.js';
import { type EffectiveValidations, resolveValidations } from '../identity-validations.js';
import { nextReminderAt } from '../lifecycle/process-sweeps.js';
import { notifyParticipants, participantLink } from '../notify-participants.js';
import { NO_IDENTITY_STEPS } from '../participant/identity-steps.js';
import { lockProcess } from '../participant/signer-queries.js';
import { recordAwaitedPlacements } from '../placement/awaited-placements.js';
import { recordSignatureBoxes } from '../placement/box-queries.js';
import { boxRows } from '../placement/box-rows.js';
import { hasPlacement, type ParticipantBoxes, placeSignatures, type SignerPlacement } from '../placement/place-signatures.js';
import { recordProcessEvent } from '../process-events.js';
import { insertDocuments, insertParticipants, insertProcess } from '../queries.js';
import { inviteReaders } from '../readers/notify-readers.js';
import { insertReaders } from '../readers/queries.js';
import { readerRows } from '../readers/reader-rows.js';
import { type Answer, PARTICIPANT_ID_LENGTH, PROCESS_CODE_LENGTH, type ProcessFieldsInput, type SignerInput } from '../schemas.js';
import { fillTemplateHtml } from './fill-template-html.js';
import { admitPdf } from './pdf-intake.js';
import { PRINT_PROCESS_JOB } from './print-process.js';
import { resolveAnswers } from './template-answers.js';
import { parsedTemplateBody } from './template-body.js';
import { parsedTemplateHtml } from './template-html.js';
import { keptSignatureKinds, signersFromTemplate } from './template-signers.js';

export type DocumentDraft =
  | { source: 'template'; name?: string; templateId: string; data: Answer[] }
  | {
      source: 'pdf';
      name: string;
      /** Base64; absent when the PDF comes through an upload URL. */
      file?: string;
      /** Where each participant signs this PDF's pages; none keeps the signatures on the certificate pages. */
      placements?: SignerPlacement[];
    };

/** What the three creation endpoints have in common once their shapes are read. */
export interface ProcessDraft {
  kind: ProcessKind;
  fields: ProcessFieldsInput;
  documents: DocumentDraft[];
  /** Absent for a single template document: the template's signatureProfile and the answers supply them. */
  signers?: SignerInput[];
  /**
   * `sign: false` (POST /document/save): nobody signs. The process is FINISH at once, its
   * participants are never invited (no links), and a job e-mails them the PDF for printing.
   */
  print?: boolean;
  /** A package whose signers keep validations of their own (POST /package/upload); /document/many takes the root's only. */
  ownValidations?: boolean;
  /** How messages name each signer (`signProfile[0]`, `documents[1].signProfile[0]`). */
  signerLabels?: string[];
  /**
   * The participant (by position) who is at the page already: the person who filled a reference
   * link that signs now. Not invited; the creation answers their link.
   */
  present?: number;
  /**
   * A public form's process, held until the person who filled it confirms their own address: made
   * with nobody invited (as while a PDF is awaited), and expiring at this instant unless released.
   */
  heldUntil?: Date;
  /** The code reserved for the process beforehand: a prebuilt process keeps the code it was answered. */
  code?: string;
  /**
   * When the expiry date was checked against the three days' rule: a prebuilt process's creation,
   * so that completing it later is not refused for an expiry that has come nearer meanwhile.
   */
  expiryCheckedAt?: Date;
  /**
   * The code of a process in edit mode that this creation overwrites (POST /document/upload or
   * /save with `code`, /document/many with `package`): its code and creation date are kept.
   */
  replaces?: string;
  /** Rows written in the creation's own transaction: a reference link's use commits with its process or not at all. */
  recordWith?: (trx: Transaction<Database>, created: { process: ProcessRow; participants: ParticipantRow[] }) => Promise<void>;
}

export interface CreatedParticipant {
  id: string;
  name: string;
  email: string;
  phone?: string;
  role: ParticipantRow['role'];
  /** The personal link, only for participants the service does not notify: the integrator delivers it. */
  url?: string;
}

export interface CreatedProcess {
  code: string;
  /** The same code under the real service's name for it. */
  document: string;
  signProfile: CreatedParticipant[];
  /** `code`: a package document's own code. */
  documents: { name: string; code?: string; url?: string }[];
}

interface PreparedDocument {
  row: ProcessDocumentRow;
  bytes?: Buffer;
  boxes?: ParticipantBoxes[];
  template?: { row: TemplateRow; body: TemplateBody; answers: Record<string, string> };
}

/**
 * Unique within the process. The real service's are two characters (`G8`); here they are long
 * enough that nobody guesses one: with the process code they open the person's flow in the SDK.
 */
function participantIds(count: number): string[] {
  const ids = new Set<string>();
  while (ids.size < count) ids.add(newCode(PARTICIPANT_ID_LENGTH));
  return [...ids];
}

async function prepareDocument(
  ctx: ServiceContext,
  options: { organizationId: string; processId: string; kind: ProcessKind; replacing: boolean; position: number; draft: DocumentDraft; now: string },
): Promise<PreparedDocument> {
  const { draft, processId, position, now } = options;
  const id = newObjectId(new Date(now));
  const base = {
    id,
    process_id: processId,
    position,
    code: options.kind === 'package' ? newCode(PROCESS_CODE_LENGTH) : null,
    created_at: now,
  };
  // An overwrite's files are named by the new document, so the ones it replaces stay until it commits.
  const keyOwner = options.replacing ? id : processId;
  if (draft.source === 'pdf') {
    const key = documentFileKey(keyOwner, position, 'pdf');
    const row: ProcessDocumentRow = {
      ...base,
      name: draft.name,
      source: 'pdf',
      template_id: null,
      template_build: null,
      answers: null,
      layout: null,
      file_key: key,
      file_ready: 0,
      sha256: null,
    };
    if (draft.file === undefined) return { row };
    const bytes = Buffer.from(draft.file, 'base64');
    if (bytes.length > ctx.uploadMaxBytes) throw fail('FILE_TOO_LARGE', `at most ${ctx.uploadMaxBytes} bytes`);
    const intake = await admitPdf(bytes);
    if (!intake.accepted) throw fail('FILE_NOT_VALID', intake.reason);
    const placed = await placeSignatures(intake.bytes, draft.placements ?? []);
    return { row: { ...row, file_ready: 1, sha256: sha256(placed.bytes) }, bytes: placed.bytes, boxes: placed.boxes };
  }
  const template = await findTemplate(ctx, options.organizationId, draft.templateId);
  if (!template) throw fail('TEMPLATE_NOT_FOUND', { when: 'elsewhere' });
  const body = parsedTemplateBody(ctx, template);
  const resolved = resolveAnswers(body, draft.data);
  if (!resolved.ok) throw new DomainError(answerMessage(resolved.message));
  const html = await parsedTemplateHtml(ctx, template);
  if (!html) {
    // A delete that committed meanwhile removes the files too: say what really happened.
    if (!(await findTemplate(ctx, options.organizationId, draft.templateId))) throw fail('TEMPLATE_NOT_FOUND', { when: 'elsewhere' });
    throw fail('TEMPLATE_HTML_MISSING', 'upload the Complete HTML of the template first');
  }
  const bytes = Buffer.from(fillTemplateHtml({ html, body, answers: resolved.answers }), 'utf8');
  const layout = layoutToKeep(body.custom);
  return {
    row: {
      ...base,
      name: draft.name ?? template.name,
      source: 'template',
      template_id: template.id,
      template_build: template.build,
      answers: JSON.stringify(resolved.answers),
      layout: layout === undefined ? null : JSON.stringify(layout),
      file_key: documentFileKey(keyOwner, position, 'template'),
      file_ready: 1,
      sha256: sha256(bytes),
    },
    bytes,
    template: { row: template, body, answers: resolved.answers },
  };
}

function chooseSigners(draft: ProcessDraft, documents: PreparedDocument[]): SignerInput[] {
  if (draft.signers) return draft.signers;
  const template = documents[0]?.template;
  if (!template) throw invalid('"signProfile" is required');
  const derived = signersFromTemplate(template.body, template.answers);
  if (!derived.ok) throw new DomainError(answerMessage(derived.message));
  const seen = new Set<string>();
  for (const signer of derived.signers) {
    if (seen.has(signer.email)) throw fail('SIGNER_EMAIL_DUPLICATED', `${signer.email} signs twice in the template's signatureProfile`);
    seen.add(signer.email);
  }
  return derived.signers;
}

function participantRows(options: {
  processId: string;
  signers: SignerInput[];
  /** The template bodies of the process's documents, whose signature questions say how each participant may sign. */
  templates: TemplateBody[];
  validations: EffectiveValidations[];
  notification: boolean;
  present: number | undefined;
  startNow: boolean;
  now: string;
}): ParticipantRow[] {
  const { signers, validations, now } = options;
  const firstTurn = Math.min(...signers.map((s) => s.order));
  const ids = participantIds(signers.length);
  return signers.map((signer, position) => ({
    id: newObjectId(new Date(now)),
    process_id: options.processId,
    participant_id: ids[position] ?? newCode(PARTICIPANT_ID_LENGTH),
    position,
    role: signer.role,
    sign_order: signer.order,
    name: signer.name,
    email: normalizeEmail(signer.email),
    phone: signer.phone ?? null,
    identification: signer.identification ?? null,
    identification_type: signer.identificationType ?? null,
    country: signer.country ?? null,
    signer_type: signer.type ?? null,
    notification: position !== options.present && (signer.notification ?? options.notification) ? 1 : 0,
    validations: JSON.stringify(validations[position]),
    status: options.startNow && signer.order === firstTurn ? 'NOTIFICATION' : 'PENDING',
    link_token: newToken(),
    ...NO_IDENTITY_STEPS,
    signed_at: null,
    signature_kinds: signer.role === 'SIGNER' ? keptSignatureKinds(options.templates, signer.type) : null,
    rejected_at: null,
    reject_reason: null,
    block_reason: null,
    language: signer.language ?? null,
    created_at: now,
    updated_at: now,
  }));
}

/**
 * Creates a signing process or a package: checks the creator, the documents (template answers
 * filled into the Complete HTML, or a PDF), the participants and their identity validations;
 * stores the files, then the process, its documents, participants, audit line, webhook and the
 * invitations of the first turn in one transaction. Participants wait while an uploaded PDF is
 * awaited; they are invited when the last file arrives.
 */
export async function createSigningProcess(ctx: ServiceContext, options: { organizationId: string; draft: ProcessDraft }): Promise<CreatedProcess> {
  const { organizationId, draft } = options;
  const { fields } = draft;
  const now = ctx.clock.now();
  const at = now.toISOString();
  await checkCreation(ctx.db, {
    organizationId,
    now: draft.expiryCheckedAt ?? now,
    creatorEmail: fields.email,
    ...(fields.expiredDate ? { expiredDate: fields.expiredDate } : {}),
    ...(fields.targetWebhooks ? { targetWebhooks: fields.targetWebhooks } : {}),
  });
  const replacing = draft.replaces === undefined ? undefined : await findEditedProcess(ctx.db, { organizationId, code: draft.replaces, kind: draft.kind });
  const processId = replacing?.id ?? newObjectId(now);
  const documents: PreparedDocument[] = [];
  for (const [position, document] of draft.documents.entries()) {
    documents.push(
      await prepareDocument(ctx, { organizationId, processId, kind: draft.kind, replacing: replacing !== undefined, position, draft: document, now: at }),
    );
  }
  const signers = chooseSigners(draft, documents);
  const resolved = resolveValidations({
    root: fields,
    signers: signers.map((signer, i) => ({ ...signer, label: draft.signerLabels?.[i] ?? `signProfile[${i}]` })),
    package: draft.kind === 'package' && draft.ownValidations !== true,
  });
  if (!resolved.ok) throw new DomainError(answerMessage(resolved.message));

  const print = draft.print === true;
  const startNow = !print && draft.heldUntil === undefined && documents.every((d) => d.row.file_ready === 1);
  const expiresAt = draft.heldUntil ?? fields.expiredDate;
  const process: ProcessRow = {
    id: processId,
    code: replacing?.code ?? draft.code ?? newCode(PROCESS_CODE_LENGTH),
    organization_id: organizationId,
    kind: draft.kind,
    name: fields.name,
    status: print ? 'FINISH' : 'CREATED',
    creator_email: normalizeEmail(fields.email),
    subject: fields.subject ?? fields.name,
    message: fields.message ?? '',
    expires_at: expiresAt ? expiresAt.toISOString() : null,
    remind_every_hours: fields.remember ?? null,
    next_reminder_at: startNow && fields.remember !== undefined ? nextReminderAt(now, fields.remember) : null,
    custom: fields.custom ? JSON.stringify(fields.custom) : null,
    target_webhooks: fields.targetWebhooks ? JSON.stringify(fields.targetWebhooks) : null,
    tags: fields.tags ? JSON.stringify(fields.tags) : null,
    end_reason: null,
    ended_by: null,
    sealed_at: null,
    photos_deleted_at: null,
    seal_failed_at: null,
    seal_failure: null,
    folder_id: null,
    sign: print ? 0 : 1,
    created_at: replacing?.created_at ?? at,
    updated_at: at,
  };
  const participants = participantRows({
    processId,
    signers,
    templates: documents.flatMap((document) => (document.template ? [document.template.body] : [])),
    validations: resolved.signers,
    notification: fields.notification,
    present: draft.present,
    startNow,
    now: at,
  });
  const readers = readerRows({ processId, fields, participantEmails: participants.map((p) => p.email), now: at });
  // Files are given on the signing page, which a process for printing never opens.
  const attachments = print
    ? []
    : attachmentRows({
        processId,
        signers,
        labels: (i) => draft.signerLabels?.[i] ?? `signProfile[${i}]`,
        participants,
        validations: resolved.signers,
        now: at,
      });

  const written: string[] = [];
  let replaced: string[] = [];
  try {
    for (const { row, bytes } of documents) {
      if (!bytes || !row.file_key) continue;
      await writeBlobBytes(ctx.blobs, row.file_key, bytes, row.source === 'pdf' ? 'application/pdf' : 'text/html');
      written.push(row.file_key);
    }
    await withTransaction(ctx, async (trx) => {
      // Locked so a template delete cannot slip between these checks and the insert.
      const templateIds = new Set(documents.flatMap((d) => (d.row.template_id ? [d.row.template_id] : [])));
      for (const id of templateIds) {
        if (!(await lockTemplateExists(trx, ctx.dialect, organizationId, id))) throw fail('TEMPLATE_NOT_FOUND', { when: 'elsewhere' });
      }
      if (fields.folder !== undefined) {
        process.folder_id = await ensureFolder(trx, { organizationId, owner: process.creator_email, path: fields.folder, now: at });
      }
      if (replacing) {
        // Under the process's lock: a second overwrite, or a cancellation, waits and then finds it changed.
        if ((await lockProcess(trx, ctx.dialect, processId))?.status !== 'EDITING') throw fail('DOCUMENT_NOT_IN_EDIT', 'it changed meanwhile');
        replaced = await clearProcessContent(trx, processId);
        await replaceProcessFields(trx, process);
      } else {
        await insertProcess(trx, process);
      }
      await insertDocuments(
        trx,
        documents.map((d) => d.row),
      );
      await insertParticipants(trx, participants);
      await insertReaders(trx, readers);
      await insertAttachments(trx, attachments);
      for (const { row, boxes } of documents) {
        await recordSignatureBoxes(trx, boxRows({ processId, documentPosition: row.position, boxes: boxes ?? [], participants }));
      }
      await recordAwaitedPlacements(
        trx,
        draft.documents.flatMap((document, documentPosition) =>
          document.source === 'pdf' && document.file === undefined && hasPlacement(document.placements ?? [])
            ? [{ processId, documentPosition, placements: document.placements ?? [] }]
            : [],
        ),
      );
      await recordProcessEvent(trx, ctx.clock, {
        process,
        action: replacing ? 'UPDATE_SIGN' : 'CREATE',
        actor: process.creator_email,
        ...(replacing ? { platform: 'API' } : {}),
        detail: { documents: documents.length, participants: participants.length },
        documents: documents.map(({ row }) => row),
      });
      await notifyParticipants(trx, ctx, { process, participants, occasion: 'invitation' });
      if (print) await enqueue(trx, ctx.clock, [{ kind: 'job', organizationId, payload: { name: PRINT_PROCESS_JOB, data: { processId } } }]);
      if (startNow) await inviteReaders(trx, ctx, { process, readers });
      await draft.recordWith?.(trx, { process, participants });
    });
  } catch (error) {
    await ctx.blobs.delete(written);
    throw error;
  }
  await ctx.blobs.delete(replaced.filter((key) => !written.includes(key)));

  const uploadUrl = (row: ProcessDocumentRow) =>
    row.file_ready === 0 && row.file_key
      ? ctx.blobs.presign(row.file_key, { method: 'PUT', expiresInSeconds: DOCUMENT_URL_LIFETIME_SECONDS, contentType: 'application/pdf' })
      : undefined;
  return {
    code: process.code,
    document: process.code,
    signProfile: participants.map((p) => ({
      id: p.participant_id,
      name: p.name,
      email: p.email,
      ...(p.phone === null ? {} : { phone: p.phone }),
      role: p.role,
      ...(p.notification === 1 || print ? {} : { url: participantLink(ctx, p) }),
    })),
    documents: await Promise.all(
      documents.map(async ({ row }) => {
        const url = await uploadUrl(row);
        return { name: row.name, ...(row.code === null ? {} : { code: row.code }), ...(url === undefined ? {} : { url }) };
      }),
    ),
  };
}
