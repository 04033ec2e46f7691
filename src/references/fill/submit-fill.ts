import type { Transaction } from 'kysely';
import type { ServiceContext } from '../../context.js';
import type { Database, ParticipantRow, ProcessRow, ReferenceLinkRow } from '../../db/schema.js';
import { createSigningProcess } from '../../documents/creating/create-process.js';
import { draftFromTemplate } from '../../documents/creating/drafts.js';
import { checkAnswers } from '../../documents/creating/template-answers.js';
import { participantLink } from '../../documents/notify-participants.js';
import type { FromAddress } from '../../documents/process-events.js';
import { findProcessByCode } from '../../documents/queries.js';
import { fail } from '../../domain-error.js';
import { newObjectId } from '../../ids.js';
import { firstUser } from '../../organizations/queries.js';
import type { FillAnswer, FillChecked, FillConfirmation, FillSubmitted } from '../../people/contract.js';
import { completePrebuilt } from '../../prebuilt/complete-prebuilt.js';
import { withPrefilled } from '../../prebuilt/prebuilt-answers.js';
import { storedAnswers } from '../../prebuilt/stored-prebuilt.js';
import { fillerLinkToken, findReferenceLinkUse, insertReferenceLinkUse } from '../queries.js';
import { validationsOf } from '../reference-links.js';
import { takeLinkUse } from './fill-link.js';
import { markFillSessionUsed } from './fill-session-queries.js';
import { checkOpen, type FillSource, findFillSource, openFillSource } from './fill-source.js';
import { fillerPosition } from './filler.js';
import { checkFormProcessCap, takeFormProcessRoom } from './form-process-cap.js';
import { confirmationDeadline, confirmHeldProcess, holdForConfirmation, pendingConfirmation, resendConfirmationCode } from './submitter-confirmation.js';

type RecordUse = (trx: Transaction<Database>, created: { process: ProcessRow; participants: ParticipantRow[] }) => Promise<void>;

/** The answers a form sends, joined to what was filled in beforehand for a prebuilt process (src/prebuilt/prebuilt-answers.ts). */
function answersOf(source: FillSource, data: readonly FillAnswer[]): FillAnswer[] {
  return source.target.kind === 'prebuilt' ? withPrefilled(storedAnswers(source.target.prebuilt), data) : [...data];
}

/** POST /people/fill/check: every refused answer with its question, in /document/save's words; none when the answers would be taken. */
export async function checkFillAnswers(ctx: ServiceContext, options: { token: string; data: FillAnswer[] }): Promise<FillChecked> {
  const source = await openFillSource(ctx, options.token);
  const report = checkAnswers(source.body, answersOf(source, options.data));
  return { errors: report.ok ? [] : report.problems };
}

/**
 * The creator of the processes a form makes: the user a reference link names, else the
 * organization's first user (the one it was created with). A user who left makes creation answer
 * USER_NOTFOUND, as /document/save does.
 */
async function creatorOf(ctx: ServiceContext, organizationId: string, link?: ReferenceLinkRow): Promise<string> {
  if (link && link.creator_email !== null) return link.creator_email;
  const user = await firstUser(ctx.db, organizationId);
  if (!user) throw fail('USER_NOTFOUND');
  return user.email;
}

/** A public form's process, made under a submission's key: what a retry answers and the submitter confirms. */
interface Made {
  process: Pick<ProcessRow, 'id' | 'organization_id' | 'code'>;
  /** With sign now, the person who filled it, whose signing page is answered once they confirmed. */
  fillerParticipantId: string | null;
}

async function madeUnder(ctx: ServiceContext, source: FillSource, key: string): Promise<Made | undefined> {
  const { target, session } = source;
  if (target.kind === 'reference') {
    const use = await findReferenceLinkUse(ctx.db, target.link.id, key);
    if (use)
      return { process: { id: use.process_id, organization_id: use.organization_id, code: use.process_code }, fillerParticipantId: use.filler_participant_id };
  }
  if (target.kind === 'template' && session && session.process_code !== null && session.idempotency_key === key) {
    const process = await findProcessByCode(ctx.db, session.organization_id, session.process_code);
    if (process) return { process, fillerParticipantId: null };
  }
  return undefined;
}

