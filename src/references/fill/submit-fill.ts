import type { Transaction } from 'kysely';
import type { ServiceContext } from '../../context.js';
import type { Database, ProcessRow, ReferenceLinkRow } from '../../db/schema.js';
import { createSigningProcess } from '../../documents/creating/create-process.js';
import { draftFromTemplate } from '../../documents/creating/drafts.js';
import { checkAnswers } from '../../documents/creating/template-answers.js';
import { participantLink } from '../../documents/notify-participants.js';
import { fail } from '../../domain-error.js';
import { newObjectId } from '../../ids.js';
import { firstUser } from '../../organizations/queries.js';
import type { FillAnswer, FillChecked, FillSubmitted } from '../../people/contract.js';
import { completePrebuilt } from '../../prebuilt/complete-prebuilt.js';
import { withPrefilled } from '../../prebuilt/prebuilt-answers.js';
import { storedAnswers } from '../../prebuilt/stored-prebuilt.js';
import { fillerLinkToken, findReferenceLinkUse, insertReferenceLinkUse } from '../queries.js';
import { validationsOf } from '../reference-links.js';
import { markFillSessionUsed } from './fill-session-queries.js';
import { checkOpen, type FillSource, findFillSource, openFillSource } from './fill-source.js';
import { fillerPosition } from './filler.js';
import { checkFormProcessCap } from './form-process-cap.js';

type RecordUse = (trx: Transaction<Database>, process: ProcessRow) => Promise<void>;

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

/** The answer a use of a reference link gives, the first time and to every retry with its key. */
async function answerOf(ctx: ServiceContext, use: { process_code: string; filler_participant_id: string | null }): Promise<FillSubmitted> {
  const token = use.filler_participant_id === null ? undefined : await fillerLinkToken(ctx.db, use.filler_participant_id);
  return { code: use.process_code, ...(token === undefined ? {} : { signingUrl: participantLink(ctx, { link_token: token }) }) };
}

/** What an earlier submission with this key made, answered again: a retried submission makes no second process. */
async function earlierAnswer(ctx: ServiceContext, source: FillSource, key: string): Promise<FillSubmitted | undefined> {
  const { target, session } = source;
  if (target.kind === 'reference') {
    const use = await findReferenceLinkUse(ctx.db, target.link.id, key);
    if (use) return answerOf(ctx, use);
  }
  if (target.kind === 'prebuilt' && target.prebuilt.status === 'COMPLETED' && target.prebuilt.completion_key === key) return { code: target.prebuilt.code };
  if (session && session.process_code !== null && session.idempotency_key === key) return { code: session.process_code };
  return undefined;
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
      recordWith: async (trx, { process, participants }) => {
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
        await options.recordWith(trx, process);
      },
    },
  });
  const url = signNow ? created.signProfile[filler]?.url : undefined;
  return { code: created.code, ...(url === undefined ? {} : { signingUrl: url }) };
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
    draft: { ...draft, recordWith: (trx, { process }) => options.recordWith(trx, process) },
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
  const recordWith: RecordUse = async (trx, process) => {
    if (!session) return;
    const used = { tokenHash: session.token_hash, idempotencyKey, processCode: process.code, at: process.created_at };
    if (!(await markFillSessionUsed(trx, used))) throw fail('FILL_SESSION_USED');
  };
  try {
    if (target.kind === 'reference') return await submitToReference(ctx, { source, link: target.link, data: options.data, idempotencyKey, recordWith });
    if (target.kind === 'prebuilt') {
      return await completePrebuilt(ctx, { prebuilt: target.prebuilt, template: source.template, data: options.data, idempotencyKey, recordWith });
    }
    return await submitToTemplate(ctx, { source, data: options.data, recordWith });
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
