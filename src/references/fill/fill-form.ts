import type { ServiceContext } from '../../context.js';
import { readBlobBytes } from '../../files/blob-bytes.js';
import { findOrganization } from '../../organizations/queries.js';
import type { FillForm, FillPrefilled, FillPreview, FillQuestion } from '../../people/contract.js';
import { SIGNER_TYPES } from '../../templates/question-types.js';
import type { Question, TemplateBody } from '../../templates/schemas.js';
import { templateFileKey } from '../../templates/template-files.js';
import { usableFillLink } from './fill-link.js';

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
 * (preFill). A process prepared beforehand (a prebuild) adds its own here.
 */
function prefilledOf(body: TemplateBody): FillPrefilled[] {
  return (body.preFill ?? []).map((entry) => ({ name: entry.name, value: entry.value, locked: true }));
}

/** GET /people/fill: the questionnaire of the link's template, in order, and what the page must know of the link. */
export async function readFillForm(ctx: ServiceContext, options: { token: string }): Promise<FillForm> {
  const { link, template, body } = await usableFillLink(ctx, options.token);
  const organization = await findOrganization(ctx.db, link.organization_id);
  const mask = await ctx.blobs.exists(templateFileKey(template.id, 'mask'));
  return {
    template: { name: template.name, ...(template.description === null ? {} : { description: template.description }) },
    organization: organization?.name ?? '',
    questions: body.config.map((question) => fillQuestion(body, question)),
    prefilled: prefilledOf(body),
    signNow: link.sign_now === 1,
    ...(link.expires_at === null ? {} : { expiresAt: link.expires_at }),
    preview: mask,
  };
}

/** GET /people/fill/preview: the template's Mask HTML as uploaded; the page shows it where no script runs. */
export async function readFillPreview(ctx: ServiceContext, options: { token: string }): Promise<FillPreview> {
  const { template } = await usableFillLink(ctx, options.token);
  const bytes = await readBlobBytes(ctx.blobs, templateFileKey(template.id, 'mask'));
  return { html: bytes ? bytes.toString('utf8') : null };
}