/** What a submission answers, the first time and to every retry with its key: where the submitter's code went, until they type it. */
async function answerOf(ctx: ServiceContext, made: Made): Promise<FillSubmitted> {
  const { process, fillerParticipantId } = made;
  const confirmation = await pendingConfirmation(ctx, process);
  if (confirmation) return { code: process.code, confirmation };
  const token = fillerParticipantId === null ? undefined : await fillerLinkToken(ctx.db, fillerParticipantId);
  return { code: process.code, ...(token === undefined ? {} : { signingUrl: participantLink(ctx, { link_token: token }) }) };
}

/** What an earlier submission with this key made, answered again: a retried submission makes no second process. */
async function earlierAnswer(ctx: ServiceContext, source: FillSource, key: string): Promise<FillSubmitted | undefined> {
  const { target, session } = source;
  if (target.kind === 'prebuilt') {
    if (target.prebuilt.status === 'COMPLETED' && target.prebuilt.completion_key === key) return { code: target.prebuilt.code };
    if (session && session.process_code !== null && session.idempotency_key === key) return { code: session.process_code };
    return undefined;
  }
  const made = await madeUnder(ctx, source, key);
  return made && answerOf(ctx, made);
}

/**
 * A reference link's form: the process as POST /document/save makes it with these answers (the
 * template's signers read through them, the link's validations at the root, by the link's
 * creator), its use recorded in the same transaction.
 */
async function submitToReference(
  ctx: ServiceContext,
  options: { source: FillSource; link: ReferenceLinkRow; data: FillAnswer[]; idempotencyKey: string; recordWith: RecordUse },
): Promise<FillSubmitted> {
  const { source, link, idempotencyKey } = options;
  const signNow = link.sign_now === 1;
  const filler = fillerPosition(source.body);
  const draft = draftFromTemplate({
    email: await creatorOf(ctx, link.organization_id, link),
    name: source.template.name,
    document: source.template.id,
    data: options.data,
    sign: true,
    notification: true,
    ...validationsOf(link),
  });
  const created = await createSigningProcess(ctx, {
    organizationId: link.organization_id,
    draft: {
      ...draft,
      ...(signNow ? { present: filler } : {}),
      heldUntil: confirmationDeadline(ctx.clock.now()),
      recordWith: async (trx, { process, participants }) => {
        // The link's row is locked before the organization's, in every submission: never the other way round.
        await takeLinkUse(trx, ctx, link);
        await options.recordWith(trx, { process, participants });
        await insertReferenceLinkUse(trx, {
          id: newObjectId(ctx.clock.now()),
          organization_id: link.organization_id,
          reference_link_id: link.id,
          idempotency_key: idempotencyKey,
          process_id: process.id,
          process_code: process.code,
          filler_participant_id: signNow ? (participants[filler]?.id ?? null) : null,
          created_at: process.created_at,
        });
      },
    },
  });
  return { code: created.code };
}

/**
 * A template the SDK's fill flow opened without a reference link: the process as /document/save
 * makes it with the template's defaults (its signers from the answers, no identity validations
 * beyond their own, everyone invited by the service, nobody signing at once), by the
 * organization's first user.
 */
async function submitToTemplate(ctx: ServiceContext, options: { source: FillSource; data: FillAnswer[]; recordWith: RecordUse }): Promise<FillSubmitted> {
  const { source } = options;
  const draft = draftFromTemplate({
    email: await creatorOf(ctx, source.organizationId),
    name: source.template.name,
    document: source.template.id,
    data: options.data,
    sign: true,
    notification: true,
  });
  const created = await createSigningProcess(ctx, {
    organizationId: source.organizationId,
    draft: { ...draft, heldUntil: confirmationDeadline(ctx.clock.now()), recordWith: options.recordWith },
  });
  return { code: created.code };
}

