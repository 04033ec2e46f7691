import type { TemplateRow } from '../db/schema.js';
import type { TemplateBody } from './schemas.js';

const EMPTY_BODY: TemplateBody = { config: [], sign: [], signatureProfile: [], preBuild: false };

/** The stored body was written by this service from a validated template, so it parses back to one. */
export function parseBody(row: Pick<TemplateRow, 'body'>): TemplateBody {
  const parsed: TemplateBody = JSON.parse(row.body);
  return parsed;
}

/** A field given replaces the stored one wholesale; a field omitted keeps it. */
export function mergeBody(input: Partial<TemplateBody>, base: TemplateBody = EMPTY_BODY): TemplateBody {
  return {
    config: input.config ?? base.config,
    sign: input.sign ?? base.sign,
    signatureProfile: input.signatureProfile ?? base.signatureProfile,
    preBuild: input.preBuild ?? base.preBuild,
    preBuildData: input.preBuildData ?? base.preBuildData,
    preFill: input.preFill ?? base.preFill,
    help: input.help ?? base.help,
    custom: input.custom ?? base.custom,
    files: input.files ?? base.files,
  };
}
