import type { ServiceContext } from '../../context.js';
import type { ReferenceLinkRow } from '../../db/schema.js';
import { createSigningProcess } from '../../documents/creating/create-process.js';
import { draftFromTemplate } from '../../documents/creating/drafts.js';
import { checkAnswers } from '../../documents/creating/template-answers.js';
import { participantLink } from '../../documents/notify-participants.js';
import { fail } from '../../domain-error.js';
import { newObjectId } from '../../ids.js';
import { firstUser } from '../../organizations/queries.js';
import type { FillAnswer, FillChecked, FillSubmitted } from '../../people/contract.js';
import type { TemplateBody } from '../../templates/schemas.js';
import { fillerLinkToken, findReferenceLinkUse, insertReferenceLinkUse } from '../queries.js';
import { validationsOf } from '../reference-links.js';
import { checkUsable, findFillLink, usableFillLink } from './fill-link.js';

/** POST /people/fill/check: every refused answer with its question, in /document/save's words; none when the answers would be taken. */
export async function checkFillAnswers(ctx: ServiceContext, options: { token: string; data: FillAnswer[] }): Promise<FillChecked> {
  const { body } = await usableFillLink(ctx, options.token);
  const report = checkAnswers(body, options.data);
  return { errors: report.ok ? [] : report.problems };
}

/**
 * Who fills the form among the template's signers: the one whose signature the template asks in
 * the form (`signatureProfile[].signature`, the real service's "sign now" convention), else the first.
 */
export function fillerPosition(body: TemplateBody): number {
  const signing = body.signatureProfile.findIndex((profile) => profile.signature !== undefined);
  return signing === -1 ? 0 : signing;
}

/**
 * The creator of a link's processes: the user the link names, else the organization's first user
 * (the one it was created with). A user who left makes creation answer USER_NOTFOUND, as
 * /document/save does.
 */
async function creatorOf(ctx: ServiceContext, link: ReferenceLinkRow): Promise<string> {
  if (link.creator_email !== null) return link.creator_email;
  const user = await firstUser(ctx.db, link.organization_id);
  if (!user) throw fail('USER_NOTFOUND');
  return user.email;
}

/** The answer a use gives, the first time and to every retry with its key. */
async function answerOf(ctx: ServiceContext, use: { process_code: string; filler_participant_id: string | null }): Promise<FillSubmitted> {
  const token = use.filler_participant_id === null ? undefined : await fillerLinkToken(ctx.db, use.filler_participant_id);
  return { code: use.process_code, ...(token === undefined ? {} : { signingUrl: participantLink(ctx, { link_token: token }) }) };
}

/**
 * POST /people/fill: creates the process exactly as POST /document/save does with these answers
 * (the template's signers read through them, the link's validations at the root, by the link's
 * creator) and records the use in the same transaction. A key already used on this link answers
 * what its first submission made, so a retried submission makes one process; two at once race on
 * the use's unique key and the loser's process is rolled back with it.
 */
export async function submitFill(ctx: ServiceContext, options: { token: string; data: FillAnswer[]; idempotencyKey: string }): Promise<FillSubmitted> {
  const { link, template, body } = await findFillLink(ctx, options.token);
  const earlier = await findReferenceLinkUse(ctx.db, link.id, options.idempotencyKey);
  if (earlier) return answerOf(ctx, earlier);
  checkUsable(ctx, link);
  const signNow = link.sign_now === 1;
  const filler = fillerPosition(body);
  const draft = draftFromTemplate({
    email: await creatorOf(ctx, link),
    name: template.name,
    document: template.id,
    data: options.data,
    sign: true,
    notification: true,
    ...validationsOf(link),
  });
  try {
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
            idempotency_key: options.idempotencyKey,
            process_id: process.id,
            process_code: process.code,
            filler_participant_id: signNow ? (participants[filler]?.id ?? null) : null,
            created_at: process.created_at,
          });
        },
      },
    });
    const url = signNow ? created.signProfile[filler]?.url : undefined;
    return { code: created.code, ...(url === undefined ? {} : { signingUrl: url }) };
  } catch (error) {
    // The same key sent twice at once: the other submission's process stands, and is the answer.
    const winner = await findReferenceLinkUse(ctx.db, link.id, options.idempotencyKey);
    if (winner) return answerOf(ctx, winner);
    throw error;
  }
}