/**
 * POST /people/fill: creates the process of the form (a reference link's, a prebuilt process's, or
 * a template the SDK opened), and records what made it in the same transaction. A key already used
 * answers what its first submission made, so a retried submission makes one process; two at once
 * race on what they record and the loser's process is rolled back with it. An SDK opening makes one
 * process.
 */
export async function submitFill(ctx: ServiceContext, options: { token: string; data: FillAnswer[]; idempotencyKey: string }): Promise<FillSubmitted> {
  const { idempotencyKey } = options;
  const source = await findFillSource(ctx, options.token);
  const earlier = await earlierAnswer(ctx, source, idempotencyKey);
  if (earlier) return earlier;
  checkOpen(ctx, source);
  const { session, target } = source;
  if (target.kind !== 'prebuilt') await checkFormProcessCap(ctx, source.organizationId);
  let confirmation: FillConfirmation | undefined;
  const recordWith: RecordUse = async (trx, { process, participants }) => {
    if (target.kind !== 'prebuilt') await takeFormProcessRoom(trx, ctx, source.organizationId);
    if (session) {
      const used = { tokenHash: session.token_hash, idempotencyKey, processCode: process.code, at: process.created_at };
      if (!(await markFillSessionUsed(trx, used))) throw fail('FILL_SESSION_USED');
    }
    // A prebuilt process's people were chosen by the integrator; a public form's are typed by a stranger.
    if (target.kind === 'prebuilt') return;
    const filler = participants[fillerPosition(source.body)];
    if (!filler) throw new Error("a form's process without the participant who filled it");
    confirmation = await holdForConfirmation(trx, ctx, { process, filler });
  };
  try {
    if (target.kind === 'prebuilt') {
      const prebuilt = { prebuilt: target.prebuilt, template: source.template, data: options.data, idempotencyKey };
      return await completePrebuilt(ctx, { ...prebuilt, recordWith: (trx, process) => recordWith(trx, { process, participants: [] }) });
    }
    const made =
      target.kind === 'reference'
        ? await submitToReference(ctx, { source, link: target.link, data: options.data, idempotencyKey, recordWith })
        : await submitToTemplate(ctx, { source, data: options.data, recordWith });
    return confirmation ? { code: made.code, confirmation } : made;
  } catch (error) {
    // The same key sent twice at once: the other submission's process stands, and is the answer;
    // another key that lost the race is told the form was used.
    const now = await findFillSource(ctx, options.token);
    const winner = await earlierAnswer(ctx, now, idempotencyKey);
    if (winner) return winner;
    checkOpen(ctx, now);
    throw error;
  }
}

/**
 * POST /people/fill/confirm: the code the person who filled the form received at their own
 * address, for the submission made under this key. Right, and the process's others are invited
 * (with sign now, the answer is the filler's signing page); answered again once confirmed.
 */
/** The submission the form's link made under `idempotencyKey`: the confirmation's calls name it so. */
async function submissionUnder(ctx: ServiceContext, token: string, idempotencyKey: string): Promise<Made> {
  const made = await madeUnder(ctx, await findFillSource(ctx, token), idempotencyKey);
  if (!made) throw fail('FILL_SUBMISSION_NOT_FOUND');
  return made;
}

/** Sends the submitter of the submission `idempotencyKey` names a new code, and answers as the submission did. */
export async function resendFillCode(ctx: ServiceContext, options: { token: string; idempotencyKey: string }): Promise<FillSubmitted> {
  const made = await submissionUnder(ctx, options.token, options.idempotencyKey);
  await resendConfirmationCode(ctx, { process: made.process });
  return answerOf(ctx, made);
}

export async function confirmFill(ctx: ServiceContext, options: { token: string; idempotencyKey: string; code: string } & FromAddress): Promise<FillSubmitted> {
  const made = await submissionUnder(ctx, options.token, options.idempotencyKey);
  await confirmHeldProcess(ctx, { process: made.process, code: options.code, ...(options.ip === undefined ? {} : { ip: options.ip }) });
  return answerOf(ctx, made);
}
