import Joi from 'joi';
import type { PrebuiltProcessRow } from '../db/schema.js';
import { type Answer, answersJoi, type ProcessFieldsInput } from '../documents/schemas.js';
import { storedFieldsSchema } from './schemas.js';

/** Where the form of a prebuilt process lives: under this path of PUBLIC_URL, followed by its token. */
export const PREBUILT_PATH_PREFIX = '/f/';

/** 30 random bytes: 40 characters, a length no other form's token has (src/references/fill/fill-source.ts tells them apart by it). */
export const PREBUILT_TOKEN_BYTES = 30;
export const PREBUILT_TOKEN_LENGTH = 40;

export function prebuiltLink(ctx: { publicUrl: string }, row: Pick<PrebuiltProcessRow, 'link_token'>): string {
  return `${ctx.publicUrl}${PREBUILT_PATH_PREFIX}${row.link_token}`;
}

/** The prefilled answers, as they were checked when the prebuilt process was made. */
export function storedAnswers(row: Pick<PrebuiltProcessRow, 'answers'>): Answer[] {
  return Joi.attempt(JSON.parse(row.answers), answersJoi.required());
}

/** /document/save's root fields the process is created with, read back through the schema that checked them. */
export function storedFields(row: Pick<PrebuiltProcessRow, 'fields'>): ProcessFieldsInput {
  return Joi.attempt(JSON.parse(row.fields), storedFieldsSchema.required());
}

export type PrebuiltState = 'PENDING' | 'COMPLETED' | 'CANCELLED' | 'EXPIRED';

/** Its state now: one that waits past its expiry has expired, though nothing wrote it. */
export function prebuiltState(row: Pick<PrebuiltProcessRow, 'status' | 'expires_at'>, now: Date): PrebuiltState {
  if (row.status === 'PENDING' && row.expires_at !== null && row.expires_at <= now.toISOString()) return 'EXPIRED';
  return row.status;
}
