import type Joi from 'joi';
import { badRequest } from './errors.js';

/** Validates with Joi and answers the first problem as a 400 in Joi's own words. */
export function validate<T>(schema: Joi.Schema<T>, input: unknown): T {
  const { value, error } = schema.validate(input, { abortEarly: true, convert: true });
  if (error) throw badRequest(error.details[0]?.message ?? error.message);
  return value;
}
