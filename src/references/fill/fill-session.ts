import type { ServiceContext } from '../../context.js';
import { newToken } from '../../ids.js';
import type { EmbedFillInput } from '../../people/contract.js';
import { findPrebuiltByCode } from '../../prebuilt/queries.js';
import { findTemplate } from '../../templates/read-templates.js';
import { findReferenceLink, findReferenceLinkByToken } from '../queries.js';
import { deleteExpiredFillSessions, insertFillSession } from './fill-session-queries.js';
import { FILL_SESSION_TOKEN_BYTES, fillSessionHash } from './fill-source.js';

/** Long enough to fill a long form; a frame opened again makes a new one. */
export const FILL_SESSION_LIFETIME_MS = 12 * 60 * 60_000;

const TEMPLATE_ID = /^[0-9a-f]{24}$/;

/** Whether the SDK's `document` names a template (the fill flow) rather than a process or a face validation. */
export function isFillDocument(document: string): boolean {
  return TEMPLATE_ID.test(document);
}

export interface FillRequest extends EmbedFillInput {
  organizationId: string;
  /** The SDK's `document`: the template id. */
  templateId: string;
}

interface FillTargetIds {
  templateId: string;
  prebuiltId: string | null;
  referenceLinkId: string | null;
}

/**
 * What the SDK's fill flow names, in the organization only: its template; with `code` and
 * `preBuild: true`, a prebuilt process of that template; with `reference`, a reference link of that
 * template (by id or token). Anything else (another organization's, `code` without `preBuild`, both)
 * is nothing: the caller refuses it as it refuses an unknown document.
 */
export async function resolveFillRequest(ctx: ServiceContext, request: FillRequest): Promise<FillTargetIds | undefined> {
  const { organizationId, templateId } = request;
  const template = await findTemplate(ctx, organizationId, templateId);
  if (!template) return undefined;
  if (request.code !== undefined) {
    if (request.preBuild !== true || request.reference !== undefined) return undefined;
    const prebuilt = await findPrebuiltByCode(ctx.db, organizationId, request.code);
    return prebuilt?.template_id === template.id ? { templateId: template.id, prebuiltId: prebuilt.id, referenceLinkId: null } : undefined;
  }
  // `preBuild` without a code would be the integrator filling the first phase in the frame: not offered (POST /document/prebuild does it).
  if (request.preBuild === true) return undefined;
  if (request.reference !== undefined) {
    const link = TEMPLATE_ID.test(request.reference)
      ? await findReferenceLink(ctx.db, organizationId, request.reference)
      : await findReferenceLinkByToken(ctx.db, request.reference);
    const ours = link && link.organization_id === organizationId && link.template_id === template.id;
    return ours ? { templateId: template.id, prebuiltId: null, referenceLinkId: link.id } : undefined;
  }
  return { templateId: template.id, prebuiltId: null, referenceLinkId: null };
}

/**
 * Opens the form the SDK's fill flow names: a session of its own, whose token the frame acts with
 * as a person's link would, for twelve hours and one process. Only the token's SHA-256 is stored.
 */
export async function openFillSession(ctx: ServiceContext, options: { request: FillRequest; origin: string }): Promise<string | undefined> {
  const { request } = options;
  const ids = await resolveFillRequest(ctx, request);
  if (!ids) return undefined;
  const now = ctx.clock.now();
  const token = newToken(FILL_SESSION_TOKEN_BYTES);
  await deleteExpiredFillSessions(ctx.db, request.organizationId, now.toISOString());
  await insertFillSession(ctx.db, {
    token_hash: fillSessionHash(token),
    organization_id: request.organizationId,
    template_id: ids.templateId,
    reference_link_id: ids.referenceLinkId,
    prebuilt_id: ids.prebuiltId,
    origin: options.origin,
    expires_at: new Date(now.getTime() + FILL_SESSION_LIFETIME_MS).toISOString(),
    idempotency_key: null,
    process_code: null,
    used_at: null,
    created_at: now.toISOString(),
  });
  return token;
}
