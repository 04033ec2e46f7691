import type { ServiceContext } from '../../context.js';
import { readBlobBytes } from '../../files/blob-bytes.js';
import { findOrganization } from '../../organizations/queries.js';
import type { FillForm, FillPrefilled, FillPreview, FillQuestion } from '../../people/contract.js';
import { storedAnswers } from '../../prebuilt/stored-prebuilt.js';
import { SIGNER_TYPES } from '../../templates/question-types.js';
import type { Question, TemplateBody } from '../../templates/schemas.js';
import { templateFileKey } from '../../templates/template-files.js';
import { type FillSource, openFillSource } from './fill-source.js';
import { fillerPosition } from './filler.js';
import { previewSource } from './preview-source.js';

/** What the page needs of a question to draw it: never its pattern or anything of other questions. */
function fillQuestion(body: TemplateBody, question: Question): FillQuestion {
  const help = question.help === undefined ? undefined : body.help?.[question.help];
  return {
    name: question.name,
    type: question.type,
    description: question.description,
    ...(help === undefined ? {} : { help }),
    required: body.sign.includes(question.name) && !SIGNER_TYPES.has(question.type),
    ...(question.value === undefined ? {} : { value: question.value }),
    ...(question.options ? { options: question.options.map((option) => ({ value: option.value, label: option.label ?? option.name })) } : {}),
    ...(question.values ? { values: question.values } : {}),
    ...(question.prereq ? { prereq: question.prereq } : {}),
    ...(question.prereqOptionals ? { prereqOptionals: question.prereqOptionals } : {}),
    ...(question.country === undefined ? {} : { country: question.country }),
    ...(question.allow ? { allow: question.allow } : {}),
    ...(question.maxlength === undefined ? {} : { maxlength: question.maxlength }),
    ...(question.endpoint === undefined ? {} : { endpoint: question.endpoint }),
  };
}

/**
 * The answers the page starts with and the person cannot change: the template's fixed values
 * (preFill), and a prebuilt process's prefilled answers, which win.
 */
function prefilledOf(source: FillSource): FillPrefilled[] {
  const locked = new Map((source.body.preFill ?? []).map((entry) => [entry.name, entry.value]));
  if (source.target.kind === 'prebuilt') for (const answer of storedAnswers(source.target.prebuilt)) locked.set(answer.key, answer.value);
  return [...locked].map(([name, value]) => ({ name, value, locked: true }));
}

function expiryOf(target: FillSource['target']): string | null {
  if (target.kind === 'reference') return target.link.expires_at;
  if (target.kind === 'prebuilt') return target.prebuilt.expires_at;
  return null;
}

/** GET /people/fill: the questionnaire of the form's template, in order, and what the page must know of the form. */
export async function readFillForm(ctx: ServiceContext, options: { token: string }): Promise<FillForm> {
  const source = await openFillSource(ctx, options.token);
  const { template, body, target } = source;
  const organization = await findOrganization(ctx.db, source.organizationId);
  const mask = await ctx.blobs.exists(templateFileKey(template.id, 'mask'));
  const expiresAt = expiryOf(target);
  const signNow = target.kind === 'reference' && target.link.sign_now === 1;
  // With sign now, the person who fills the form signs in it, on the question their profile names.
  const signatureQuestion = signNow ? body.signatureProfile[fillerPosition(body)]?.signature : undefined;
  return {
    template: { name: template.name, ...(template.description === null ? {} : { description: template.description }) },
    organization: organization?.name ?? '',
    questions: body.config.map((question) => fillQuestion(body, question)),
    prefilled: prefilledOf(source),
    signNow,
    ...(signatureQuestion === undefined ? {} : { signatureQuestion }),
    ...(expiresAt === null ? {} : { expiresAt }),
    preview: mask,
  };
}

/** The template's Mask HTML as uploaded, ready for a preview where no script runs; `html` null when none was uploaded. */
export async function templateMaskPreview(ctx: Pick<ServiceContext, 'blobs'>, templateId: string): Promise<FillPreview> {
  const bytes = await readBlobBytes(ctx.blobs, templateFileKey(templateId, 'mask'));
  return bytes ? previewSource(bytes.toString('utf8')) : { html: null, sheets: [], inline: [] };
}

/** GET /people/fill/preview: the template's Mask HTML as uploaded; the page shows it where no script runs. */
export async function readFillPreview(ctx: ServiceContext, options: { token: string }): Promise<FillPreview> {
  const { template } = await openFillSource(ctx, options.token);
  return templateMaskPreview(ctx, template.id);
}
