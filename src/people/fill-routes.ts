import type { ServiceContext } from '../context.js';
import { type ApiRoute, defineRoute, noInput, type RouteError } from '../http/route.js';
import { readFillForm, readFillPreview } from '../references/fill/fill-form.js';
import { checkFillAnswers, confirmFill, resendFillCode, submitFill } from '../references/fill/submit-fill.js';
import {
  FILL_BODY_LIMIT,
  fillCheckedResponse,
  fillCheckSchema,
  fillConfirmSchema,
  fillFormResponse,
  fillPreviewResponse,
  fillResendSchema,
  fillSubmitSchema,
  fillSubmittedResponse,
} from './fill-schemas.js';

const tag = "people's pages";
const MINUTE = 60_000;
/** Reads and checks: generous for a person typing, far too few to guess tokens. */
const FORM_LIMIT = { max: 120, windowMs: MINUTE };
/** Each submission makes a process and invites its participants: a few per address, as the messages the pages send. */
const SUBMIT_LIMIT = { max: 10, windowMs: 10 * MINUTE };
/** Codes typed: a few tries for a person, each counted against the submission too (three wrong end it). */
const CONFIRM_LIMIT = { max: 10, windowMs: MINUTE };
/** New codes asked for: the submission allows three, this bounds an address asking across submissions. */
const RESEND_LIMIT = { max: 6, windowMs: 10 * MINUTE };

const LINK_ERRORS: readonly RouteError[] = [
  'LINK_NOT_FOUND',
  'REFERENCE_LINK_NOT_FOUND',
  'REFERENCE_LINK_DISABLED',
  'REFERENCE_LINK_EXPIRED',
  'REFERENCE_LINK_USED_UP',
  'PREBUILT_COMPLETED',
  'PREBUILT_CANCELLED',
  'PREBUILT_EXPIRED',
  'FILL_SESSION_EXPIRED',
  'FILL_SESSION_USED',
];

/**
 * The questionnaire of a reference link (/r/<token>), of a prebuilt process (/f/<token>) or of a
 * form the SDK opened: its token in X-Link-Token, as every people's route. What the page reads,
 * checks and sends is the form's own template, of its own organization; submitting creates the
 * process as POST /document/save does (a prebuilt process's under its code, its answers locked).
 */
export function fillRoutes(ctx: ServiceContext): ApiRoute[] {
  const base = { access: 'link-token', tag } as const;
  return [
    defineRoute({
      ...base,
      method: 'GET',
      url: '/people/fill',
      summary: "A reference link's questionnaire: the template's name, its questions in order with their help, what is prefilled, and whether it signs now",
      body: noInput,
      query: noInput,
      response: { json: fillFormResponse },
      errors: LINK_ERRORS,
      rateLimit: FORM_LIMIT,
      handler: ({ linkToken }) => readFillForm(ctx, { token: linkToken }),
    }),
    defineRoute({
      ...base,
      method: 'GET',
      url: '/people/fill/preview',
      summary: "The template's Mask HTML, for the live preview beside the form (shown where no script runs)",
      body: noInput,
      query: noInput,
      response: { json: fillPreviewResponse },
      errors: LINK_ERRORS,
      rateLimit: FORM_LIMIT,
      handler: ({ linkToken }) => readFillPreview(ctx, { token: linkToken }),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/fill/check',
      summary: 'Check the answers: every refused one with its question, in the words POST /document/save answers for them',
      body: fillCheckSchema,
      query: noInput,
      bodyLimit: FILL_BODY_LIMIT,
      response: { json: fillCheckedResponse },
      errors: [...LINK_ERRORS, 'PREFILLED_ANSWER_LOCKED'],
      rateLimit: FORM_LIMIT,
      handler: ({ linkToken, body }) => checkFillAnswers(ctx, { token: linkToken, data: body.data }),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/fill',
      summary: "Send the answers: creates the process as POST /document/save would, with the link's settings (or completes the prebuilt process)",
      description:
        "Answers {code, signingUrl?}: `signingUrl`, with sign now only, is the signing page of the person who filled the form (the template's signer whose signature the form asks, else its first). The same `idempotencyKey` answers the same process, however often it is sent.",
      body: fillSubmitSchema,
      query: noInput,
      bodyLimit: FILL_BODY_LIMIT,
      response: { json: fillSubmittedResponse },
      errors: [
        ...LINK_ERRORS,
        'PREFILLED_ANSWER_LOCKED',
        'WEBHOOK_NOT_FOUND',
        'USER_NOTFOUND',
        'TEMPLATE_HTML_MISSING',
        'PATTERNS_TOO_COSTLY',
        'SIGNER_DATA_MISSING',
        'SIGNERS_REQUIRED',
        'SIGNER_EMAIL_DUPLICATED',
        'FORM_PROCESSES_PER_HOUR_EXCEEDED',
        'REFERENCE_LINK_HOURLY_CAP_EXCEEDED',
      ],
      rateLimit: SUBMIT_LIMIT,
      handler: ({ linkToken, body }) => submitFill(ctx, { token: linkToken, data: body.data, idempotencyKey: body.idempotencyKey }),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/fill/confirm',
      summary: "Confirm the submitter's own address with the code sent there; only then are the process's other participants invited",
      description:
        "A public form's process (a reference link's, or the SDK fill flow's) tells nobody but its submitter until this: `idempotencyKey` names the submission. Answers as POST /people/fill then does (with sign now, `signingUrl`). The third wrong code, or an hour gone by, ends the submission: FILL_CONFIRMATION_EXPIRED.",
      body: fillConfirmSchema,
      query: noInput,
      response: { json: fillSubmittedResponse },
      errors: [...LINK_ERRORS, 'FILL_SUBMISSION_NOT_FOUND', 'FILL_CONFIRMATION_EXPIRED', 'OTP_CODE_INVALID'],
      rateLimit: CONFIRM_LIMIT,
      handler: ({ linkToken, body, request }) => confirmFill(ctx, { token: linkToken, idempotencyKey: body.idempotencyKey, code: body.code, ip: request.ip }),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      url: '/people/fill/resend',
      summary: 'Send the submitter a new code at the same address, for a code that did not arrive',
      description:
        'The code before it stops working. At most three new codes a submission, 30 seconds apart (OTP_TOO_SOON), within the hour the submission has; answers as POST /people/fill did (`confirmation`). A confirmed submission sends nothing.',
      body: fillResendSchema,
      query: noInput,
      response: { json: fillSubmittedResponse },
      errors: [...LINK_ERRORS, 'FILL_SUBMISSION_NOT_FOUND', 'FILL_CONFIRMATION_EXPIRED', 'FILL_CODE_RESENDS_USED_UP', 'OTP_TOO_SOON'],
      rateLimit: RESEND_LIMIT,
      handler: ({ linkToken, body }) => resendFillCode(ctx, { token: linkToken, idempotencyKey: body.idempotencyKey }),
    }),
  ];
}
