import type { CodeMessage, FieldMessage } from './error-catalogue.js';

/**
 * An error the API answers as `{message}` with its status; anything else becomes a logged 500.
 * The message is a code of the catalogue (optionally with a detail) or a validation message
 * naming its field, so every answer can be looked up in the error catalogue.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: CodeMessage | FieldMessage,
    /** Headers the answer carries, such as Retry-After. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: CodeMessage | FieldMessage) => new ApiError(400, message);
export const unauthorized = () => new ApiError(401, 'UNAUTHORIZED');
export const forbidden = (message: CodeMessage) => new ApiError(403, message);
export const notFound = (message: CodeMessage) => new ApiError(404, message);

/** A limit's refusal: 429 with the whole seconds left in its window, in the answer and in Retry-After. */
export function tooManyRequests(msLeft: number): ApiError {
  const seconds = Math.max(1, Math.ceil(msLeft / 1000));
  return new ApiError(429, `TOO_MANY_REQUESTS: try again in ${seconds} s`, { 'retry-after': String(seconds) });
}
