import crypto from 'node:crypto';
import type { ServiceContext } from '../../context.js';
import type { FillSessionRow, PrebuiltProcessRow, ReferenceLinkRow, TemplateRow } from '../../db/schema.js';
import { parsedTemplateBody } from '../../documents/creating/template-body.js';
import { fail } from '../../domain-error.js';
import { findPrebuilt, findPrebuiltByToken } from '../../prebuilt/queries.js';
import { PREBUILT_TOKEN_LENGTH, prebuiltState } from '../../prebuilt/stored-prebuilt.js';
import { findTemplate } from '../../templates/read-templates.js';
import type { TemplateBody } from '../../templates/schemas.js';
import { findReferenceLink, findReferenceLinkByToken } from '../queries.js';
import { checkUsable } from './fill-link.js';
import { findFillSession } from './fill-session-queries.js';

/** 33 random bytes: 44 characters, a length no other form's token has (reference links' are 32, prebuilt processes' 40). */
export const FILL_SESSION_TOKEN_BYTES = 33;
const FILL_SESSION_TOKEN_LENGTH = 44;

/** What the form fills in: a reference link's template, a prebuilt process, or (through the SDK) a template of the organization. */
export type FillTarget = { kind: 'reference'; link: ReferenceLinkRow } | { kind: 'prebuilt'; prebuilt: PrebuiltProcessRow } | { kind: 'template' };

export interface FillSource {
  organizationId: string;
  template: Readonly<TemplateRow>;
  body: TemplateBody;
  target: FillTarget;
  /** The SDK's opening of the form, when it came through the SDK. */
  session?: FillSessionRow;
}

/** Sessions are kept by the SHA-256 of their token, so the database holds none that works. */
export function fillSessionHash(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

interface Found {
  organizationId: string;
  templateId: string;
  target: FillTarget;
  session?: FillSessionRow;
}

async function sessionTarget(ctx: ServiceContext, session: FillSessionRow): Promise<FillTarget | undefined> {
  if (session.prebuilt_id !== null) {
    const prebuilt = await findPrebuilt(ctx.db, session.organization_id, session.prebuilt_id);
    return prebuilt && { kind: 'prebuilt', prebuilt };
  }
  if (session.reference_link_id !== null) {
    const link = await findReferenceLink(ctx.db, session.organization_id, session.reference_link_id);
    return link && { kind: 'reference', link };
  }
  return { kind: 'template' };
}

/** The three kinds of token have three lengths, so one lookup finds the token's row. */
async function find(ctx: ServiceContext, token: string): Promise<Found | undefined> {
  if (token.length === PREBUILT_TOKEN_LENGTH) {
    const prebuilt = await findPrebuiltByToken(ctx.db, token);
    return prebuilt && { organizationId: prebuilt.organization_id, templateId: prebuilt.template_id, target: { kind: 'prebuilt', prebuilt } };
  }
  if (token.length === FILL_SESSION_TOKEN_LENGTH) {
    const session = await findFillSession(ctx.db, fillSessionHash(token));
    const target = session && (await sessionTarget(ctx, session));
    return session && target && { organizationId: session.organization_id, templateId: session.template_id, target, session };
  }
  const link = await findReferenceLinkByToken(ctx.db, token);
  return link && { organizationId: link.organization_id, templateId: link.template_id, target: { kind: 'reference', link } };
}

/**
 * What a form's token opens, with its organization's template. The token is the whole secret: the
 * organization, the template and the prefilled answers are read from its row, never from anything
 * the page sends, so it reaches nothing of another organization.
 */
export async function findFillSource(ctx: ServiceContext, token: string): Promise<FillSource> {
  const found = await find(ctx, token);
  const template = found && (await findTemplate(ctx, found.organizationId, found.templateId));
  if (!found || !template) throw fail('REFERENCE_LINK_NOT_FOUND');
  return { ...found, template, body: parsedTemplateBody(ctx, template) };
}

/** A form that no longer takes answers says why, and creates nothing. */
export function checkOpen(ctx: Pick<ServiceContext, 'clock'>, source: FillSource): void {
  const now = ctx.clock.now();
  const { session, target } = source;
  if (session) {
    if (session.process_code !== null) throw fail('FILL_SESSION_USED');
    if (session.expires_at <= now.toISOString()) throw fail('FILL_SESSION_EXPIRED');
  }
  if (target.kind === 'reference') checkUsable(ctx, target.link);
  if (target.kind === 'prebuilt') {
    const state = prebuiltState(target.prebuilt, now);
    if (state === 'COMPLETED') throw fail('PREBUILT_COMPLETED');
    if (state === 'CANCELLED') throw fail('PREBUILT_CANCELLED');
    if (state === 'EXPIRED') throw fail('PREBUILT_EXPIRED');
  }
}

/** The form of a token, taking answers now. */
export async function openFillSource(ctx: ServiceContext, token: string): Promise<FillSource> {
  const source = await findFillSource(ctx, token);
  checkOpen(ctx, source);
  return source;
}
