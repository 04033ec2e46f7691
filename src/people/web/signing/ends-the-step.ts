import type { ErrorCode } from '../../../error-catalogue.js';

/** Refusals after which the page has nothing more to offer in this step: it reloads to show why. */
export const ENDS_THE_STEP: readonly ErrorCode[] = [
  'PARTICIPANT_BLOCKED',
  'DOCUMENT_NOT_IN_SIGNATURE',
  'DOCUMENT_EXPIRED',
  'PARTICIPANT_ALREADY_DONE',
  'NOT_YOUR_TURN',
  // The files asked are not all given (another tab replaced the state): the page goes back to them.
  'ATTACHMENT_REQUIRED',
];
