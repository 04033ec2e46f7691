import type { TemplateRow } from '../db/schema.js';
import type { TemplateBody } from './schemas.js';

const EMPTY_BODY: TemplateBody = { config: [], sign: [], signatureProfile: [], preBuild: false };

/** The stored body was written by this service from a validated template, so it parses back to one. */
export function parseBody(row: Pick<TemplateRow, 'body'>): TemplateBody {
  const parsed: TemplateBody = JSON.parse(row.body);
  return parsed;
}

const BODY_FIELDS = ['config', 'sign', 'signatureProfile', 'preBuild', 'preBuildData', 'preFill', 'help', 'custom', 'files'] as const;

/** Whether an update touches the questionnaire document at all (a new name or description does not). */
export function changesBody(input: Partial<TemplateBody>): boolean {
  return BODY_FIELDS.some((field) => input[field] !== undefined);
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
