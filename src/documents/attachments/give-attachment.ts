import type { ServiceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { fail } from '../../domain-error.js';
import { writeBlobBytes } from '../../files/blob-bytes.js';
import { newToken } from '../../ids.js';
import { sha256 } from '../document-files.js';
import {
  type ChangeTools,
  changeSigning,
  loadSigning,
  requirementsMet,
  requirementsOf,
  type Signing,
  type SigningView,
  signingView,
} from '../participant/signer-access.js';
import { participantDone } from '../participant/signer-flow.js';
import { addressDetail, type FromAddress, recordProcessEvent } from '../process-events.js';
import { listDocuments } from '../queries.js';
import { admitAttachment, extensionOf } from './attachment-intake.js';
import { missingAttachments } from './attachments-asked.js';
import { listPlaceAttachments, recordGivenFile } from './queries.js';

/** The asked file at `position`, or the refusal when the participant is asked none there. */
function askedAt<T extends { position: number }>(rows: T[], position: number): T {
  const row = rows.find((r) => r.position === position);
  if (!row) throw fail('ATTACHMENT_UNKNOWN', `no file is asked at ${position}`);
  return row;
}

/**
 * In a process without a document (POST /package/upload with only files asked) there is nothing to
 * sign: a participant is done once every required file is given and their identity validations
 * are met, and the last one done finishes the process. Answers the participant's signing as it is
 * then, or nothing while they still have something to give.
 */
async function doneWithFiles(trx: Db, ctx: ServiceContext, tools: Pick<ChangeTools, 'fresh' | 'now' | 'update'>): Promise<Signing | undefined> {
  const { fresh } = tools;
  if ((await listDocuments(trx, fresh.process.id)).length > 0) return undefined;
  if (!requirementsMet(requirementsOf(fresh.participant))) return undefined;
  if (missingAttachments(await listPlaceAttachments(trx, fresh.participant.id)).length > 0) return undefined;
  const participant = await tools.update({ status: 'FINISH', signed_at: tools.now });
  await recordProcessEvent(trx, ctx.clock, { process: fresh.process, action: 'ATTACHMENTS_GIVEN', participant });
  const status = await participantDone(trx, ctx, fresh.process);
  return { process: { ...fresh.process, status }, participant };
}

/**
 * The participant gives one of the files asked of them (or gives it again, in place of the one
 * before) while it is their turn, before they sign. The bytes are stored under a key of their own
 * first (never public: read only through short-lived signed URLs); then, under the process lock,
 * one transaction keeps them on the asked file and writes the ATTACHMENT_UPLOAD line with its name
 * and SHA-256. The file it replaces is deleted once that committed; a refused one is deleted at once.
 */
export async function giveAttachment(ctx: ServiceContext, options: { token: string; position: number; bytes: Buffer } & FromAddress): Promise<SigningView> {
  const signing = await loadSigning(ctx, options.token);
  askedAt(await listPlaceAttachments(ctx.db, signing.participant.id), options.position);
  const contentType = admitAttachment(options.bytes);
  const { process, participant } = signing;
  const key = `processes/${process.id}/participants/${participant.participant_id}/attachments/${options.position}-${newToken(9)}.${extensionOf(contentType)}`;
  await writeBlobBytes(ctx.blobs, key, options.bytes, contentType);
  const hash = sha256(options.bytes);
  const outcome = await changeSigning(ctx, signing, async ({ trx, fresh, now, update }) => {
    const asked = askedAt(await listPlaceAttachments(trx, fresh.participant.id), options.position);
    await recordGivenFile(trx, asked.id, { file_key: key, sha256: hash, content_type: contentType, size: options.bytes.length, uploaded_at: now });
    await recordProcessEvent(trx, ctx.clock, {
      process: fresh.process,
      action: 'ATTACHMENT_UPLOAD',
      participant: fresh.participant,
      message: `${asked.name} (SHA-256 ${hash})`,
      detail: { attachment: asked.name, sha256: hash, contentType, size: options.bytes.length, ...addressDetail(options) },
    });
    const done = await doneWithFiles(trx, ctx, { fresh, now, update });
    return { signing: done ?? fresh, replaced: asked.file_key };
  }).catch(async (error: unknown) => {
    await ctx.blobs.delete([key]);
    throw error;
  });
  if (outcome.replaced !== null) await ctx.blobs.delete([outcome.replaced]);
  return signingView(ctx, outcome.signing);
}
