import type { Config } from '../../config.js';
import { DEFAULT_FACE_MATCH_THRESHOLD } from '../../config.js';
import type { ServiceContext } from '../../context.js';
import { type ApiRoute, defineRoute, noInput } from '../../http/route.js';
import { userOf } from '../console-user.js';
import { recordIdentityViews } from '../identity-views.js';
import { decideReview, readReviewPhoto } from './decide.js';
import { numbersShown, photoViewed, readReviewQueue } from './review-queue.js';
import { reviewDecidedResponse, reviewDecisionBody, reviewPhotoQuery, reviewQueueResponse } from './schemas.js';

const tag = 'console';

/**
 * The console's review queue: the organization's blocked signers and face validations, their
 * photos (to the organization's sessions only, never cached, never by a URL that works without
 * the session), and the decision on each, taken through the API's own review and unlock. They show
 * identity data, so they are the reviewers' and admins' (`console-identity`), and each ID number and
 * photo shown is a row of the audit log.
 */
export function consoleReviewRoutes(ctx: ServiceContext, options: { config: Config }): ApiRoute[] {
  const matcher = options.config.faceMatcher;
  const threshold = matcher.kind === 'local' ? matcher.threshold : DEFAULT_FACE_MATCH_THRESHOLD;
  return [
    defineRoute({
      method: 'GET',
      url: '/console/api/review',
      access: 'console',
      permission: 'identity.view',
      tag,
      summary: 'The review queue: blocked signers and face validations, newest first, with their reasons, attempts, similarity and numbers',
      description:
        "At most 100 of each kind. The similarity is shown with its band against FACE_MATCH_THRESHOLD. Each item whose ID numbers are shown is an IDENTITY_VIEWED row of the console's audit log.",
      body: noInput,
      query: noInput,
      response: { json: reviewQueueResponse },
      errors: [],
      handler: async (input) => {
        const queue = await readReviewQueue(ctx, { organizationId: input.organizationId, threshold });
        await recordIdentityViews(ctx.db, ctx.clock, { user: userOf(input), address: input.request.ip, views: queue.data.flatMap(numbersShown) });
        return queue;
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/console/api/review/photo',
      access: 'console',
      permission: 'identity.view',
      tag,
      summary: 'A photo of an item waiting in the review queue: the ID document (front, back) or the face',
      description:
        "Decrypted for the session only, with Cache-Control: no-store; an item decided already, or of another organization, answers 404 REVIEW_NOT_FOUND. Each photo served is a PHOTO_VIEWED row of the console's audit log.",
      body: noInput,
      query: reviewPhotoQuery,
      response: { raw: { mediaTypes: ['image/jpeg', 'image/png'], description: 'the decrypted photo' } },
      errors: ['REVIEW_NOT_FOUND', 'FILE_NOT_FOUND', 'PHOTO_UNREADABLE'],
      handler: async (input) => {
        const { query, organizationId, reply } = input;
        const { image, contentType, name } = await readReviewPhoto(ctx, { organizationId, ...query });
        await recordIdentityViews(ctx.db, ctx.clock, { user: userOf(input), address: input.request.ip, views: [photoViewed({ ...query, name })] });
        return reply
          .headers({ 'content-type': contentType, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'content-disposition': 'inline' })
          .send(image);
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/review/decide',
      access: 'console',
      permission: 'review.decide',
      tag,
      summary: 'Decide an item of the review queue: approve, reject, or (a signer) reset, with a reason',
      description:
        "A face validation is decided as POST /veriface/review decides it, a signer as POST /document/unlock does, with the session's user as who decided: the same states, audit trail and webhooks (veriface.validated or veriface.invalidated; document.signer_unlocked or document.rejected). The console's audit log records the decision and its reason.",
      body: reviewDecisionBody,
      query: noInput,
      response: { json: reviewDecidedResponse },
      errors: [
        'REVIEW_NOT_FOUND',
        'VERIFACE_NOT_FOUND',
        'VERIFACE_NOT_BLOCKED',
        'USER_NOTFOUND',
        'MISSING_SIGNER_ID',
        'DOCUMENT_NOT_FOUND',
        'SIGNER_NOT_FOUND',
        'DOCUMENT_NOT_IN_SIGNATURE',
        'NOT_BLOCKED_PROCESS',
      ],
      handler: (input) => decideReview(ctx, { user: userOf(input), input: input.body, address: input.request.ip }),
    }),
  ];
}
