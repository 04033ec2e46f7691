import type { CodeMessage, ErrorCode, FieldMessage, SituatedCode, SituationOf } from './error-catalogue.js';

/**
 * Why the service refuses a request, in the error catalogue's words: a code (optionally with a
 * detail) or a validation message naming its field. Code outside src/http throws it without
 * knowing HTTP; app.ts answers it at the catalogue's status (src/http/errors.ts).
 */
export class DomainError extends Error {
  declare readonly message: CodeMessage | FieldMessage;

  constructor(
    message: CodeMessage | FieldMessage,
    /** For a code the catalogue answers at several statuses: the situation it names. */
    readonly situation?: string,
    /** Seconds before the same request can succeed (a limit's window, a full queue), sent as Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** A code answered at several statuses says which of the catalogue's situations it is in. */
type FailArgs<C extends ErrorCode> = C extends SituatedCode ? [at: { when: SituationOf<C>; detail?: string }] : [detail?: string];

/** The refusal of a catalogue code, with a detail for the reader after a colon. */
export function fail<C extends ErrorCode>(code: C, ...args: FailArgs<C>): DomainError {
  const [at] = args;
  const { when, detail } = typeof at === 'object' ? at : { when: undefined, detail: at };
  return new DomainError(detail === undefined ? code : `${code}: ${detail}`, when);
}

/** A refusal for a while (a limit's window, a full queue): the seconds to wait, in the detail and in Retry-After. */
export function failFor(
  code:
    | 'TOO_MANY_REQUESTS'
    | 'FACE_MATCHER_BUSY'
    | 'FACE_COMPARISON_UNDER_WAY'
    | 'FACE_COMPARISONS_PER_HOUR_EXCEEDED'
    | 'FORM_PROCESSES_PER_HOUR_EXCEEDED'
    | 'REFERENCE_LINK_HOURLY_CAP_EXCEEDED'
    | 'REMINDER_TOO_SOON',
  seconds: number,
  detail: string,
): DomainError {
  return new DomainError(`${code}: ${detail}`, undefined, seconds);
}

/** A limit's refusal: the whole seconds left in its window. */
export function tooManyRequests(msLeft: number): DomainError {
  const seconds = Math.max(1, Math.ceil(msLeft / 1000));
  return failFor('TOO_MANY_REQUESTS', seconds, `try again in ${seconds} s`);
}

/** An input a schema cannot check by itself, refused in Joi's words (400). */
export const invalid = (message: FieldMessage) => new DomainError(message);
