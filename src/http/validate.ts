import type Joi from 'joi';
import { DomainError } from '../domain-error.js';
import { answerMessage } from '../error-catalogue.js';
import { canonicalValue, UNDECIDED } from './canonical-input.js';

/** Validates with Joi and answers the first problem as a 400 in Joi's own words. */
export function validate<T>(schema: Joi.Schema<T>, input: unknown): T {
  const canonical = canonicalValue(schema, input);
  // Answered only where Joi would accept the input and answer this same value, so it is a T.
  if (canonical !== UNDECIDED) return canonical as T;
  // Joi's defaults (abort early, convert) are what the contract's messages need; passing no options
  // spares Joi merging them on every call.
  const { value, error } = schema.validate(input);
  if (error) throw new DomainError(answerMessage(error.details[0]?.message ?? error.message));
  return value;
}
